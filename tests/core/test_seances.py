"""The séances area (UI and API): open a séance, prepare, open and close its table-parties, see
what is still missing and close the séance only when nothing is (REG-25)."""

import datetime
import html
import re

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core import hooks
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Seance, TableSession
from ledgers.core.services import (
    seance_close,
    seance_open,
    table_session_close,
    table_session_open,
    table_session_prepare,
)
from ledgers.registers.selectors import current_register
from ledgers.registers.services import register_create
from tests.factories import GamingTableFactory, open_register, open_seance_registers

DAY = datetime.date(2026, 11, 3)


def text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


@pytest.fixture
def cards_out():
    """A closing check that refuses the end of partie of table "BJ1" while cards are out."""
    state = {"out": True}

    def check(session):
        if state["out"] and session.table.number == "BJ1":
            raise RuleViolation("CARD-18", "Cartes non rentrées au dépôt : MC00001.")

    hooks.on_table_closing(check)
    yield state
    hooks._closing_checks.remove(check)


@pytest.fixture
def director(mc, user_in):
    open_seance_registers(mc)
    return user_in(mc, "directeur_jeux")


@pytest.fixture
def bj1(mc):
    return GamingTableFactory(establishment=mc, number="BJ1", game="blackjack")


def test_reg_25_an_open_table_partie_that_cannot_end_is_missing(mc, director, bj1, cards_out):
    seance = seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    session = table_session_open(
        session=table_session_prepare(seance=seance, table=bj1, actor=director), actor=director
    )
    missing = hooks.seance_missing(seance)
    assert [(m.code, m.url) for m in missing] == [("CARD-18", reverse("seance-table", kwargs={"pk": session.pk}))]
    assert "BJ1" in str(missing[0].what) and "MC00001" in str(missing[0].what)
    with pytest.raises(RuleViolation) as refused:
        seance_close(seance=seance, actor=director)
    assert refused.value.code == "REG-25"
    session.refresh_from_db()
    assert session.status == TableSession.Status.OPEN  # a refused closing changes nothing

    cards_out["out"] = False
    seance_close(seance=seance, actor=director)
    session.refresh_from_db()
    assert session.status == TableSession.Status.CLOSED  # the séance closing ended the partie


def test_seance_opened_twice_is_bad_input(mc, director):
    seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    with pytest.raises(ValidationError, match="déjà"):
        seance_open(establishment=mc, date=DAY, period="soiree", actor=director)


def test_croupier_may_not_open_a_seance(client, mc, user_in):
    client.force_login(user_in(mc, "croupier"))
    response = client.post(reverse("seances"), {"date": "2026-11-03", "period": "soiree"})
    assert response.status_code == 403 and not Seance.objects.exists()


def test_ui_open_prepare_run_and_close_a_seance(client, mc, director, bj1, cards_out):
    client.force_login(director)
    assert "Ouvrir une séance" in text(client.get(reverse("seances")))
    response = client.post(reverse("seances"), {"date": "2026-11-03", "period": "soiree"})
    seance = Seance.objects.get(establishment=mc)
    assert response.status_code == 302 and response.url == reverse("seance", kwargs={"pk": seance.pk})

    response = client.post(reverse("seance-prepare", kwargs={"pk": seance.pk}), {"table": bj1.pk})
    session = TableSession.objects.get(seance=seance, table=bj1)
    assert response.url == reverse("seance-table", kwargs={"pk": session.pk})
    page = text(client.get(response.url))
    assert "Cartes" in page and "Matériel" in page and "CARD-18" in page  # what the end waits for

    assert "GAME-02" in page and "J'ouvre la table sans ce qui manque" in page  # nobody logged at it
    unconfirmed = client.post(reverse("seance-table-open", kwargs={"pk": session.pk}))
    assert unconfirmed.status_code == 400 and "personnel inscrit (1 croupier, 1 chef de table)" in text(unconfirmed)
    session.refresh_from_db()
    assert session.status == TableSession.Status.PREPARING
    opened = client.post(reverse("seance-table-open", kwargs={"pk": session.pk}), {"confirm_missing": "1"})
    assert opened.status_code == 302
    refused = client.post(reverse("seance-table-close", kwargs={"pk": session.pk}))
    assert refused.status_code == 409 and "CARD-18" in text(refused)

    page = text(client.get(reverse("seance", kwargs={"pk": seance.pk})))
    assert "REG-25" in page and "CARD-18" in page and "MC00001" in page
    refused = client.post(reverse("seance-close", kwargs={"pk": seance.pk}))
    assert refused.status_code == 409 and "REG-25" in text(refused)

    cards_out["out"] = False
    assert "Rien ne manque" in text(client.get(reverse("seance", kwargs={"pk": seance.pk})))
    assert client.post(reverse("seance-close", kwargs={"pk": seance.pk})).status_code == 302
    seance.refresh_from_db()
    assert seance.status == Seance.Status.CLOSED
    page = client.get(reverse("seance", kwargs={"pk": seance.pk})).content.decode()
    assert reverse("reports:daily_request") + f"?seance={seance.pk}" in page


