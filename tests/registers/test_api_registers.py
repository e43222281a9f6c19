import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledgers.core.catalogue import REQUIREMENTS
from ledgers.registers import services
from ledgers.registers.models import EntryKind
from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import cast_fixture, main_courante, register_fixture  # noqa: F401 (fixtures)


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def visas_url(register) -> str:
    return reverse("register-visas", args=[register.number])


def test_registers_list_is_scoped_and_filtered(mc, fr, cast, register, user_in):
    awaiting = services.register_create(establishment=mc, kind="main_courante", actor=cast.director)
    body = api_as(cast.visa).get("/api/v1/registers/", {"kind": "main_courante"}).json()
    assert [r["number"] for r in body["results"]] == sorted([register.number, awaiting.number])
    body = api_as(cast.visa).get("/api/v1/registers/", {"status": "open", "kind": "main_courante"}).json()
    assert [r["number"] for r in body["results"]] == [register.number]
    assert body["results"][0]["kind_title"] == "Main courante de la direction des jeux"
    seen = api_as(user_in(fr, "police")).get("/api/v1/registers/").json()["results"]
    assert {r["establishment"] for r in seen} == {fr.code}  # its register of authorisations alone


def test_register_retrieve_and_404_outside(fr, cast, register, user_in):
    body = api_as(cast.visa).get(f"/api/v1/registers/{register.number}/").json()
    assert body["head_seq"] == 4 and body["establishment"] == "mcb"
    assert api_as(user_in(fr, "police")).get(f"/api/v1/registers/{register.number}/").status_code == 404


def test_entries_cursor_pagination_in_seq_order(mc, cast, settings):
    register = main_courante(mc, cast, entries=149)
    client = api_as(cast.visa)
    url, seqs = f"/api/v1/registers/{register.number}/entries/", []
    while url:
        body = client.get(url).json()
        seqs += [e["seq"] for e in body["results"]]
        url = body["next"]
    assert seqs == list(range(1, 151))


def test_entry_retrieve_carries_every_hashed_field(fr, cast, register, user_in):
    entry = register.entries.get(seq=2)
    body = api_as(cast.visa).get(f"/api/v1/registers/{register.number}/entries/2/").json()
    assert body == {**entry.hashed_fields(), "recorded_at": body["recorded_at"], "entry_hash": entry.entry_hash}
    assert api_as(user_in(fr, "police")).get(f"/api/v1/registers/{register.number}/entries/2/").status_code == 404


def test_visa_201_with_token_auth_and_reauthentication(cast, register):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=cast.visa).key}")
    response = client.post(visas_url(register), {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD})
    assert response.status_code == 201
    assert response.json()["kind"] == "visa" and response.json()["payload"]["covers_seq"] == 4
    assert register.entries.filter(kind=EntryKind.VISA).count() == 1


def test_reg_04_visa_over_own_entries_is_409(mc, cast, register, user_in):
    both = user_in(mc, "scj", "inspecteur")
    services.entries_bulk_append(
        register=register,
        actor=both,
        role="inspecteur",
        payloads=[{"event_at": "2026-03-09 10:00", "subject": "S", "text": "T"}],
    )
    response = api_as(both).post(visas_url(register), {"up_to_seq": 5, "password": DEFAULT_PASSWORD})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "REG-04" and body["article"] == REQUIREMENTS["REG-04"].article and "n° 5" in body["detail"]
    assert not register.entries.filter(kind=EntryKind.VISA).exists()


def test_visa_by_a_role_without_visa_is_403(mc, register, user_in):
    croupier = user_in(mc, "croupier")
    response = api_as(croupier).post(visas_url(register), {"up_to_seq": 2, "password": DEFAULT_PASSWORD})
    assert response.status_code == 403


@pytest.mark.parametrize(
    "data,field",
    [
        ({"up_to_seq": 2, "password": "faux"}, "password"),
        ({"password": DEFAULT_PASSWORD}, "up_to_seq"),
        ({"up_to_seq": 2}, "password"),
    ],
)
def test_visa_bad_input_or_failed_reauthentication_is_400(cast, register, data, field):
    response = api_as(cast.visa).post(visas_url(register), data)
    assert response.status_code == 400 and field in response.json()
    assert not register.entries.filter(kind=EntryKind.VISA).exists()


def test_anonymous_api_is_refused(register):
    assert APIClient().get("/api/v1/registers/").status_code in (401, 403)


def test_openapi_schema_generates_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--fail-on-warn", "--file", str(out))
    schema = out.read_text()
    assert "/api/v1/registers/{number}/visas/" in schema and "/api/v1/registers/{register_number}/entries/" in schema


def test_api_docs_page_uses_only_local_static(client):
    page = client.get("/api/v1/docs/").content.decode()
    assert "swagger-ui-bundle.js" in page and "/static/drf_spectacular_sidecar/" in page
    assert "http://" not in page and "https://" not in page and "//cdn" not in page
