"""One settings file, read from the environment (ENGINEERING.md §2).

Every variable is parsed strictly: a malformed value stops start-up with a message that names
the variable and what was wrong, instead of running with a silently wrong configuration.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use 1/0, true/false, yes/no or on/off")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    items = [item.strip() for item in raw.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(f"{name}={raw!r} has an empty item; separate hosts with single commas")
    return items


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number")
    return int(raw)


def parse_rate_limits(name: str, defaults: dict[str, str]) -> dict[str, tuple[int, int] | None]:
    """`off`, or comma-separated scope=N/period (s, min, h, day) or scope=off, over the defaults:
    each scope -> (requests, seconds), or None when it is not limited."""
    periods = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
    raw = os.environ.get(name, "").strip()
    if raw.lower() == "off":
        return {scope: None for scope in defaults}
    given = dict(defaults)
    for item in raw.split(",") if raw else []:
        scope, _, rate = (piece.strip() for piece in item.partition("="))
        if scope not in defaults:
            raise ImproperlyConfigured(f"{name}: unknown scope {scope!r}; the scopes are {', '.join(defaults)}")
        given[scope] = rate
    limits: dict[str, tuple[int, int] | None] = {}
    for scope, rate in given.items():
        count, _, period = (piece.strip().lower() for piece in rate.partition("/"))
        if rate.lower() == "off":
            limits[scope] = None
        elif count.isdigit() and int(count) > 0 and period in periods:
            limits[scope] = (int(count), periods[period])
        else:
            raise ImproperlyConfigured(f"{name}: {scope}={rate!r} is not N/period (s, min, h or day) or off")
    return limits


def parse_database_url(url: str, data_dir: Path) -> dict:
    """sqlite:///relative/or//absolute/path or postgres://user:password@host:port/name."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # sqlite:///name is relative to the data dir; sqlite:////abs/name is absolute.
        path = unquote(parts.path[1:])
        if parts.netloc or not path:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: use sqlite:///file or sqlite:////abs/file")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(data_dir / path)}
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: a PostgreSQL URL needs a database name")
        try:
            port = parts.port
        except ValueError as error:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r}: bad port ({error})") from error
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": env_int("DATABASE_CONN_MAX_AGE", 60),
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: unsupported scheme {parts.scheme!r}; use sqlite:/// or postgres://"
    )


def parse_redis_url(name: str) -> str | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if urlsplit(raw).scheme not in {"redis", "rediss"}:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a redis:// or rediss:// URL")
    return raw


DATA_DIR = Path(os.environ.get("PACG_DATA_DIR") or BASE_DIR / "var").resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "embedded-development-key-not-for-production"
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])

# Headers every response carries, in development too, so what breaks under them breaks here first
# (the Content-Security-Policy of HTML pages is pacg_site/security.py's).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# PACG_PROXIES: how many reverse proxies stand in front of the server (default 0: clients connect
# to it directly). The nearest must terminate TLS and set X-Forwarded-Proto; each must append the
# address it saw to X-Forwarded-For, which is then how rate limits tell clients apart.
REVERSE_PROXIES = env_int("PACG_PROXIES", 0)
if REVERSE_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Production (DJANGO_DEBUG=0) is HTTPS only: plain HTTP is redirected, browsers are told to use
# HTTPS for a year (DJANGO_HSTS_SECONDS; lower it while first trying HTTPS out), and cookies never
# travel in clear. The /healthz probe is answered over plain HTTP: it is sent to the server
# itself, behind the TLS proxy.
if not DEBUG:
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "pacg_site",
    "cards",
    "rules",
    "campaigns",
    "play",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "pacg_site.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "pacg_site.urls"
WSGI_APPLICATION = "pacg_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": parse_database_url(os.environ.get("DATABASE_URL") or "sqlite:///db.sqlite3", DATA_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = DATA_DIR / "uploads"

# Search indexes live in the data dir so each deployment (and each test run) has its own.
SEARCH_INDEX_DIR = DATA_DIR / "index"
# Vectors of rulebook text (rules.assistant.embeddings) depend only on the text: tests and benchmarks may
# share one cache across data dirs.
EMBEDDING_CACHE_DIR = Path(os.environ.get("PACG_EMBEDDING_CACHE") or DATA_DIR / "cache" / "embeddings")

REDIS_URL = parse_redis_url("REDIS_URL")
BROKER_URL = parse_redis_url("CELERY_BROKER_URL") or REDIS_URL
# No broker configured: tasks run in-process, so the embedded default needs no services
# (the in-memory transport only keeps Celery from looking for one on localhost).
CELERY_TASK_ALWAYS_EAGER = BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = BROKER_URL
CELERY_TASK_ACKS_LATE = True
# The queue a difficulty simulation's chunks go to (play.simulations): workers may be given it alone.
SIMULATION_QUEUE = os.environ.get("PACG_SIMULATION_QUEUE", "celery")
# Without a broker, a simulation's chunks run in a thread of the serving process, not in the request.
SIMULATIONS_IN_THREAD = env_bool("PACG_SIMULATIONS_IN_THREAD", True)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Requests a client (an address; for log-ins also a username) may make per period, counted in the
# cache (pacg_site/ratelimit.py). Generous enough that a person never meets them, tight enough
# to stop a script:
# - login (the log-in page, the admin's and POST /api/auth/token/, one count for all three, so a
#   guesser cannot add the budgets up): 10 a minute. Someone who mistypes tries a few times;
#   a guesser gets 10 passwords a minute per address and per account instead of hundreds.
# - signup: 20 an hour. A game night signing up together behind one address, retries and all,
#   stays under it; a script making accounts gets 20 an hour, not thousands.
# - ask (GET /api/rules/ask/, which embeds each question: ~30 ms of CPU): 60 a minute. A player
#   reads each answer; a scraper asking every second or faster is stopped.
# PACG_RATE_LIMITS changes them: "ask=600/min,login=20/min" (periods s, min, h, day; "signup=off"
# lifts one), or "off" lifts them all (load benchmarks).
RATE_LIMITS = parse_rate_limits("PACG_RATE_LIMITS", {"login": "10/min", "signup": "20/h", "ask": "60/min"})
# The counters' cache keys start with it: the cache is shared (in CI, with the Celery broker), so
# the tests give each test its own prefix instead of clearing it.
RATE_LIMIT_KEY_PREFIX = "ratelimit"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],  # the API speaks JSON only
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PAGINATION_CLASS": "pacg_site.api.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "pacg_site.api.exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_THROTTLE_CLASSES": ["pacg_site.ratelimit.ScopedRateThrottle"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "pacg-site API",
    "DESCRIPTION": (
        "Cards, rules, campaigns and play for the Pathfinder Adventure Card Game and Aventuria. "
        'Errors always have the shape {"error": {"code", "message", "details"}}.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/",
    # Swagger UI's files are served by this site (no CDN): the docs work offline, under our CSP.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "pacg_site.api.add_links",
    ],  # operations are tagged cards, rules, parties, play, ...
    # One name per closed set that several components share.
    "ENUM_NAME_OVERRIDES": {
        "Game": "cards.vocabulary.GAMES",
        "PartyRuleset": "campaigns.schemas.RULESETS",
        "PassageKind": "rules.models.Passage.KINDS",
        "PlayRuleset": "play.schemas.RULESETS",
        "SessionStatus": "play.schemas.STATUSES",
        "CharacterStatus": "campaigns.schemas.STATUSES",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}
