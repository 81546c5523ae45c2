"""clubscore settings, read from the environment (12-factor).

Development needs nothing: SQLite in the project and Celery running tasks eagerly in-process.
Production (`CLUBSCORE_ENV=production`) refuses to start without a real `SECRET_KEY`, runs with
`DEBUG` off and the secure-cookie/HSTS settings that `manage.py check --deploy` asks for.

- `DATABASE_URL`: e.g. postgres://postgres@127.0.0.1:5432/clubscore (default: sqlite, db.sqlite3).
- `REDIS_URL`: the Celery broker and the cache; unset, tasks run eagerly and the cache is local.
- `SECRET_KEY`, `DEBUG` (1/0), `ALLOWED_HOSTS` (comma-separated).
- `NUM_PROXIES`: how many trusted proxies stand in front (default 0): `X-Forwarded-For` and
  `X-Forwarded-Proto` are believed only through them.
- `MAX_REQUEST_BYTES` (default 1 MiB), `MAX_SESSION_HANDS` (default 500): the API's limits (api.md).
- Production (`bin/production`, issue 27): `STATIC_ROOT`, `BACKUP_DIR`/`BACKUP_KEEP`, `HEARTBEAT_SECONDS`,
  `CLUBSCORE_VERSION`, `SENTRY_DSN`.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


ENVIRONMENTS = ("development", "production")
CLUBSCORE_ENV = os.environ.get("CLUBSCORE_ENV") or "development"
if CLUBSCORE_ENV not in ENVIRONMENTS:  # "Production" must not quietly run with the development key
    raise ImproperlyConfigured(f"CLUBSCORE_ENV must be one of {', '.join(ENVIRONMENTS)}, not {CLUBSCORE_ENV!r}")
PRODUCTION = CLUBSCORE_ENV == "production"
DEBUG = env_flag("DEBUG", not PRODUCTION)
_DEV_SECRET = "django-insecure-clubscore-development-key-never-use-in-production-0123456789"
SECRET_KEY = os.environ.get("SECRET_KEY") or _DEV_SECRET
if PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DEBUG must be off in production (CLUBSCORE_ENV=production)")
    if SECRET_KEY == _DEV_SECRET or len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("production needs SECRET_KEY: a random string of 50 characters or more")

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
if not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"] + (["testserver"] if not PRODUCTION else [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here: the network may be closed
    "ledger",
    "ledger.stats",
    "ledger.mail",  # the evening's mail (issue 41)
    "api",
]

MIDDLEWARE = [
    "api.middleware.RequestSizeMiddleware",  # first: an oversized body is refused before anything reads it
    "django.middleware.security.SecurityMiddleware",
    "clubscore.csp.ContentSecurityPolicyMiddleware",  # every answer, errors included (issue 29, point 9)
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware: the language of the request (docs/i18n.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ledger.i18n.middleware.AccountLanguageMiddleware",  # a logged-in user's own language, before the cookie
    "ledger.web.zones.ClubTimeZoneMiddleware",  # a club's page in the club's time zone (issue 26)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The site's error pages under DEBUG too, never Django's technical ones (ledger/web/errors.py).
    "ledger.web.errors.ErrorPageMiddleware",
    # Last, so it sees a view's exception first: a JSON 500 for /api/, even under DEBUG.
    "api.middleware.ApiErrorMiddleware",
]

ROOT_URLCONF = "clubscore.urls"
CSRF_FAILURE_VIEW = "api.errors.csrf_failure"  # JSON under /api/, Django's page elsewhere
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGE_CODE, LANGUAGES in every page
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
WSGI_APPLICATION = "clubscore.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and os.environ.get("DB_POOL", "0") != "0":
    # A pool of connections per process (psycopg_pool, Django 5.1+; bin/production sets DB_POOL=1): a
    # request takes an open connection instead of opening one, which cost a new PostgreSQL backend,
    # its startup and authentication, a `SET TIME ZONE` and cold catalog caches on every request
    # (CONN_MAX_AGE cannot keep them under ASGI: each request runs in a thread of its own). No
    # health check on taking one (CONN_HEALTH_CHECKS would cost a round trip per request): after a
    # database restart, a broken connection fails its request (503, ledger/web/errors.py) once and
    # the pool drops it. DB_POOL_MAX bounds the connections of each process (web worker, Celery).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": 2,
            "max_size": int(os.environ.get("DB_POOL_MAX", "8")),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "4")),
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # While PostgreSQL is down or unreachable, a request fails (503) within seconds instead of waiting
    # for the operating system's TCP timeout or, with the pool, 10 s (issue 39): a connection is given
    # DB_CONNECT_TIMEOUT seconds (libpq's `connect_timeout`, the whole of its set-up), and a request
    # waits DB_POOL_TIMEOUT seconds at most for one from the pool. A local server connects in
    # milliseconds; the pool's wait only matters when all of a process's connections are in use.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", int(os.environ.get("DB_CONNECT_TIMEOUT", "3")))
# The hot path's statements prepared on PostgreSQL (ledger/roundtrips.py, `_bound`); DB_PREPARE=0 turns
# it off, for a PgBouncer in transaction mode that keeps no prepared statements (docs/scaling.md).
DB_PREPARE = os.environ.get("DB_PREPARE", "1") != "0"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for the lock instead of failing at once; IMMEDIATE takes it at BEGIN.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The players' language (docs/i18n.md): their choice (the language cookie, set by the switcher on every
# page), else the browser's Accept-Language, else English. Catalogs live in the top-level locale/.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("ru", "Русский")]
# The engine's words first: makemessages files a source under the first of these whose parent holds it
# (docs/i18n.md, "The engine's refusals and the API"), so ledger/i18n/ has a catalog of its own.
LOCALE_PATHS = [BASE_DIR / "ledger" / "i18n" / "locale", BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # remembered for a year, not only for the browser's session
LANGUAGE_COOKIE_SAMESITE = "Lax"  # as the session and CSRF cookies (issue 29, point 9)
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")  # bin/production: its state folder
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
if STATIC_ROOT.is_dir():  # after `collectstatic`, WhiteNoise serves the pages' static files without DEBUG
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
        "whitenoise.middleware.WhiteNoiseMiddleware",
    )
# The live channel (issue 25, ledger/live.py): a stream's heartbeat, its length (the browser reconnects),
# and the reconnection delay it asks for.
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "15"))
LIVE_STREAM_SECONDS = float(os.environ.get("LIVE_STREAM_SECONDS", "300"))
LIVE_RETRY_MS = 1000
# The Content-Security-Policy of every answer (clubscore/csp.py): this site only, nothing inline, no eval.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],  # the QR codes and Swagger UI's icons are data: images
    "connect-src": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "object-src": ["'none'"],
}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Celery: a Redis broker when REDIS_URL is set, else tasks run eagerly in-process.
REDIS_URL = os.environ.get("REDIS_URL") or None
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 100
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers a task that was taken but never acknowledged (its worker was killed) after this.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    "socket_connect_timeout": 3,  # an unreachable broker fails an enqueue quickly (ledger.followup)
}
# A session's background work (ledger.followup): the periodic catch-up runs, every this many seconds,
# the work left pending longer than the grace (the broker was down when the session closed).
FOLLOWUP_CATCH_UP_SECONDS = float(os.environ.get("FOLLOWUP_CATCH_UP_SECONDS", "60"))
FOLLOWUP_GRACE_SECONDS = float(os.environ.get("FOLLOWUP_GRACE_SECONDS", "60"))
FOLLOWUP_CATCH_UP_BUDGET_SECONDS = 60.0
HEARTBEAT_SECONDS = float(os.environ.get("HEARTBEAT_SECONDS", "15"))
CELERY_BEAT_SCHEDULE = {
    "idempotency-purge": {"task": "api.tasks.idempotency_purge", "schedule": 3600.0},
    "session-followup-catch-up": {"task": "ledger.tasks.followup_catch_up", "schedule": FOLLOWUP_CATCH_UP_SECONDS},
    # The health endpoint's worker check (clubscore/health.py): beat sends it, a worker writes the time.
    "worker-heartbeat": {"task": "ledger.tasks.heartbeat", "schedule": HEARTBEAT_SECONDS},
}
# Production (issue 27): the nightly snapshot of `manage.py backup`, kept BACKUP_KEEP deep, when BACKUP_DIR is set.
BACKUP_DIR = os.environ.get("BACKUP_DIR") or None
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "14"))
# The system user the service runs as (bin/production writes it): a snapshot written by anyone else
# (root running `manage.py backup`) is handed to it, so the nightly task can prune it (issue 39).
BACKUP_OWNER = os.environ.get("CLUBSCORE_USER") or None
if BACKUP_DIR:
    CELERY_BEAT_SCHEDULE["nightly-backup"] = {
        "task": "ledger.tasks.nightly_backup",
        "schedule": crontab(hour=int(os.environ.get("BACKUP_HOUR", "4")), minute=0),
    }
# What the health endpoint and Sentry call this release: bin/production writes the commit.
CLUBSCORE_VERSION = os.environ.get("CLUBSCORE_VERSION") or "0.1.0"

CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))
if NUM_PROXIES < 0:
    raise ImproperlyConfigured("NUM_PROXIES must be 0 or more")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.DeviceTokenAuthentication",  # first: its `Token` is the 401's WWW-Authenticate
        "rest_framework.authentication.SessionAuthentication",  # the web pages (session login, CSRF)
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.UserThrottle", "api.throttling.AnonThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        # Generous: a table records a hand every minute or two, but the web pages and the
        # acceptance checks read a lot. Tighten them per deployment with the environment.
        "user": os.environ.get("THROTTLE_USER", "2000/min"),
        "anon": os.environ.get("THROTTLE_ANON", "300/min"),
        "login": os.environ.get("THROTTLE_LOGIN", "20/min"),  # login attempts per client address
        "login_username": os.environ.get("THROTTLE_LOGIN_USERNAME", "10/min"),  # failures per username and address
        # failures per username from clients without its device cookie (ledger/login_limits.py, issue 39)
        "login_untrusted": os.environ.get("THROTTLE_LOGIN_UNTRUSTED", "20/hour"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # A client is counted by the connection's address; X-Forwarded-For only through this many proxies.
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "clubscore API",
    "DESCRIPTION": "Scorekeeping and settlement for Boston clubs: the mobile scorer API, version 1.",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_INCLUDE_SCHEMA": False,
    # Documents each method of a common.Route from its operation's class: the schema view and
    # `manage.py spectacular` alike (the command crashed on a Route with the stock generator).
    "DEFAULT_GENERATOR_CLASS": "api.schema.Generator",
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.error_responses"],
    # A session's status, in SessionOut and in the seat link's SeatSessionOut (issue 38): one enum, named.
    "ENUM_NAME_OVERRIDES": {
        "SessionStatusEnum": ["open", "closed"],
        # how a game's pools end, at a close and at a night's cut-in: the name the close's enum had before
        # the cut-in shared it, so a client generated from the schema keeps its type
        "SessionClosePoolsEnum": ["divide", "carry"],
    },
}

# The mobile API: device tokens live this long; Idempotency-Keys are kept this long (api.md: at least
# 24 hours); a key's first request counts as dead (its key may be taken over) after this many seconds:
# a few, because a hand is recorded once by its key in the domain, whoever takes the key over.
CLUBSCORE_TOKEN_DAYS = int(os.environ.get("TOKEN_DAYS", "30"))
IDEMPOTENCY_KEEP_HOURS = max(24, int(os.environ.get("IDEMPOTENCY_KEEP_HOURS", "48")))
IDEMPOTENCY_IN_FLIGHT_SECONDS = float(os.environ.get("IDEMPOTENCY_IN_FLIGHT_SECONDS", "5"))

# The API's limits (api.md, "Limits"); the `settle` command has none.
# The evening's mail (issue 41): Django's SMTP backend, set from the production env file (bin/production;
# docs/production.md). Without EMAIL_HOST nothing is sent (the mail is recorded as not sent, "no server");
# bin/serve prints the messages on its terminal (EMAIL_BACKEND, the console backend).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT") or "587")
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", not EMAIL_USE_SSL) and not EMAIL_USE_SSL
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT") or "20")
DEFAULT_FROM_EMAIL = (
    os.environ.get("DEFAULT_FROM_EMAIL") or f"clubscore@{(ALLOWED_HOSTS or ['localhost'])[0].lstrip('.')}"
)
# The address the mail's links (the opt-out, the pages) start with.
SITE_URL = (os.environ.get("SITE_URL") or f"https://{(ALLOWED_HOSTS or ['localhost'])[0].lstrip('.')}").rstrip("/")

MAX_REQUEST_BYTES = int(os.environ.get("MAX_REQUEST_BYTES", str(1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
MAX_SESSION_HANDS = int(os.environ.get("MAX_SESSION_HANDS", "500"))

RATING_MIN_SESSIONS = int(os.environ.get("RATING_MIN_SESSIONS", "5"))

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # a check straight at the web server, past the proxy
    if NUM_PROXIES:  # without a proxy in front, X-Forwarded-Proto is whatever the client says
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # `preload` asks browsers' makers to ship the name as HTTPS-only for good: only for a public domain
    # with a certificate every browser trusts (bin/production: with DOMAIN). A site on Caddy's internal
    # authority keeps HSTS without it (issue 39).
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", True)
    if not SECURE_HSTS_PRELOAD:  # deliberate (above): `check --deploy` would warn of it (security.W021)
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    X_FRAME_OPTIONS = "DENY"

# Logs go to standard output (the supervisor keeps them, 12-factor), one line each.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "line"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Errors to Sentry when SENTRY_DSN is set: the web processes and the Celery worker and beat alike.
SENTRY_DSN = os.environ.get("SENTRY_DSN") or None
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration(monitor_beat_tasks=False)],
        environment=CLUBSCORE_ENV,
        release=CLUBSCORE_VERSION,
        send_default_pii=False,  # players' names and logins stay on the club's server
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )
