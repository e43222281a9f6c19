"""Settings for casino_compliance, driven by the environment (django-environ).

DATABASE_URL  default: a SQLite file under var/
REDIS_URL     absent: Celery runs tasks eagerly in-process (the embedded default)
SECRET_KEY, DEBUG (default on: a deployment sets DEBUG=0 and must then set SECRET_KEY),
ALLOWED_HOSTS
"""

import hashlib
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env(
    DEBUG=(bool, True),  # development by default; deployments set DEBUG=0 and a SECRET_KEY
    ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost"]),
    REDIS_URL=(str, ""),
)

DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me"
SECRET_KEY = env("SECRET_KEY", default=DEV_SECRET_KEY)
DEBUG = env("DEBUG")
ALLOWED_HOSTS = env("ALLOWED_HOSTS")
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set in production (DEBUG is off).")

# Transport security, on whenever DEBUG is off (docs/operations.md lists the variables).
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
if env.bool("SECURE_PROXY_SSL", default=False):  # TLS ends at a reverse proxy that sets this header
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "simple_history",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_tables2",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_htmx",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "axes",
    "ledgers.signatures",
    "ledgers.core",
    "ledgers.registers",
    "ledgers.notifications",
    "ledgers.incidents",
    "ledgers.custody",
    "ledgers.cards",
    "ledgers.dice",
    "ledgers.equipment",
    "ledgers.reports",
    "ledgers.keys",
    "ledgers.registers.printing",
    "ledgers.tables",
    "ledgers.authority",
    "ledgers.cash",
    "ledgers.slots",
    "ledgers.takeover",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "ledgers.core.middleware.NulByteMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "ledgers.core.middleware.OwnPasswordMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "ledgers.core.middleware.EstablishmentMiddleware",
    "axes.middleware.AxesMiddleware",
    "ledgers.authority.middleware.RegulatorAccessLogMiddleware",
    "ledgers.core.exports.ShownListsExportMiddleware",
]

ROOT_URLCONF = "casino_compliance.urls"
WSGI_APPLICATION = "casino_compliance.wsgi.application"
ASGI_APPLICATION = "casino_compliance.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ledgers.core.context_processors.establishment",
                "ledgers.registers.context_processors.menu",
                "ledgers.notifications.context_processors.notices",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if "DATABASE_URL" not in env.ENVIRON:
    VAR_DIR.mkdir(exist_ok=True)  # a fresh clone has no var/ yet (it is not versioned)
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Write-ahead log: pages are read while a writer works, and a commit appends to the log
    # instead of syncing a rollback journal (NORMAL is the setting SQLite documents for WAL).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    )
