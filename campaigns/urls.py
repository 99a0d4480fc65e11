from django.urls import path

from . import views

app_name = "campaigns"

urlpatterns = [
    path("", views.party_list, name="list"),
    path("import/", views.import_upload, name="import"),
    path("<int:party_id>/", views.dashboard, name="party"),
    path("<int:party_id>/export/", views.export_download, name="export"),
    path("<int:party_id>/<slug:action>/", views.party_action, name="action"),
    path("characters/<int:character_id>/", views.sheet_page, name="character"),
    path("characters/<int:character_id>/deck/", views.deck_editor, name="deck"),
]
