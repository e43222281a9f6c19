"""MC banque à tout va and chemin de fer: GAME-31 (000 art. 12.3), the register of bankers approved
by the Direction and the refusal of a banker who is not approved at the table-partie; GAME-29
(000 art. 11.10), the Direction des Jeux's extension past the closing time (SET-25) and the flag
of a table closed after it without one."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import selectors, services
from ledgers.core.errors import RuleViolation
from ledgers.core.services import seance_open, table_session_close, table_session_open, table_session_prepare
from ledgers.tables import selectors as table_selectors
from ledgers.tables.models import ClosingExtension, PartieBanker
from ledgers.tables.services import banker_name, closing_extension_record
from tests.factories import GamingTableFactory, open_register, open_seance_registers

TODAY = timezone.localdate()
YESTERDAY = TODAY - datetime.timedelta(days=1)


@pytest.fixture
def bankers_register(mco):
    """The register of the approved bankers; and those the séances write in."""
    open_seance_registers(mco.est)
    return open_register(mco.est, "banquiers_agrees")


@pytest.fixture
def session(mco, bankers_register):
    table = GamingTableFactory(establishment=mco.est, number="BTV1", game="banque_tout_va")
    seance = seance_open(establishment=mco.est, date=TODAY, period="apres_midi", actor=mco.directeur_jeux)
    return table_session_prepare(seance=seance, table=table, actor=mco.directeur_jeux)


def approve(mco, name="Jean Banquier", days=-30, actor=None):
    return services.banker_approve(
        establishment=mco.est,
        actor=actor or mco.directeur_jeux,
        full_name=name,
        birth_date=datetime.date(1970, 5, 1),
        identity_document="Passeport 12AB34",
        approved_on=TODAY + datetime.timedelta(days=days),
    )


def test_game_31_register_of_approved_bankers(mco, bankers_register):
    with pytest.raises(RuleViolation) as refused:
        approve(mco, actor=mco.inspecteur)
    assert refused.value.code == "GAME-31"
    banker = approve(mco)
    entry = bankers_register.entries.get(seq=banker.entry_seq)
    assert "Jean Banquier" in entry.payload["identity"] and entry.payload["date"] == banker.approved_on.isoformat()
    services.banker_withdraw(banker=banker, actor=mco.directeur_jeux, on=TODAY)
    assert list(selectors.bankers_approved(mco.est, YESTERDAY)) == [banker]
    assert not selectors.bankers_approved(mco.est, TODAY).exists()
    with pytest.raises(RuleViolation):  # withdrawn once
        services.banker_withdraw(banker=banker, actor=mco.directeur_jeux, on=TODAY)


def test_game_31_a_banker_not_approved_is_refused(mco, session):
    approved, withdrawn, too_late = approve(mco), approve(mco, "Paul Retiré"), approve(mco, "Luc Futur", days=0)
    services.banker_withdraw(banker=withdrawn, actor=mco.directeur_jeux, on=YESTERDAY)
    too_late.approved_on = TODAY + datetime.timedelta(days=1)  # an approval dated after the séance
    too_late.save()
    for banker in (withdrawn, too_late):
        with pytest.raises(RuleViolation) as refused:
            banker_name(session=session, actor=mco.directeur_jeux, banker=banker)
        assert refused.value.code == "GAME-31"
    assert not PartieBanker.objects.exists()
    named = banker_name(session=session, actor=mco.inspecteur, banker=approved)
    assert table_selectors.banker_of(session) == named
    assert registers_entry(mco, "parties_de_table").payload["event"] == "Banquier"  # in the table-partie log


def registers_entry(mco, kind):
    from ledgers.registers.selectors import current_register

    register = current_register(mco.est, kind)
    return register.entries.get(seq=register.head_seq)


def test_game_31_table_opened_without_a_banker_flagged(mco, session):
    table_session_open(session=session, actor=mco.directeur_jeux)

    def banker_flags():
        return [(code, s) for code, what, s in table_selectors.exceptions(mco.est) if "banquier" in what]

    assert banker_flags() == [("GAME-31", session)]
    banker_name(session=session, actor=mco.directeur_jeux, banker=approve(mco))
    assert banker_flags() == []


def test_game_31_api_and_page(client, mco, session):
    banker = approve(mco, "Paul Retiré")
    services.banker_withdraw(banker=banker, actor=mco.directeur_jeux, on=YESTERDAY)
    api = APIClient()
    api.force_authenticate(mco.directeur_jeux)
    refused = api.post("/api/v1/tables/bankers/", {"table_session": session.pk, "banker": banker.pk}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "GAME-31"
    created = api.post(
        "/api/v1/authority/bankers/",
        {
            "full_name": "Jean Banquier",
            "birth_date": "1970-05-01",
            "identity_document": "CNI 99",
            "approved_on": TODAY.isoformat(),
        },
        format="json",
    )
    assert created.status_code == 201
    named = api.post(
        "/api/v1/tables/bankers/", {"table_session": session.pk, "banker": created.json()["id"]}, format="json"
    )
    assert named.status_code == 201 and named.json()["banker_name"] == "Jean Banquier"
    client.force_login(mco.directeur_jeux)
    assert "Paul Retiré" in client.get(reverse("authority:bankers")).content.decode()
    page = client.get(reverse("seance-table", kwargs={"pk": session.pk}))
    assert page.status_code == 200 and "GAME-31" in page.content.decode()


@pytest.fixture
def late_partie(mco, bankers_register):
    """A chemin de fer table-partie whose séance's closing time (SET-25) passed an hour ago."""
    closing = mco.est.localtime() - datetime.timedelta(hours=1)
    mco.est.options = {**mco.est.options, "SET-25": {"closing": {"soiree": [closing.strftime("%H:%M"), 0]}}}
    mco.est.save()
    table = GamingTableFactory(establishment=mco.est, number="CF1", game="chemin_de_fer")
    seance = seance_open(establishment=mco.est, date=closing.date(), period="soiree", actor=mco.directeur_jeux)
    return table_session_open(
        session=table_session_prepare(seance=seance, table=table, actor=mco.directeur_jeux), actor=mco.directeur_jeux
    )


