import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pacg_site.settings")

application = get_wsgi_application()

# Each serving process loads what the rules assistant's first answer needs as it starts, not when
# a player asks (rules.assistant.warmup). Imported only now: the apps are ready.
from rules.assistant.vectors import embed_in_background  # noqa: E402
from rules.assistant.warmup import warm_up_in_background  # noqa: E402

warm_up_in_background()
embed_in_background()  # the passages' vectors, if a new site lacks them (rules.assistant.vectors)
