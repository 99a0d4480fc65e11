from django.apps import AppConfig


class PacgSiteConfig(AppConfig):
    name = "pacg_site"
    verbose_name = "pacg-site"
