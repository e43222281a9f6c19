"""Property-based run of schemathesis over the whole OpenAPI schema: whatever a client sends, the
API never answers a server error (5xx), and every path answers OPTIONS (the methods it takes and
what they expect) without one either.

A user holding every role of the seeded Monaco establishment calls every operation with
``MAX_EXAMPLES`` generated requests each (valid and invalid: wrong types, NUL bytes, huge texts,
unknown ids), every example in its own rolled-back savepoint so the seeded data stays the same.
"""

import re
import time

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.checks import not_a_server_error

from casino_compliance.wsgi import application
from ledgers.core.demo import DEMO_MC
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.core.services import membership_grant
from tests.demo import seed_demo
from tests.factories import make_user

MAX_EXAMPLES = 8  # per operation: the whole run stays under about two minutes on two cores


def _server_errors(operation, headers: dict[str, str], sent: list[int]) -> list[str]:
    found: list[str] = []

    @given(case=operation.as_strategy())
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case) -> None:
        with transaction.atomic():
            response = case.call(headers=headers)
            transaction.set_rollback(True)
        sent.append(response.status_code)
        try:
            case.validate_response(response, checks=[not_a_server_error])
        except (AssertionError, BaseExceptionGroup):  # a failed check: collected, reported at the end
            found.append(
                f"{case.method} {case.formatted_path} → {response.status_code} query={case.query!r} body={case.body!r}"[
                    :1000
                ]
            )

    run()
    return found


@pytest.mark.django_db
def test_no_server_error_anywhere_in_the_api(monkeypatch, demo_dir):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"anon": None, "user": None})
    started = time.monotonic()
    seed_demo(demo_dir)
    print(f"seed_demo: {time.monotonic() - started:.0f} s")
    establishment = Establishment.objects.get(code=DEMO_MC)
    user = make_user(establishment, username="schemathesis")
    for role in Role.values:
        membership_grant(user=user, establishment=establishment, role=role, actor=None)
    headers = {"Authorization": f"Token {Token.objects.create(user=user).key}"}

    # As Django's test client does: the WSGI handler must not close the test's connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    started = time.monotonic()
    try:
        schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
        errors, operations = _run(schema, headers)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    print(f"schemathesis run: {time.monotonic() - started:.0f} s")
    assert operations > 50
    assert not errors, "\n\n".join(errors)
    described = _options(schema, headers)
    assert not described, "\n".join(described)


def _options(schema, headers: dict[str, str]) -> list[str]:
    """OPTIONS on every path of the schema (its parameters all 1): the server errors, by path."""
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=headers["Authorization"])
    paths = {re.sub(r"\{[^}]+\}", "1", result.ok().path) for result in schema.get_all_operations()}
    answers = {path: client.options(f"/api/v1{path}" if not path.startswith("/api/") else path) for path in paths}
    print(f"OPTIONS: {len(answers)} paths, {sum(1 for a in answers.values() if a.status_code >= 500)} server errors")
    return [f"OPTIONS {path} → {answer.status_code}" for path, answer in answers.items() if answer.status_code >= 500]


def _run(schema, headers: dict[str, str]) -> tuple[list[str], int]:
    errors: list[str] = []
    operations = 0
    sent: list[int] = []
    for result in schema.get_all_operations():
        operations += 1
        errors += _server_errors(result.ok(), headers, sent)
    print(
        f"schemathesis: {operations} operations, {len(sent)} requests, "
        f"{sum(1 for code in sent if code >= 500)} server errors"
    )
    return errors, operations
