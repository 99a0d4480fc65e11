from django.apps import AppConfig


class PacgSiteConfig(AppConfig):
    name = "pacg_site"
    verbose_name = "pacg-site"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the deploy checks)
