"""Settings for the test suite: the real database named by DATABASE_URL, eager tasks unless a
test asks for a worker, and the TRUNCATE escape that Django's flush needs (see settings)."""

import os
from urllib.parse import urlsplit

from .settings import *  # noqa: F403
from .settings import DATABASES, REDIS_URL

LEDGERS_TEST_FLUSH_ESCAPE = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c ledgers.test_flush=on"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AXES_ENABLED = False
CELERY_TASK_ALWAYS_EAGER = True
LEDGERS_SIGNING_SECOND_FACTOR = False  # as in development; tests that need it set it
LEDGERS_SEAL_DEMO = True  # the tests seal with a demo certificate they create
# The suite sends many API requests from one address in a minute: throttled only where a test asks.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}  # noqa: F405

# Under pytest-xdist each worker has its own test database (pytest-django's suffix) and here its own
# Redis database too, so a worker's Celery test never consumes the tasks of another's.
if REDIS_URL and (_worker := os.environ.get("PYTEST_XDIST_WORKER")):
    _url = urlsplit(REDIS_URL)
    _db = (int(_url.path.strip("/") or 0) - int(_worker.removeprefix("gw"))) % 16
    REDIS_URL = CELERY_BROKER_URL = _url._replace(path=f"/{_db}").geturl()
