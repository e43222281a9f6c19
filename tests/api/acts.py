"""Write endpoints driven as production drives them, then verified: each request in its own
transaction (the test module runs with ``django_db(transaction=True)``), every answer a success,
the routes reached recorded; then every write route of the scope must have been reached (or be
excused with its reason), and ``verify_ledgers`` must find nothing: each act wrote its entry, the
entry names the objects the act wrote, the registers and objects verify."""

import io
from collections.abc import Iterable, Mapping

from django.core.management import call_command
from django.urls import get_resolver, resolve
from rest_framework.test import APIClient

from ledgers.registers.services import checkpoints_seal
from tests.core.test_ui_api_parity import _takes_post, _walk


def write_routes(scope: Iterable[str]) -> set[str]:
    """The routes under the prefixes ``scope`` that take a POST, from the URL conf."""
    scope = tuple(scope)
    return {
        _as_resolved(path)
        for path, _name, callback in _walk(get_resolver().url_patterns)
        if path.startswith(scope) and _takes_post(callback)
    }


def _as_resolved(path: str) -> str:
    """The route as ``resolve()`` names it: Django drops the ``^`` of a regex pattern (a router's
    route) included under a prefix."""
    return path.replace("/^", "/")


class Acts:
    """Posts as a given user, each request its own transaction (no test transaction around it);
    every answer must be a success, and the route it reached is recorded."""

    def __init__(self) -> None:
        self.routes: set[str] = set()

    def post(self, user, url: str, data: dict | None = None, *, format: str = "json") -> dict:
        client = APIClient()
        client.force_authenticate(user)
        response = client.post(url, data or {}, format=format)
        assert response.status_code in (200, 201, 202), (url, response.status_code, response.content[:500])
        self.routes.add(resolve(url).route)
        return response.json() if response.content else {}


def verify_every_act(acts: Acts, scope: Iterable[str], cannot_run: Mapping[str, str]) -> None:
    """Every write route of ``scope`` was reached, or is in ``cannot_run`` with its reason; then
    sealed and verified, every check of ``verify_ledgers`` is OK."""
    routes = write_routes(scope)
    missing = routes - acts.routes - set(cannot_run)
    assert not missing, f"write endpoints no flow exercises: {sorted(missing)}"
    assert set(cannot_run) <= routes  # no stale exclusion
    assert acts.routes <= routes
    checkpoints_seal()
    out = io.StringIO()
    call_command("verify_ledgers", stdout=out)
    lines = out.getvalue().splitlines()
    assert "OK\ttransactions" in lines  # each history row shares its transaction with an entry naming it
    assert all(line.startswith("OK\t") for line in lines), [line for line in lines if not line.startswith("OK")]