# A replica that full verifications read (``verify_ledgers --database replica``, docs/operations.md),
# opened read-only whatever it is, so that nothing reading it can write there.
if DATABASE_REPLICA_URL := env("DATABASE_REPLICA_URL", default=""):
    DATABASES["replica"] = env.db_url_config(DATABASE_REPLICA_URL)
    if DATABASES["replica"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["replica"].setdefault("OPTIONS", {})["options"] = "-c default_transaction_read_only=on"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",  # accounts of the application (the demo's)
    "ledgers.core.directory.DirectoryBackend",  # the casino's directory, when LDAP_URL is set
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"
# An invitation's link to choose one's password is valid this long (ledgers.core.passwords).
LEDGERS_INVITATION_HOURS = env.int("LEDGERS_INVITATION_HOURS", default=72)

AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
# One lock per (username, client address): a signer's wrong passwords lock that signer at that
# terminal only, never the other signers behind the same address nor the same name elsewhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Behind TRUSTED_PROXY_COUNT reverse proxies the client address is read from X-Forwarded-For
# (ledgers.core.middleware.client_ip); with none, REMOTE_ADDR alone (the header is then ignored).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "ledgers.core.middleware.client_ip"

# Directory sign-in (django-python3-ldap; docs/operations.md "Directory"). Off without LDAP_URL.
LDAP_AUTH_URL = env.list("LDAP_URL", default=[])
LDAP_AUTH_USE_TLS = env.bool("LDAP_START_TLS", default=False)
LDAP_AUTH_SEARCH_BASE = env("LDAP_USER_BASE", default="")
LDAP_AUTH_OBJECT_CLASS = env("LDAP_USER_CLASS", default="inetOrgPerson")
LDAP_AUTH_USER_FIELDS = {
    "username": env("LDAP_USERNAME_ATTRIBUTE", default="uid"),
    "first_name": "givenName",
    "last_name": "sn",
    "email": "mail",
}
LDAP_AUTH_USER_LOOKUP_FIELDS = ("username",)
LDAP_AUTH_SYNC_USER_RELATIONS = "ledgers.core.directory.sync_user_relations"
LDAP_AUTH_FORMAT_USERNAME = {
    "openldap": "django_python3_ldap.utils.format_username_openldap",
    "active_directory": "django_python3_ldap.utils.format_username_active_directory",
    "active_directory_principal": "django_python3_ldap.utils.format_username_active_directory_principal",
}[env("LDAP_USERNAME_FORMAT", default="openldap")]
LDAP_AUTH_ACTIVE_DIRECTORY_DOMAIN = env("LDAP_AD_DOMAIN", default=None)
LDAP_AUTH_CONNECTION_USERNAME = env("LDAP_BIND_USERNAME", default=None)  # the sync's service account
LDAP_AUTH_CONNECTION_PASSWORD = env("LDAP_BIND_PASSWORD", default=None)
LDAP_AUTH_CONNECT_TIMEOUT = LDAP_AUTH_RECEIVE_TIMEOUT = env.int("LDAP_TIMEOUT", default=5)
LEDGERS_DIRECTORY_GROUP_BASE = env("LDAP_GROUP_BASE", default="")
# {"cn=scj,ou=groups,dc=casino,dc=mc": ["montecarlo", "scj"], ...}: group DN → establishment code, role.
LEDGERS_DIRECTORY_GROUPS = env.json("LDAP_GROUP_ROLES", default={})

# Mail (docs/operations.md "Mail"): EMAIL_URL names the casino's SMTP server, e.g.
# smtp+tls://user:password@mail.casino.mc:587; without it the demo writes each mail as a file
# in var/mail, shown on the notifications page.
if "EMAIL_URL" in env.ENVIRON:
    globals().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = VAR_DIR / "mail"
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="registres@localhost")
EMAIL_SUBJECT_PREFIX = env("EMAIL_SUBJECT_PREFIX", default="[Registres] ")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# A notice not acknowledged within this delay goes to the next level's subscribers.
NOTIFICATIONS_ACKNOWLEDGE_MINUTES = env.int("NOTIFICATIONS_ACKNOWLEDGE_MINUTES", default=60)
# First wait before a refused mail is tried again, doubled at each attempt up to an hour.
NOTIFICATIONS_RETRY_SECONDS = env.int("NOTIFICATIONS_RETRY_SECONDS", default=60)
NOTIFICATIONS_SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")  # links in the mails
# The registers' log names in checkpoints and QR codes (origin/REGISTER): never change it once sealed.
LEDGERS_LOG_ORIGIN = env("LEDGERS_LOG_ORIGIN", default=urlsplit(NOTIFICATIONS_SITE_URL).netloc)
# Passkeys (WebAuthn): the domain they are bound to, the one the staff's browsers open (its
# subdomains sign for it too); a passkey registered for one domain signs for no other.
WEBAUTHN_RP_ID = env("WEBAUTHN_RP_ID", default="localhost")
WEBAUTHN_RP_NAME = env("WEBAUTHN_RP_NAME", default="Registres")
# The signing roles show a second factor (a code or a passkey) unless the establishment sets
# otherwise (setting SET-SIGNATURE): by default in a deployment (DEBUG off).
LEDGERS_SIGNING_SECOND_FACTOR = env.bool("LEDGERS_SIGNING_SECOND_FACTOR", default=not DEBUG)

