from django.urls import path

from . import views

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("<uuid:session_id>/", views.table, name="table"),
]
