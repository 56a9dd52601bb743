"""Settings for the Hearts site, read from the environment (12-factor).

Two profiles share this file: the embedded default (a SQLite file and the in-memory
channel layer, one process) and the scaled-out one (`DATABASE_URL` pointing at PostgreSQL,
`REDIS_URL` at Redis, several daphne processes).
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.conf.locale import LANG_INFO
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated environment variable."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

# A development key is only acceptable while DEBUG is on; production must bring its own.
_DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY when DEBUG is off.")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "template_partials",
    "channels",
    "django_tasks",
    "django_tasks_db",
    "axes",
    # Prometheus metrics: request latency by view (its two middlewares below), the site's own
    # figures (games/lib/metrics.py, hearts_site/metrics.py), served at METRICS_PATH.
    "django_prometheus",
    "games",
]

MIDDLEWARE = [
    # First and last, as django-prometheus documents: the time a request takes, by view.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every page's Content-Security-Policy and Permissions-Policy (see "Security headers").
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the language cookie (set by the switcher), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A signed-in player's own language, remembered on their profile, over the browser's.
    "games.languages.PlayerLanguageMiddleware",
    # A signed-in player's own time zone, from their profile (UTC otherwise).
    "games.time_zones.PlayerTimeZoneMiddleware",
    "games.notifications.seen.LastSeenMiddleware",
    # Last, so that it turns a sign-in refused while paused into the lockout page.
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "hearts_site.urls"
ASGI_APPLICATION = "hearts_site.asgi.application"
WSGI_APPLICATION = "hearts_site.wsgi.application"

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
                "games.context_processors.your_turn",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers proceed while one writer commits; IMMEDIATE takes the write lock at
    # BEGIN so two moves on one match queue up instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # Each server thread keeps its connection: opening one (and setting up WAL) costs about a
    # millisecond, more than most queries. Requests run in a fixed pool of threads
    # (hearts_site/http.py), so kept connections do not pile up.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DATABASE_CONN_MAX_AGE", "600"))
    # Tests use a file too (not the in-memory default), so they exercise WAL, immediate
    # transactions and concurrent connections the way the site runs; one per test process.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"hearts-test-{os.getpid()}.sqlite3")
    }

elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Opening a PostgreSQL connection per request costs more than the request itself. Each
    # server thread keeps its connection, as on SQLite: requests run in a fixed pool of
    # threads (hearts_site/http.py), each keeping its own context from one request to the
    # next, so kept connections do not pile up, and a request takes none from a pool (0.16 ms
    # a request). DATABASE_POOL=1 uses psycopg's pool per process instead.
    DATABASES["default"]["OPTIONS"] = {}
    if env_bool("DATABASE_POOL", False):
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": int(os.environ.get("DATABASE_POOL_MIN", "2")),
            "max_size": int(os.environ.get("DATABASE_POOL_MAX", "10")),
            "timeout": 20,
        }
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DATABASE_CONN_MAX_AGE", "600"))
        # A kept connection the server dropped (a restart, pg_terminate_backend, a failover) is
        # found dead at the first query of the next request and opened again, instead of that
        # request failing: one `SELECT 1` before a request's first query (the signal
        # request_started, which hearts_site/http.py sends in the thread that runs the view).
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Prepared statements: the statements every move runs are planned once per connection
    # instead of on every card. They need the parameters bound on the server. A pooler that
    # hands out another server connection per transaction (PgBouncer in transaction mode)
    # cannot keep them: there, set DATABASE_PREPARED_STATEMENTS=0.
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        DATABASES["default"]["OPTIONS"].update(server_side_binding=True, prepare_threshold=5)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels and cache ----------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")


def redis_cache(url: str) -> dict[str, object]:
    """The cache on the Redis server at `url`, which a Redis outage does not turn into errors.

    django-redis rather than Django's own RedisCache for its IGNORE_EXCEPTIONS: with Redis
    unreachable, reads miss and writes are dropped instead of raising, so the site runs on
    the database alone (sessions are read from it and written to it, moves stored; the counts
    of games/lib/ count nothing until Redis is back). Each ignored error is logged. Short
    socket timeouts: an unreachable Redis costs a request a second at most, never a hang.
    """
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": url,
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
    }


DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # The layer waits for messages with a blocking pop of up to 5 s; a socket that times
            # out sooner (redis-py 8 reads for 5 s by default) kills the waiting consumer.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}]},
        }
    }
    # Shared by every process, so login throttling holds across several daphne servers.
    CACHES = {"default": redis_cache(REDIS_URL)}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Accounts --------------------------------------------------------------------------------
# Sessions are read from the cache (the database keeps them too): every signed-in request reads
# its session, and a cache hit costs less than a query (on PostgreSQL and Redis here, a session
# read 0.06-0.10 ms from Redis, 0.57-0.64 ms from the database). With Redis down they are read
# from and written to the database alone (redis_cache above): nobody is logged out.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# Axes refuses to check passwords while guesses are paused (games/accounts/lockout.py); then
# Django's model backend.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Failed logins per username from one address, and per address, before a pause; the pause.
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
LOGIN_LOCKOUT_SECONDS = int(os.environ.get("LOGIN_LOCKOUT_SECONDS", "900"))
# Proxies whose X-Forwarded-For names the client (games/accounts/addresses.py); from anyone
# else the header is ignored, since any client can send it.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "")

# Password resets: links per address asked for and per account, requests per client, a window.
PASSWORD_RESET_LIMIT = int(os.environ.get("PASSWORD_RESET_LIMIT", "3"))
PASSWORD_RESET_CLIENT_LIMIT = int(os.environ.get("PASSWORD_RESET_CLIENT_LIMIT", "20"))
PASSWORD_RESET_WINDOW_SECONDS = int(os.environ.get("PASSWORD_RESET_WINDOW_SECONDS", "3600"))

# django-axes counts the failures in the database (games/accounts/lockout.py says how).
AXES_HANDLER = "games.accounts.lockout.LoginLockoutHandler"
# Username with address first: it is the counter a successful sign-in clears.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], ["ip_address"]]
AXES_FAILURE_LIMIT = "games.accounts.lockout.failure_limit"
AXES_COOLOFF_TIME = "games.accounts.lockout.cool_off"
AXES_CLIENT_IP_CALLABLE = "games.accounts.addresses.client_address"
AXES_LOCKOUT_CALLABLE = "games.accounts.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
# A refused guess while paused neither counts nor lengthens the pause: the page changes nothing.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Keep what the pause needs, not a record of every sign-in and its address.
AXES_DISABLE_ACCESS_LOG = True

# Engine states kept per process between moves (games/services/states.py); 0 keeps none.
ENGINE_STATES_KEPT = int(os.environ.get("ENGINE_STATES_KEPT", "5000"))
# On SQLite, a process's writers take turns before BEGIN (games/services/writes.py).
SQLITE_WRITERS_TAKE_TURNS = os.environ.get("SQLITE_WRITERS_TAKE_TURNS", "1") != "0"

# Live sockets one signed-in session may hold open at once (one per open page).
LIVE_SOCKETS_PER_SESSION = int(os.environ.get("LIVE_SOCKETS_PER_SESSION", "30"))

# --- E-mail: the console by default, SMTP once a host is configured ---------------------------
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Hearts <hearts@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Absolute links in e-mails point here (no request to take the host from in the worker).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")

# --- Background tasks: rows in the database, run by `manage.py worker` ----------------------
# Two queues, each with workers of its own, so that clocks never wait behind long work:
# "now" for what is due at a moment (a timeout, one bot's card, the sweep), "long" for what
# may take long (tournament rounds finished by bots, e-mails). "default" holds tasks queued
# before the queues were split; the "long" workers take it too (games/background/queues.py).
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["now", "long", "default"],
    }
}
# Whether the channel layer reaches every process (Redis does). If not (the in-memory layer of
# the default profile), a worker's live events go through the database to the serving process,
# which reads them every RELAY_POLL_SECONDS (games/live.py, "the relay").
LIVE_LAYER_SHARED = bool(REDIS_URL)
RELAY_POLL_SECONDS = float(os.environ.get("RELAY_POLL_SECONDS", "0.02"))
# How long a player must be away from the site, once it is their turn, before a turn e-mail.
NOTIFY_AWAY_SECONDS = int(os.environ.get("NOTIFY_AWAY_SECONDS", "600"))
# The daily digest goes out in each player's own morning: from this hour of their day, in their
# time zone (games/lib/zones.py), once a day; a digest run looks for whose morning has come
# every DIGEST_RUN_SECONDS.
DIGEST_HOUR = int(os.environ.get("DIGEST_HOUR", "8"))
DIGEST_RUN_SECONDS = int(os.environ.get("DIGEST_RUN_SECONDS", "900"))
# A player's "last seen" time is written at most this often.
SEEN_WRITE_SECONDS = int(os.environ.get("SEEN_WRITE_SECONDS", "60"))

# --- Health and metrics (README, "Health and metrics") ---------------------------------------
# Each worker writes a heartbeat this often; /readyz counts a worker live while its last beat
# is at most WORKER_HEARTBEAT_LIVE_BEATS of these old.
WORKER_HEARTBEAT_SECONDS = float(os.environ.get("WORKER_HEARTBEAT_SECONDS", "10"))
WORKER_HEARTBEAT_LIVE_BEATS = 3
# The Prometheus metrics' path, and who may read them: the addresses listed (the client's, as
# `games/accounts/addresses.py` finds it behind TRUSTED_PROXIES), or a request bearing
# METRICS_TOKEN (`Authorization: Bearer <token>`) when one is set. Anyone else gets a 404.
METRICS_PATH = os.environ.get("METRICS_PATH", "metrics").strip("/") or "metrics"
METRICS_ALLOWED_IPS = env_list("METRICS_ALLOWED_IPS", "127.0.0.1,::1")
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

# --- Matches ---------------------------------------------------------------------------------
# Open matches (not yet started) a player may hold at once, created or joined.
MAX_OPEN_MATCHES_PER_PLAYER = int(os.environ.get("MAX_OPEN_MATCHES_PER_PLAYER", "10"))
# The leaderboard lists players with at least this many rated matches (at the table size
# chosen, when one is).
LEADERBOARD_MIN_RATED_MATCHES = int(os.environ.get("LEADERBOARD_MIN_RATED_MATCHES", "5"))
# Clocks (games/services/clocks.py): how often the worker sweeps for deadlines its queued
# timeouts missed, and how many decisions one sweep times out at most.
SWEEP_INTERVAL_SECONDS = int(os.environ.get("SWEEP_INTERVAL_SECONDS", "60"))
SWEEP_BATCH = int(os.environ.get("SWEEP_BATCH", "500"))
# A table waiting this long on a bot that searches (its runner stopped, say) is moved by the sweep.
BOT_STUCK_SECONDS = int(os.environ.get("BOT_STUCK_SECONDS", "30"))
# A worker's task goes on playing a table's bots, one change a card, for this long before it
# queues the rest behind other tables' tasks (games/background/bot_runner.py); 0: one card a task.
BOT_TASK_SECONDS = float(os.environ.get("BOT_TASK_SECONDS", "0.25"))
# Reminders of near deadlines (games/notifications/reminders.py): at most one e-mail this often.
REMINDER_GAP_SECONDS = int(os.environ.get("REMINDER_GAP_SECONDS", "3600"))
# Open matches that never fill are given up after this many days (games/services/stalled.py);
# in an untimed match, a seat silent this many days may be handed to a bot by the others.
OPEN_MATCH_EXPIRY_DAYS = int(os.environ.get("OPEN_MATCH_EXPIRY_DAYS", "7"))
SILENT_SEAT_DAYS = int(os.environ.get("SILENT_SEAT_DAYS", "30"))

# --- Internationalisation --------------------------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
LANGUAGES = [
    ("en", "English"),
    ("id", "Indonesian"),
    ("su", "Sundanese"),
]
# The site's catalogues: locale/<language>/LC_MESSAGES/django.po, compiled to .mo by
# `manage.py compiletranslations` (called by `serve` and by the test run), never committed.
LOCALE_PATHS = [BASE_DIR / "locale"]

# Django ships no Sundanese, so it has no name for it: `{% get_language_info %}` (the switcher)
# and `get_language_info()` raise KeyError for a code missing from django.conf.locale.LANG_INFO,
# and no setting adds one. Adding the entry to that table here, once, before any request, is
# the usual way projects add a language Django does not know; the catalogue itself (and the
# Django messages the site shows, translated) comes from LOCALE_PATHS.
LANG_INFO.setdefault(
    "su", {"bidi": False, "code": "su", "name": "Sundanese", "name_local": "Basa Sunda"}
)

# --- Static files ----------------------------------------------------------------------------
STATIC_URL = "static/"
# Where collectstatic puts them: a proxy in front serves them from there (deploy/nginx/).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Security: strict unless DEBUG is on; each can be relaxed behind a TLS-terminating proxy --
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy (django-csp 4): everything from the site itself, nothing inline.
# Scripts are our own files (htmx included); an inline script would need `request.csp_nonce`
# (the nonce is only sent when a page uses it). Styles are our own stylesheets, and no style
# attribute is allowed: the table places its seats with rules of site.css (`data-spot`), and
# htmx is told not to inject its indicator styles (the htmx-config meta tag in base.html).
# 'self' in connect-src covers the live socket (ws:/wss: to the same host, CSP Level 3).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Permissions-Policy (django-permissions-policy): none of these powerful features is used, so
# no page, nor anything injected into one, may ask for them. Browser notifications are not
# governed by this header and keep working.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer", "autoplay", "browsing-topics", "camera",
        "display-capture", "encrypted-media", "geolocation", "gyroscope", "hid",
        "idle-detection", "local-fonts", "magnetometer", "microphone", "midi", "payment",
        "publickey-credentials-get", "screen-wake-lock", "serial", "usb",
        "xr-spatial-tracking",
    )
}  # fmt: skip

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
