"""GAME-20, REG-18 (MC 000 art. 8.3): complex called bets handed in writing, authorised by the
direction des jeux's visa, only with an inspecteur present, the SCJ informed (flagged otherwise)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import selectors, services
from ledgers.authority.models import CalledBet
from ledgers.core.authz import save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import TableSession
from ledgers.core.services import seance_open, table_session_prepare
from ledgers.registers.models import Entry
from tests.cash.test_e2e import printed
from tests.factories import GamingTableFactory, make_user, open_register, open_seance_registers


@pytest.fixture
def live(mco):
    """An open roulette table-partie and the register of the called bets."""
    register = open_register(mco.est, "annonces_complexes")
    open_seance_registers(mco.est)
    seance = seance_open(establishment=mco.est, date=timezone.localdate(), period="soiree", actor=mco.directeur_jeux)
    session = table_session_prepare(
        seance=seance,
        table=GamingTableFactory(establishment=mco.est, number="R1", game="roulette"),
        actor=mco.directeur_jeux,
    )
    session.status, session.opened_at = TableSession.Status.OPEN, timezone.now()
    save_audited(session, actor=mco.directeur_jeux)
    mco.chef_table = make_user(mco.est, "chef_table")
    return session, register


def hand(mco, session, **kwargs):
    return services.called_bet_record(
        session=session,
        actor=mco.chef_table,
        content="Finales 3 et 6 à cheval, 20 €",
        inspecteur=kwargs.pop("inspecteur", mco.inspecteur),
        **kwargs,
    )


def test_reg_18_written_bet_kept_with_the_table_partie(mco, live):
    session, register = live
    bet = hand(mco, session, player="M. X")
    entry = Entry.objects.get(register=register, seq=bet.entry_seq)
    assert entry.payload["table"] == "R1" and entry.payload["content"].startswith("Finales")
    assert bet.status == CalledBet.Status.HANDED and list(session.called_bets.all()) == [bet]


def test_reg_18_called_bet_lines_carry_every_column_and_print(mco, live):
    session, register = live
    bet = hand(mco, session, player="M. X")
    informed = services.called_bet_scj_notify(bet=bet, channel="téléphone", actor=mco.directeur_jeux).scj_informed_at
    services.called_bet_authorise(bet=bet, actor=mco.directeur_jeux)
    handed, scj, visa = (e.payload for e in register.entries.filter(kind="record").order_by("seq"))
    assert scj["event"] == "information du SCJ"
    for line in (handed, scj, visa):  # GAME-20: table, content, player, the inspecteur present
        assert (line["bet"], line["table"], line["seance"]) == (1, "R1", str(session.seance))
        assert (line["content"], line["player"]) == ("Finales 3 et 6 à cheval, 20 €", "M. X")
        assert line["inspecteur"] == mco.inspecteur.get_full_name()
    assert handed["event"] == "remise par écrit" and handed["signed_by"] == mco.chef_table.get_full_name()
    # The direction's visa (officer; the time is the line's), the SCJ informed: time and channel.
    assert visa["event"] == "visa de la direction" and visa["signed_by"] == mco.directeur_jeux.get_full_name()
    assert visa["scj"] == f"{mco.est.localtime(informed):%Y-%m-%d %H:%M} (téléphone)" and visa["flags"] == []
    text = "".join(printed(register).split())
    names = (mco.inspecteur.get_full_name(), mco.directeur_jeux.get_full_name())
    for value in ("Finales 3 et 6", "M. X", "téléphone", *names):
        assert "".join(value.split()) in text


def test_game_20_only_with_an_inspecteur_present(mco, live):
    with pytest.raises(RuleViolation) as refused:
        hand(mco, live[0], inspecteur=mco.cartier)
    assert refused.value.code == "GAME-20"
    assert not CalledBet.objects.exists()


def test_game_20_authorised_only_by_the_direction_visa(mco, live):
    bet = hand(mco, live[0])
    for actor in (mco.inspecteur, mco.chef_table):
        with pytest.raises(RuleViolation) as refused:
            services.called_bet_authorise(bet=bet, actor=actor)
        assert refused.value.code == "GAME-20"
    bet.refresh_from_db()
    assert bet.status == CalledBet.Status.HANDED
    done = services.called_bet_authorise(bet=bet, actor=mco.directeur_jeux)
    assert done.status == CalledBet.Status.AUTHORISED and done.visa_by == mco.directeur_jeux
    with pytest.raises(RuleViolation):
        services.called_bet_authorise(bet=bet, actor=mco.directeur_jeux)


def test_game_20_scj_not_informed_flagged(client, mco, live):
    session, register = live
    bet = services.called_bet_authorise(bet=hand(mco, session), actor=mco.directeur_jeux)
    assert list(selectors.called_bets_without_scj(mco.est)) == [bet]
    client.force_login(mco.scj)
    assert "SCJ non informé" in client.get(reverse("dashboard")).content.decode()
    assert register.entries.order_by("-seq").first().payload["flags"][0]["code"] == "GAME-20"
    # informed as soon as possible after the visa: the flag is cleared, at the time the system recorded
    before = timezone.now()
    informed = services.called_bet_scj_notify(bet=bet, channel="téléphone", actor=mco.directeur_jeux)
    assert before <= informed.scj_informed_at <= timezone.now()  # the system's time, nothing typed
    assert informed.scj_notice.notified_at == informed.scj_informed_at and informed.scj_notice.channel == "téléphone"
    assert not selectors.called_bets_without_scj(mco.est).exists()
    with pytest.raises(RuleViolation) as again:
        services.called_bet_scj_notify(bet=bet, channel="courriel", actor=mco.directeur_jeux)  # given once
    assert "déjà informé" in str(again.value)
    with pytest.raises(ValidationError):
        services.called_bet_scj_notify(bet=hand(mco, session), channel=" ", actor=mco.directeur_jeux)
    with pytest.raises(RuleViolation) as refused:
        services.called_bet_scj_notify(bet=hand(mco, session), channel="téléphone", actor=mco.chef_table)
    assert refused.value.code == "GAME-20"


def test_game_20_a_bet_with_only_a_typed_scj_time_gets_its_system_timed_notice(client, mco, live):
    """A bet visaed when the SCJ's time was typed with the visa has that time and no notice."""
    session, register = live
    bet = services.called_bet_authorise(bet=hand(mco, session), actor=mco.directeur_jeux)
    typed = timezone.now() - datetime.timedelta(days=40)
    bet.scj_informed_at, bet.scj_channel = typed, "téléphone"
    save_audited(bet, actor=mco.directeur_jeux)
    assert not selectors.called_bets_without_scj(mco.est).exists()  # the typed time still counts
    client.force_login(mco.directeur_jeux)
    page = client.get(reverse("authority:called_bets")).content.decode()
    assert "heure saisie avec le visa" in page and reverse("authority:called_bet_scj_notice", args=[bet.pk]) in page
    before = timezone.now()
    response = client.post(reverse("authority:called_bet_scj_notice", args=[bet.pk]), {"channel": "courriel"})
    assert response.status_code == 302
    bet.refresh_from_db()
    assert before <= bet.scj_notice.notified_at == bet.scj_informed_at <= timezone.now()
    assert (bet.scj_channel, bet.scj_notice.channel) == ("courriel", "courriel")
    assert typed in bet.history.values_list("scj_informed_at", flat=True)  # the typed time stays
    line = register.entries.order_by("-seq").first().payload
    assert line["event"] == "information du SCJ" and line["scj"].endswith("(courriel)")
    page = client.get(reverse("authority:called_bets")).content.decode()
    assert "heure saisie avec le visa" not in page
    assert reverse("authority:called_bet_scj_notice", args=[bet.pk]) not in page
    with pytest.raises(RuleViolation) as again:
        services.called_bet_scj_notify(bet=bet, channel="courriel", actor=mco.directeur_jeux)
    assert "déjà informé" in str(again.value)


