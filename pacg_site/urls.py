from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from campaigns import api as campaigns_api
from cards import api as cards_api
from play import api as play_api
from rules import api as rules_api

from . import accounts, views
from .security import content_security_policy, swagger_ui_policy

api_patterns = [
    path("", views.APIRoot.as_view(), name="root"),
    path("auth/token/", accounts.TokenAPI.as_view(), name="token"),
    path("cards/", cards_api.CardListAPI.as_view(), name="cards-list"),
    path("cards/autocomplete/", cards_api.AutocompleteAPI.as_view(), name="cards-autocomplete"),
    path("cards/search-help/", cards_api.SearchHelpAPI.as_view(), name="cards-search-help"),
    path("cards/<str:uid>/", cards_api.CardDetailAPI.as_view(), name="cards-detail"),
    path("sets/", cards_api.SetListAPI.as_view(), name="sets-list"),
    path("rules/search/", rules_api.RulesSearchAPI.as_view(), name="rules-search"),
    path("rules/ask/", rules_api.AskAPI.as_view(), name="rules-ask"),
    path("rules/books/", rules_api.BookListAPI.as_view(), name="rules-books"),
    path("rules/conflicts/", rules_api.ConflictsAPI.as_view(), name="rules-conflicts"),
    path("rules/passages/<slug:book>/<slug:anchor>/", rules_api.PassageAPI.as_view(), name="rules-passage"),
    path("parties/", campaigns_api.PartyListAPI.as_view(), name="parties-list"),
    path("parties/import/", campaigns_api.ImportAPI.as_view(), name="parties-import"),
    path("parties/<int:party_id>/", campaigns_api.PartyAPI.as_view(), name="parties-detail"),
    path("parties/<int:party_id>/members/", campaigns_api.MembersAPI.as_view(), name="parties-members"),
    path("parties/<int:party_id>/characters/", campaigns_api.PartyCharactersAPI.as_view(), name="parties-characters"),
    path("parties/<int:party_id>/log/", campaigns_api.LogAPI.as_view(), name="parties-log"),
    path("parties/<int:party_id>/log/<int:seq>/revert/", campaigns_api.RevertAPI.as_view(), name="parties-revert"),
    path("parties/<int:party_id>/vault/", campaigns_api.VaultAPI.as_view(), name="parties-vault"),
    path("parties/<int:party_id>/export/", campaigns_api.ExportAPI.as_view(), name="parties-export"),
    path("characters/<int:character_id>/", campaigns_api.CharacterAPI.as_view(), name="characters-detail"),
    path("characters/<int:character_id>/deck/", campaigns_api.DeckAPI.as_view(), name="characters-deck"),
    path("parties/<int:party_id>/simulations/", play_api.SimulationListAPI.as_view(), name="parties-simulations"),
    path("simulations/<str:simulation_id>/", play_api.SimulationAPI.as_view(), name="simulation"),
    path("simulations/<str:simulation_id>/cancel/", play_api.SimulationCancelAPI.as_view(), name="simulation-cancel"),
    path("play/sessions/", play_api.SessionListAPI.as_view(), name="play-sessions"),
    path("play/sessions/<str:session_id>/", play_api.SessionAPI.as_view(), name="play-session"),
    path("play/sessions/<str:session_id>/finish/", play_api.FinishAPI.as_view(), name="play-finish"),
    path("play/sessions/<str:session_id>/pending/", play_api.PendingAPI.as_view(), name="play-pending"),
    path("play/sessions/<str:session_id>/actions/", play_api.ActionsAPI.as_view(), name="play-actions"),
    path("play/sessions/<str:session_id>/preview/", play_api.PreviewAPI.as_view(), name="play-preview"),
    path("play/sessions/<str:session_id>/events/", play_api.EventsAPI.as_view(), name="play-events"),
    path("play/odds/", play_api.OddsAPI.as_view(), name="play-odds"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "docs/",
        content_security_policy(swagger_ui_policy)(SpectacularSwaggerSplitView.as_view(url_name="api:schema")),
        name="docs",
    ),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.Health.as_view(), name="healthz"),
    path("admin/login/", accounts.admin_log_in),
    path("admin/", admin.site.urls),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.log_in, name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include((api_patterns, "api"))),
    path("cards/", include("cards.urls")),
    path("rules/", include("rules.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("play/", include("play.urls")),
]

handler404 = "pacg_site.views.not_found"