def test_game_29_closing_after_the_closing_time_without_extension_flagged(mco, late_partie):
    table_session_close(session=late_partie, actor=mco.directeur_jeux)
    assert table_selectors.closed_late_without_extension(mco.est) == [late_partie]
    assert ("GAME-29", late_partie) in [(code, s) for code, _what, s in table_selectors.exceptions(mco.est)]


def test_game_29_extension_by_the_direction_des_jeux(mco, late_partie):
    closing = table_selectors.closing_time(late_partie.seance)
    with pytest.raises(RuleViolation) as refused:
        closing_extension_record(session=late_partie, actor=mco.inspecteur, new_end=timezone.now(), reason="8 joueurs")
    assert refused.value.code == "GAME-29"
    extension = closing_extension_record(
        session=late_partie,
        actor=mco.directeur_jeux,
        new_end=timezone.now() + datetime.timedelta(hours=1),
        reason="8 joueurs, partie animée",
    )
    assert extension.new_end > closing
    assert registers_entry(mco, "parties_de_table").payload["event"] == "Prolongation de la partie"
    table_session_close(session=late_partie, actor=mco.directeur_jeux)
    assert table_selectors.closed_late_without_extension(mco.est) == []


def test_game_29_only_chemin_de_fer_and_api(mco, late_partie, session):
    with pytest.raises(RuleViolation) as refused:  # banque à tout va is not extended
        closing_extension_record(
            session=session, actor=mco.directeur_jeux, new_end=timezone.now() + datetime.timedelta(hours=1), reason="x"
        )
    assert refused.value.code == "GAME-29"
    api = APIClient()
    api.force_authenticate(mco.directeur_jeux)
    early = api.post(
        "/api/v1/tables/extensions/",
        {"table_session": late_partie.pk, "reason": "x", "new_end": "2000-01-01T20:00:00Z"},
        format="json",
    )
    assert early.status_code == 400  # before the closing time: no extension
    done = api.post(
        "/api/v1/tables/extensions/",
        {
            "table_session": late_partie.pk,
            "reason": "6 joueurs",
            "new_end": (timezone.now() + datetime.timedelta(hours=2)).isoformat(),
        },
        format="json",
    )
    assert done.status_code == 201 and ClosingExtension.objects.count() == 1


def test_game_29_game_31_the_flags_of_the_parties_read_in_two_queries_whatever_their_number(
    mco, late_partie, session, django_assert_num_queries
):
    """The home's flags: a partie closed late (GAME-29), a bank with no banker (GAME-31) and parties
    opened with no staff logged, each source cut at the latest shown, read in two queries."""
    table_session_close(session=late_partie, actor=mco.directeur_jeux)
    table_session_open(session=session, actor=mco.directeur_jeux)

    def flags(latest):
        with django_assert_num_queries(2):
            return [(code, s.pk) for code, _what, s in table_selectors.exceptions(mco.est, latest=latest)]

    assert flags(None) == [
        ("GAME-31", session.pk),
        ("GAME-27", late_partie.pk),
        ("GAME-29", late_partie.pk),
        ("GAME-31", session.pk),
    ]
    blackjacks = []
    for number in ("BJ1", "BJ2", "BJ3"):
        table = GamingTableFactory(establishment=mco.est, number=number, game="blackjack")
        prepared = table_session_prepare(seance=session.seance, table=table, actor=mco.directeur_jeux)
        blackjacks.append(table_session_open(session=prepared, actor=mco.directeur_jeux).pk)
    newest_first = [("GAME-02", pk) for pk in reversed(blackjacks)]
    assert flags(None) == [
        *newest_first,
        ("GAME-31", session.pk),
        ("GAME-27", late_partie.pk),
        ("GAME-29", late_partie.pk),
        ("GAME-31", session.pk),
    ]
    assert flags(2) == newest_first[:2][::-1]
