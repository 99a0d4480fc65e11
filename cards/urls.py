from django.urls import path

from . import views

app_name = "cards"

urlpatterns = [
    path("", views.browse, name="browse"),
    path("help/", views.help_page, name="help"),
    path("<str:uid>/", views.detail, name="detail"),
]
