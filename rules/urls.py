from django.urls import path

from . import views

app_name = "rules"

urlpatterns = [
    path("", views.ask_page, name="ask"),
    path("glossary/", views.glossary_page, name="glossary"),
    path("<slug:slug>/", views.book_page, name="book"),
    path("<slug:slug>/<slug:anchor>/", views.passage_page, name="passage"),
]
