from django.urls import path

from . import views

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("<uuid:session_id>/", views.table, name="table"),
    path("parties/<int:party_id>/simulate/", views.simulate, name="simulate"),
    path("simulations/<uuid:simulation_id>/", views.simulation, name="simulation"),
]