def test_game_20_closed_partie_and_other_roles_refused(mco, live):
    session, _register = live
    with pytest.raises(PermissionDenied):
        services.called_bet_record(session=session, actor=mco.cartier, content="x", inspecteur=mco.inspecteur)
    session.status = TableSession.Status.CLOSED
    save_audited(session, actor=mco.directeur_jeux)
    with pytest.raises(ValidationError):
        hand(mco, session)


def test_game_20_ui_and_api(client, mco, live):
    session, _register = live
    client.force_login(mco.chef_table)
    response = client.post(
        reverse("authority:called_bets"),
        {"session": session.pk, "content": "Orphelins à cheval", "inspecteur": mco.inspecteur.pk},
    )
    assert response.status_code == 302
    bet = CalledBet.objects.get()
    refused = client.post(reverse("authority:called_bet_visa", args=[bet.pk]), {})
    assert refused.status_code == 409 and b"GAME-20" in refused.content
    api = APIClient()
    api.force_authenticate(mco.directeur_jeux)
    typed = api.post(
        f"/api/v1/authority/called-bets/{bet.pk}/scj-notices/",
        {"channel": "courriel", "scj_informed_at": "2020-01-01T08:00:00Z"},
        format="json",
    )
    # a typed time is not read: the time is the request's
    assert typed.status_code == 201 and not typed.json()["scj_informed_at"].startswith("2020")
    done = api.post(f"/api/v1/authority/called-bets/{bet.pk}/visa/", {}, format="json")
    assert done.status_code == 201 and done.json()["status"] == "authorised"
    assert [b["number"] for b in api.get("/api/v1/authority/called-bets/").json()["results"]] == [1]
    other = hand(mco, session)
    client.force_login(mco.directeur_jeux)
    page = client.get(reverse("authority:called_bets")).content.decode()
    assert reverse("authority:called_bet_scj_notice", args=[other.pk]) in page
    told = client.post(reverse("authority:called_bet_scj_notice", args=[other.pk]), {"channel": "téléphone"})
    assert told.status_code == 302
    other.refresh_from_db()
    assert other.scj_informed_at is not None and other.scj_channel == "téléphone"