# French first, English available; every establishment has its own time zone for display.
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("Français")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Monaco"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# In development (and tests) WhiteNoise serves the apps' static files without collectstatic.
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = DEBUG
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(VAR_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

REST_FRAMEWORK = {
    # The token first: its WWW-Authenticate header makes a missing, expired or revoked token a 401.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "ledgers.core.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "ledgers.core.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "ledgers.core.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "ledgers.core.api.pagination.CursorPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("API_THROTTLE_ANON", default="30/minute"),
        "user": env("API_THROTTLE_USER", default="1200/minute"),
    },
}
# Longest free text (observations, circumstances…) a record keeps: longer input is refused (400).
LEDGERS_TEXT_MAX_LENGTH = 10_000
# API tokens expire this long after their creation (ledgers.core.authentication.ExpiringTokenAuthentication).
API_TOKEN_TTL_HOURS = env.int("API_TOKEN_TTL_HOURS", default=24 * 30)
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino compliance ledgers API",
    "DESCRIPTION": "Registres réglementaires : lecture, visas et opérations des domaines.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "GET_LIB_DOC_EXCLUDES": "ledgers.core.api.schema.lib_doc_excludes",
    # Several models have a "kind", "status" or "method" with their own choices: one enum name each.
    "ENUM_NAME_OVERRIDES": {
        "ShuffleMethodEnum": "ledgers.cards.models.ShuffleMethod",
        "RoleEnum": "ledgers.core.roles.Role",
        "RegisterKindEnum": "ledgers.registers.kinds.kind_choices",
        "DestructionMethodEnum": "ledgers.custody.models.DestructionSession.Method",
        "ItemStatusEnum": "ledgers.custody.models.ItemStatus",
        "DestructionStatusEnum": "ledgers.custody.models.DestructionSession.Status",
        "EquipmentStatusEnum": "ledgers.equipment.models.AssetStatus",
        "ApprovedModelKindEnum": "ledgers.equipment.models.ApprovedModel.Kind",
        "WheelKindEnum": "ledgers.equipment.models.WheelKind",
        "ReportKindEnum": "ledgers.reports.models.ReportJob.Kind",
        "ReportStatusEnum": "ledgers.reports.models.ReportJob.Status",
        "FloatKindEnum": "ledgers.cash.models.TableFloat.Kind",
        "SlipBookKindEnum": "ledgers.cash.models.SlipBook.Kind",
        "PieceKindEnum": "ledgers.cash.breakdowns.Piece.ALL",
        "OrphanCategoryEnum": "ledgers.cash.models.Orphan.Category",
        "CategoryEnum": "ledgers.cards.models.Category",  # the card units' category keeps its name
        "PurchaseOrderStatusEnum": "ledgers.custody.models.PurchaseOrder.Status",
        "DiceSwapReasonEnum": "ledgers.dice.models.DiceSwap.Reason",
        "PlayRoleEnum": "ledgers.dice.models.PlayRole",
        "IncidentStatusEnum": "ledgers.incidents.models.Incident.Status",
        "SeanceStatusEnum": "ledgers.core.models.Seance.Status",
        "TableSessionStatusEnum": "ledgers.core.models.TableSession.Status",
        "SeancePeriodEnum": "ledgers.core.models.SeancePeriod",
        "LocationKindEnum": "ledgers.core.models.LocationKind",
        "ObservationNatureEnum": "ledgers.authority.models.Observation.Nature",
        "ChipSeriesKindEnum": "ledgers.cash.models.ChipSeries.Kind",
        "TechnologyEnum": "ledgers.slots.models.Machine.Technology",  # meters' nature: the same two values
        "SlotCountKindEnum": "ledgers.slots.models.SlotCount.Kind",
        "ChangePointKindEnum": "ledgers.slots.models.ChangePoint.Kind",
        "OpenClosedEnum": "ledgers.slots.models.ChangeAssignment.Status",  # and the slot counts' status
        "CounterfeitKindEnum": "ledgers.slots.models.CounterfeitItem.Kind",
        "JpmTransmissionReasonEnum": "ledgers.slots.models.JpmTransmission.Reason",
        "ProgressiveStopKindEnum": "ledgers.slots.models.ProgressiveStop.Kind",  # the stop and its notice
    },
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/ledgers.html"  # bootstrap5 with the export links
CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Celery: Redis when REDIS_URL is set, otherwise eager in-process execution.
REDIS_URL = env("REDIS_URL")
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# The window that no seal covers: at most this many minutes (and a séance close seals at once).
LEDGERS_SEAL_INTERVAL_MINUTES = min(env.int("LEDGERS_SEAL_INTERVAL_MINUTES", default=15), 15)
LEDGERS_SEAL_ON_SEANCE_CLOSE = env.bool("LEDGERS_SEAL_ON_SEANCE_CLOSE", default=True)
CELERY_BEAT_SCHEDULE = {
    # Daily séance reports for the séances closed since the last run (ledgers.reports).
    "daily-seance-reports": {"task": "ledgers.reports.tasks.daily_reports_task", "schedule": 15 * 60.0},
    # Sealed checkpoints and tree heads of every register that moved, every few minutes
    # (LEDGERS_SEAL_INTERVAL_MINUTES) and at each séance close (ledgers.registers, docs/operations.md §6).
    "seal-register-checkpoints": {
        "task": "ledgers.registers.tasks.checkpoints_seal_task",
        "schedule": LEDGERS_SEAL_INTERVAL_MINUTES * 60.0,
    },
    # Report jobs the broker never got, or whose worker stopped (ledgers.reports.services).
    "report-jobs-recovery": {"task": "ledgers.reports.tasks.report_jobs_recover_task", "schedule": 5 * 60.0},
    # The outbox: mails whose task was lost or whose retry has come (ledgers.notifications).
    "mails-flush": {"task": "ledgers.notifications.tasks.mails_flush_task", "schedule": 60.0},
    "notices-escalate": {"task": "ledgers.notifications.tasks.notices_escalate_task", "schedule": 5 * 60.0},
    # Keys out past their due time, or after their purpose closed: told once each (ledgers.keys).
    "keys-overdue-notify": {"task": "ledgers.keys.tasks.keys_overdue_notify_task", "schedule": 5 * 60.0},
    # Directory accounts: memberships follow the groups, leavers disabled (ledgers.core.directory).
    "directory-sync": {"task": "ledgers.core.tasks.directory_sync_task", "schedule": 15 * 60.0},
}
REPORTS_HEARTBEAT_TIMEOUT_MINUTES = env.int("REPORTS_HEARTBEAT_TIMEOUT_MINUTES", default=10)
REPORTS_QUEUED_RESEND_MINUTES = env.int("REPORTS_QUEUED_RESEND_MINUTES", default=30)
REPORTS_MAX_ATTEMPTS = env.int("REPORTS_MAX_ATTEMPTS", default=3)