def test_api_open_prepare_run_and_close_a_seance(mc, director, bj1, cards_out):
    api = APIClient()
    api.force_authenticate(director)
    created = api.post("/api/v1/seances/", {"date": "2026-11-03", "period": "soiree"}, format="json")
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    assert api.post("/api/v1/seances/", {"date": "2026-11-03", "period": "soiree"}, format="json").status_code == 400

    prepared = api.post(f"/api/v1/seances/{pk}/tables/", {"table": bj1.pk}, format="json")
    assert prepared.status_code == 201 and prepared.json()["status"] == "preparing"
    session = prepared.json()["id"]
    unconfirmed = api.post(f"/api/v1/seances/table-sessions/{session}/open/")
    assert unconfirmed.status_code == 400 and "GAME-02" in unconfirmed.json()["detail"]
    confirmed = api.post(f"/api/v1/seances/table-sessions/{session}/open/", {"confirm_missing": True}, format="json")
    assert confirmed.json()["status"] == "open"
    twice = api.post(f"/api/v1/seances/table-sessions/{session}/open/")
    assert twice.status_code == 409 and twice.json()["code"] == "REG-20"

    refused = api.post(f"/api/v1/seances/{pk}/close/")
    assert refused.status_code == 409 and refused.json()["code"] == "REG-25"
    detail = api.get(f"/api/v1/seances/{pk}/").json()
    assert [m["code"] for m in detail["missing"]] == ["CARD-18"]

    cards_out["out"] = False
    closed = api.post(f"/api/v1/seances/{pk}/close/")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert api.get("/api/v1/seances/table-sessions/", {"seance": pk}).json()["results"][0]["status"] == "closed"


def test_api_seances_are_scoped_to_the_establishment(mc, fr, user_in, director):
    open_seance_registers(fr)
    other = seance_open(establishment=fr, date=DAY, period="soiree", actor=user_in(fr, "directeur_responsable"))
    api = APIClient()
    api.force_authenticate(director)
    assert api.get(f"/api/v1/seances/{other.pk}/").status_code == 404
    assert api.get("/api/v1/seances/").json()["results"] == []


def test_dashboard_lists_the_open_seances_with_what_they_lack(client, mc, director, bj1, cards_out):
    seance = seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    table_session_open(session=table_session_prepare(seance=seance, table=bj1, actor=director), actor=director)
    client.force_login(director)
    page = text(client.get(reverse("dashboard")))
    assert "Séances ouvertes" in page and "1 enregistrement manquant" in page


def test_reg_20_seance_and_table_partie_acts_are_written_in_their_registers(mc, director, bj1):
    """The séance opened and closed: lines of the main courante; the table-partie prepared, opened
    and ended: lines of the table-partie log. Each line names the object its act wrote."""
    seance = seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    session = table_session_prepare(seance=seance, table=bj1, actor=director)
    table_session_open(session=session, actor=director)
    seance_close(seance=seance, actor=director)  # ends the partie too

    facts = list(current_register(mc, "main_courante").entries.filter(kind="record").order_by("seq"))
    assert [(e.payload["subject"], e.payload["seance"], e.role, e.actor_user_id) for e in facts] == [
        ("Ouverture de la séance", seance.pk, "directeur_jeux", director.pk),
        ("Clôture de la séance", seance.pk, "directeur_jeux", director.pk),
    ]
    assert facts[0].payload["text"] == "Ouverture de la séance du 03/11/2026 — Soirée."
    assert facts[1].payload["text"] == "Clôture de la séance du 03/11/2026 — Soirée : 1 partie(s) de table terminée(s)."
    assert [e.written["core.Seance"] for e in facts] == [[seance.pk], [seance.pk]]

    log = list(current_register(mc, "parties_de_table").entries.filter(kind="record").order_by("seq"))
    assert [(e.payload["event"], e.payload["table"], e.payload["table_session"]) for e in log] == [
        ("Préparation de la partie", "BJ1", session.pk),
        ("Début de partie", "BJ1", session.pk),
        ("Fin de partie", "BJ1", session.pk),
    ]
    assert {e.payload["detail"] for e in log} == {"Black-jack"}
    assert [e.written["core.TableSession"] for e in log] == [[session.pk]] * 3


