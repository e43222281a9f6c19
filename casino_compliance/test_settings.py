"""Settings for the test suite: the real database named by DATABASE_URL, eager tasks unless a
test asks for a worker, and the TRUNCATE escape that Django's flush needs (see settings)."""

from .settings import *  # noqa: F403
from .settings import DATABASES

LEDGERS_TEST_FLUSH_ESCAPE = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c ledgers.test_flush=on"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AXES_ENABLED = False
CELERY_TASK_ALWAYS_EAGER = True
LEDGERS_SEAL_DEMO = True  # the tests seal with a demo certificate they create
# The suite sends many API requests from one address in a minute: throttled only where a test asks.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}  # noqa: F405