# PAdES seal of printed documents (docs/printing.md): a PKCS#12 per establishment in
# LEDGERS_SEAL_PKCS12_<CODE> + LEDGERS_SEAL_PASSPHRASE_<CODE>, or one for all in LEDGERS_SEAL_PKCS12
# + LEDGERS_SEAL_PASSPHRASE. Without one, the self-signed demo certificate of seed_demo, where
# allowed (by default only with DEBUG on: never a demo seal on a production document).
LEDGERS_SEAL_DEMO = env.bool("LEDGERS_SEAL_DEMO", default=DEBUG)
LEDGERS_SEAL_DEMO_DIR = VAR_DIR / "seal"

# HMAC key of the register checkpoints (docs/operations.md §6): set it where checkpoints are sealed
# and verified (the beat worker, the verifier); with DEBUG on, a key derived from SECRET_KEY.
LEDGERS_CHECKPOINT_KEY = env("LEDGERS_CHECKPOINT_KEY", default="") or (
    hashlib.sha256(f"ledgers-checkpoint:{SECRET_KEY}".encode()).hexdigest() if DEBUG else ""
)

# Ed25519 key that signs checkpoints and tree heads (docs/operations.md §6): PEM or hex seed in
# LEDGERS_SIGNING_KEY, or a PEM file in LEDGERS_SIGNING_KEY_FILE, where checkpoints are sealed (the
# beat worker); never in the database. With DEBUG on, a development key derived from SECRET_KEY;
# with DEBUG off that development key is refused. LEDGERS_PUBLIC_KEYS: the earlier public keys (raw,
# hex) kept published after a rotation, so that earlier seals still verify.
DEV_SIGNING_KEY = hashlib.sha256(f"ledgers-signing:{DEV_SECRET_KEY}".encode()).hexdigest()
LEDGERS_SIGNING_KEY_FILE = env("LEDGERS_SIGNING_KEY_FILE", default="")
LEDGERS_SIGNING_KEY = env("LEDGERS_SIGNING_KEY", default="") or (
    hashlib.sha256(f"ledgers-signing:{SECRET_KEY}".encode()).hexdigest()
    if DEBUG and not LEDGERS_SIGNING_KEY_FILE
    else ""
)
if not DEBUG and LEDGERS_SIGNING_KEY.strip() == DEV_SIGNING_KEY:
    raise ImproperlyConfigured("LEDGERS_SIGNING_KEY must not be the development key (DEBUG is off).")
LEDGERS_PUBLIC_KEYS = env.list("LEDGERS_PUBLIC_KEYS", default=[])
# Witnesses run by the regulator (python -m witness, docs/operations.md §10), asked at every seal to
# cosign each register's new head: a JSON list of {"url": submission prefix, "vkey": the witness's
# verifier key}. verify_ledgers fails when a sealed head waits longer than the delay for one of them.
LEDGERS_WITNESSES = env.json("LEDGERS_WITNESSES", default=[])
LEDGERS_WITNESS_MAX_DELAY_MINUTES = env.int("LEDGERS_WITNESS_MAX_DELAY_MINUTES", default=60)
LEDGERS_WITNESS_TIMEOUT_SECONDS = env.float("LEDGERS_WITNESS_TIMEOUT_SECONDS", default=5.0)
# RFC 3161 time-stamping authority that dates every tree head (none: tree heads carry no token).
LEDGERS_TSA_URL = env("LEDGERS_TSA_URL", default="")
LEDGERS_TSA_ROOTS = env("LEDGERS_TSA_ROOTS", default="")  # PEM file of the authority's root certificates

# Append-only guard: only the test settings turn this on. When on, the migrations install a
# TRUNCATE guard that lets a connection flagged with "ledgers.test_flush=on" truncate (Django's
# test flush); when off (every real deployment) there is no such way around it.
LEDGERS_TEST_FLUSH_ESCAPE = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
}