def test_reg_20_no_seance_nor_partie_without_its_register_coted_and_paraphed(client, mc, user_in, bj1):
    director = user_in(mc, "directeur_jeux")
    register_create(establishment=mc, kind="main_courante", actor=director)  # awaiting its cote et paraphe
    with pytest.raises(RuleViolation, match="Main courante") as refused:
        seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    assert refused.value.code == "REG-20" and not Seance.objects.exists()
    client.force_login(director)
    response = client.post(reverse("seances"), {"date": "2026-11-03", "period": "soiree"})
    assert response.status_code == 409 and "Main courante" in text(response) and not Seance.objects.exists()

    open_register(mc, "main_courante")
    seance = seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    with pytest.raises(RuleViolation, match="parties de table") as refused:
        table_session_prepare(seance=seance, table=bj1, actor=director)
    assert refused.value.code == "REG-20" and not TableSession.objects.exists()


def test_game_02_a_table_with_nobody_logged_opens_only_once_what_is_missing_is_confirmed(client, mc, director, bj1):
    seance = seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    session = table_session_prepare(seance=seance, table=bj1, actor=director)
    assert {(g.code, str(g.what)) for g in hooks.opening_gaps(session)} == {
        ("GAME-02", "personnel inscrit (1 croupier, 1 chef de table)"),
        ("GAME-01", "cartes remises à la table (6 jeux)"),
    }
    with pytest.raises(ValidationError, match="GAME-02"):
        hooks.opening_confirmation(session, confirmed=False)
    client.force_login(director)
    page = client.get(reverse("seance-table", kwargs={"pk": session.pk})).content.decode()
    assert 'name="confirm_missing"' in page and "data-confirm=" in page
    assert reverse("seance-table-close", kwargs={"pk": session.pk}) not in page  # not before it opens
    assert client.post(reverse("seance-table-open", kwargs={"pk": session.pk})).status_code == 400
    assert (
        client.post(reverse("seance-table-open", kwargs={"pk": session.pk}), {"confirm_missing": "1"}).status_code
        == 302
    )
    page = client.get(reverse("seance-table", kwargs={"pk": session.pk})).content.decode()
    assert reverse("seance-table-close", kwargs={"pk": session.pk}) in page and "La table ne rouvre pas" in page


@pytest.mark.parametrize(("tables", "expected"), [(1, 19), (3, 31)])
def test_the_seance_closing_reads_its_table_parties_and_their_facts_once(mc, director, tables, expected):
    """The closing locks the table-parties still to end, reads them with their facts in one query
    and ends each from that read: a partie more costs only its end (the actor's roles, its row and
    its history row, its log line: the volume, the digests, the entry), not its facts again."""
    seance = seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    for number in range(1, tables + 1):
        table = GamingTableFactory(establishment=mc, number=f"BJ{number}", game="blackjack")
        table_session_open(session=table_session_prepare(seance=seance, table=table, actor=director), actor=director)
    with CaptureQueriesContext(connection) as queries:
        seance_close(seance=seance, actor=director)
    assert len(queries) == expected
    assert not TableSession.objects.filter(seance=seance).exclude(status=TableSession.Status.CLOSED).exists()


def test_a_table_partie_closing_reads_its_facts_with_its_row(mc, director):
    """The partie's own closing locks its row, then reads it with every app's facts in one query:
    its closing checks read no fact in a query of their own."""
    seance = seance_open(establishment=mc, date=DAY, period="soiree", actor=director)
    table = GamingTableFactory(establishment=mc, number="BJ1", game="blackjack")
    session = table_session_open(
        session=table_session_prepare(seance=seance, table=table, actor=director), actor=director
    )
    with CaptureQueriesContext(connection) as queries:
        table_session_close(session=session, actor=director)
    assert len(queries) == 10
    session.refresh_from_db()
    assert session.status == TableSession.Status.CLOSED
