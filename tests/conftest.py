import os
from pathlib import Path

import pytest
from django.db import connection

from tests.factories import EstablishmentFactory, make_user


def pytest_collection_modifyitems(config, items):
    """The browser tests first: a walk takes minutes, and pytest-xdist hands out files in this
    order, so a walk left for last would keep one worker busy alone at the end of the run.

    PostgreSQL-only tests skip on SQLite locally; in CI (CI=true) they must run, so a
    non-PostgreSQL database there is an error rather than a silent skip."""
    items.sort(key=lambda item: "e2e" not in item.keywords)  # stable: each file's order is kept
    if connection.vendor == "postgresql":
        return
    if os.environ.get("CI"):
        raise pytest.UsageError("CI must run the suite on PostgreSQL (set DATABASE_URL).")
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL=postgres://…)")
    for item in items:
        if "postgresql" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _no_session_outlives_the_suite(django_db_setup, django_db_blocker):
    """The concurrency tests' threads and the Celery worker's thread open connections of their own;
    one still closing when the suite ends would keep the test database from being dropped."""
    yield
    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture
def celery_on_redis(worker_id):
    """A real Celery worker (a thread of this process, solo pool) taking the tasks from Redis, as
    a deployment does; the other tests run the tasks eagerly. Its keys carry the pytest-xdist
    worker's prefix, so that two such tests running at once neither purge nor take each other's
    messages."""
    import redis
    from celery.contrib.testing.worker import start_worker
    from django.conf import settings

    from casino_compliance.celery import app

    url = settings.REDIS_URL or "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Redis at {url}")
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager", "broker_transport_options")}
    options = {**saved["broker_transport_options"], "global_keyprefix": f"tests-{worker_id}:"}
    app.conf.update(broker_url=url, task_always_eager=False, broker_transport_options=options)
    _drop_broker_pools(app)  # an eager test may have built them for the in-memory broker
    app.control.purge()  # nothing left over from an earlier run
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
            yield app
    finally:
        app.conf.update(saved)
        _drop_broker_pools(app)


def _drop_broker_pools(app):
    app.amqp._producer_pool = None
    app._pool = None


@pytest.fixture
def smtp(settings):
    """A real SMTP server (aiosmtpd) on 127.0.0.1 that Django's mail goes to; not started: the
    test starts it (and may stop it) to play a mail server that is up or down."""
    from tests.servers import SmtpServer

    server = SmtpServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", server.port, 5
    yield server
    server.stop()


@pytest.fixture
def mc(db):
    return EstablishmentFactory(code="mcb", name="Casino de Monte-Carlo (démo)", jurisdiction="MC")


@pytest.fixture
def fr(db):
    return EstablishmentFactory(code="frn", name="Casino de Nice (démo)", jurisdiction="FR")


@pytest.fixture
def user_in():
    """``user_in(establishment, *roles, username=None)`` → a user holding those roles there."""
    return make_user


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the default language: a request in English must not leak into the
    next test through the thread's active translation."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory) -> Path:
    """A directory this run's pytest-xdist workers share (the seeded demo's copy lives there)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
