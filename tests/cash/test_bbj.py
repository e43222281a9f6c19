"""Bad beat jackpot conditions, stops and wins: the versioned conditions (COUNT-44, COUNT-45),
the final stop with its orphans entry and the breakdown incident (COUNT-47, INC-15), the payment
bons under a comité member's control (COUNT-48) and the continuity of the displayed amount
(COUNT-24)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority.registers import HOUSE_RULES
from ledgers.authority.services import house_rules_publish
from ledgers.cash import rules, selectors, services
from ledgers.cash.models import (
    BadBeatConfig,
    BadBeatCount,
    BadBeatLog,
    BadBeatStop,
    BadBeatStopNotice,
    BadBeatWin,
    Orphan,
)
from ledgers.cash.registers import CARNET_ORPHELINS, REGISTRE_BBJ
from ledgers.cash.services import bbj, bbj_stops
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.incidents.models import Incident, IncidentNotice
from ledgers.incidents.registers import AUTHORITY_NOTICES
from ledgers.registers.selectors import current_register
from tests.factories import DEFAULT_PASSWORD


@pytest.fixture
def jackpot(fro):
    fro.open_register(HOUSE_RULES.code)
    house_rules_publish(
        establishment=fro.est,
        actor=fro.director,
        effective_from=datetime.date(2026, 1, 1),
        reference="RI 2026",
        options=[],
    )
    return services.bad_beat_activate(
        table=fro.tables["TH1"], machine_approval="AGR-1", cagnotte_number="BBJ-TH1", actor=fro[Role.COMITE]
    )


def configure(fro, jackpot, **kwargs):
    fields = {
        "starting_value": Decimal("1000"),
        "increment_kind": BadBeatConfig.Increment.PERCENT,
        "increment_value": Decimal("1"),
        "rounding": "à l'euro inférieur",
        "side_pot_rule": "pot principal",
        "minimum_pot": Decimal("40"),
        "restart": BadBeatConfig.Restart.START,
        "actor": fro[Role.COMITE],
        **kwargs,
    }
    return bbj.bad_beat_configure(jackpot=jackpot, **fields)


def win(fro, session, amount="2000", players=4, bons=None, **kwargs):
    fields = {
        "combination": "carré de 8 contre quinte flush",
        "pot": Decimal("120"),
        "winner_name": "Martin Paul",
        "restart_value": Decimal("1000"),
        "actor": fro[Role.CAISSIER],
        "comite": fro[Role.COMITE],
        **kwargs,
    }
    bons = rules.bbj_split(Decimal(amount), players) if bons is None else bons
    return bbj.bad_beat_win(session=session, amount=Decimal(amount), players_present=players, bons=bons, **fields)


def bbj_count(fro, session, retained="500", displayed="1500"):
    return services.bad_beat_record(
        session=session,
        counted=Decimal(retained),
        statement=Decimal(retained),
        displayed=Decimal(displayed),
        present=["Croupier"],
        actor=fro[Role.CAISSIER],
        comite=fro[Role.COMITE],
    )


def bbj_entries(fro):
    return list(current_register(fro.est, REGISTRE_BBJ.code).entries.filter(kind="record").order_by("seq"))


# --- COUNT-44, COUNT-45 -------------------------------------------------------------------------


def test_count_44_split_half_to_the_winner_half_shared_among_all_players_present():
    assert rules.bbj_split(Decimal("2000.00"), 4) == [
        Decimal("1250.00"),
        Decimal("250.00"),
        Decimal("250.00"),
        Decimal("250.00"),
    ]
    # cents that do not divide go to the main prize: the bons add up to the jackpot
    split = rules.bbj_split(Decimal("1000.00"), 3)
    assert split == [Decimal("666.68"), Decimal("166.66"), Decimal("166.66")] and sum(split) == Decimal("1000.00")


def test_count_44_minimum_pot_from_the_house_rules_in_force(fro):
    activation = services.bad_beat_activate(
        table=fro.tables["TH1"], machine_approval="AGR-1", cagnotte_number="BBJ-TH1", actor=fro[Role.COMITE]
    )
    with pytest.raises(RuleViolation) as refused:
        configure(fro, activation)
    assert refused.value.code == "COUNT-44" and not BadBeatConfig.objects.exists()
    fro.open_register(HOUSE_RULES.code)
    house_rules_publish(
        establishment=fro.est,
        actor=fro.director,
        effective_from=datetime.date(2026, 1, 1),
        reference="RI 2026",
        options=[],
    )
    assert configure(fro, activation).house_rules_version == 1


def test_count_44_payout_split_other_than_half_and_equal_shares_refused(fro, jackpot):
    configure(fro, jackpot)
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as unequal:
        win(fro, session, bons=[Decimal("1000"), Decimal("400"), Decimal("300"), Decimal("300")])
    assert unequal.value.code == "COUNT-44"
    with pytest.raises(RuleViolation) as small_pot:
        win(fro, session, pot=Decimal("39.99"))
    assert small_pot.value.code == "COUNT-44" and not BadBeatWin.objects.exists()


def test_count_45_conditions_cannot_change_while_the_bbj_runs(fro, jackpot):
    configure(fro, jackpot)
    with pytest.raises(RuleViolation) as refused:
        configure(fro, jackpot, increment_value=Decimal("2"))
    assert refused.value.code == "COUNT-45" and jackpot.configs.count() == 1
    with pytest.raises(RuleViolation) as vague:
        configure(fro, jackpot, rounding=" ")
    assert vague.value.code == "COUNT-45"
    entry = bbj_entries(fro)[-1]
    assert "Conditions v1" in entry.payload["event"] and "1.00 %" in entry.payload["event"]


def test_count_45_restart_value_zero_or_the_starting_value_as_configured(fro, jackpot):
    configure(fro, jackpot, restart=BadBeatConfig.Restart.ZERO)
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as refused:
        win(fro, session, restart_value=Decimal("1000"))
    assert refused.value.code == "COUNT-45"
    assert win(fro, session, restart_value=Decimal("0")).restart_value == Decimal("0.00")


# --- COUNT-48 -----------------------------------------------------------------------------------


def test_count_48_one_bon_per_player_both_signatures_and_the_winner_named(fro, jackpot):
    configure(fro, jackpot)
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as too_few:
        win(fro, session, bons=rules.bbj_split(Decimal("2000"), 3))
    assert too_few.value.code == "COUNT-48"
    with pytest.raises(RuleViolation) as no_comite:
        win(fro, session, comite=None)
    assert no_comite.value.code == "COUNT-48"
    with pytest.raises(RuleViolation) as not_comite:
        win(fro, session, comite=fro[Role.CHEF_TABLE])
    assert not_comite.value.code == "COUNT-48"
    with pytest.raises(RuleViolation) as not_cashier:
        win(fro, session, actor=fro[Role.CROUPIER])
    assert not_cashier.value.code == "COUNT-48"
    with pytest.raises(RuleViolation) as anonymous:
        win(fro, session, winner_name=" ")
    assert anonymous.value.code == "COUNT-48" and not BadBeatWin.objects.exists()
    paid = win(fro, session)
    again = win(fro, session, amount="1000", players=2)
    assert [b["number"] for b in paid.bons] == [1, 2, 3, 4] and [b["number"] for b in again.bons] == [5, 6]
    assert paid.bons[0] == {"number": 1, "player": "Martin Paul", "amount": "1250.00"}
    entry = bbj_entries(fro)[-2]
    assert "Martin Paul" in entry.payload["event"] and "Texas" in entry.payload["event"]
    assert "Membre du comité" in entry.payload["comite"] and entry.payload["bons"][3]["amount"] == "250.00"


# --- COUNT-47, INC-15 ---------------------------------------------------------------------------


def minister_told(fro, jackpot, reference="courrier 12"):
    return bbj_stops.bad_beat_stop_notify(
        jackpot=jackpot, channel=IncidentNotice.Channel.WRITTEN, reference=reference, actor=fro[Role.COMITE]
    )


def test_count_47_final_stop_refused_without_the_recorded_minister_notice(fro, jackpot):
    configure(fro, jackpot)
    with pytest.raises(RuleViolation) as silent:
        bbj_stops.bad_beat_stop_final(jackpot=jackpot, actor=fro[Role.COMITE])
    assert silent.value.code == "COUNT-47" and "Enregistrez d'abord" in str(silent.value)
    assert not BadBeatStop.objects.exists()


def test_count_47_amb_50_final_stop_within_48_hours_after_the_recorded_notice_not_later(fro, jackpot, monkeypatch):
    """ "Dans les quarante-huit heures qui précèdent son arrêt" (AMB-50): told within the 48 hours
    before the stop; a notice older than that no longer precedes it within them."""
    configure(fro, jackpot)
    before = timezone.now()
    notice = minister_told(fro, jackpot)
    # the time is the system's: nothing typed in can back-date it
    assert before <= notice.notified_at <= timezone.now()
    later = timezone.now() + datetime.timedelta(hours=48, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    with pytest.raises(RuleViolation) as late:
        bbj_stops.bad_beat_stop_final(jackpot=jackpot, actor=fro[Role.COMITE])
    until = fro.est.localtime(notice.notified_at + datetime.timedelta(hours=48))
    assert late.value.code == "COUNT-47" and f"{until:%d/%m/%Y %H:%M}" in str(late.value)
    assert not BadBeatStop.objects.exists()
    minister_told(fro, jackpot, reference="courrier 13")  # told again
    assert bbj_stops.bad_beat_stop_final(jackpot=jackpot, actor=fro[Role.COMITE]).minister_reference == "courrier 13"


def test_count_47_minister_notice_is_given_once_and_written_in_the_auth_06_register(fro, jackpot):
    notice = minister_told(fro, jackpot)
    line = current_register(fro.est, AUTHORITY_NOTICES.code).entries.order_by("-seq").first()
    assert line.payload["requirement"] == "COUNT-47" and line.payload["reference"] == "courrier 12"
    assert line.payload["notified_at"] == f"{fro.est.localtime(notice.notified_at):%d/%m/%Y %H:%M}"
    with pytest.raises(RuleViolation):  # told once while it holds
        minister_told(fro, jackpot, reference="courrier 13")
    assert BadBeatStopNotice.objects.count() == 1


def test_count_47_final_stop_after_the_notice_lead_writes_the_orphan(fro, jackpot):
    configure(fro, jackpot)
    bbj_count(fro, fro.close(fro.session("TH1")), retained="500", displayed="1500")
    notice = minister_told(fro, jackpot)
    stop = bbj_stops.bad_beat_stop_final(jackpot=jackpot, actor=fro[Role.COMITE])
    assert stop.minister_notified_at == notice.notified_at and stop.minister_reference == "courrier 12"
    assert stop.increment == Decimal("500.00") and stop.orphan.amount == Decimal("500.00")
    assert stop.orphan.category == Orphan.Category.JACKPOT_INCREMENT
    orphan_entry = current_register(fro.est, CARNET_ORPHELINS.code).entries.get(seq=stop.orphan.entry_seq)
    assert orphan_entry.payload["amount"] == "500.00"
    assert "courrier 12" in bbj_entries(fro)[-1].payload["event"]
    # stopped: the conditions may change, it is a new BBJ
    assert configure(fro, jackpot, starting_value=Decimal("0")).version == 2


def test_count_47_reassignment_only_until_31_october_of_the_season(fro, jackpot, monkeypatch):
    configure(fro, jackpot)
    bbj_count(fro, fro.close(fro.session("TH1")), retained="300", displayed="1300")
    minister_told(fro, jackpot, reference="courrier 13")
    stop = bbj_stops.bad_beat_stop_final(jackpot=jackpot, actor=fro[Role.COMITE])
    # a year later the 31 October of the stop's season is past
    later = timezone.now() + datetime.timedelta(days=366)
    monkeypatch.setattr(timezone, "now", lambda: later)
    with pytest.raises(RuleViolation) as late:
        configure(fro, jackpot, reassign=True)
    assert late.value.code == "COUNT-47" and jackpot.configs.count() == 1
    monkeypatch.undo()
    config = configure(fro, jackpot, reassign=True)
    assert config.reassigned == Decimal("300.00")
    orphan = Orphan.objects.get(pk=stop.orphan_id)
    assert orphan.refunded == orphan.amount
    # the new BBJ displays its starting value plus the increment taken back (COUNT-24)
    expected = selectors.expected_display(jackpot, retained=Decimal("0"))
    assert expected["expected"] == Decimal("1300.00")


def test_inc_15_breakdown_needs_the_police_information_and_stops_increments_and_payouts(fro, jackpot):
    configure(fro, jackpot)
    session = fro.session("TH1")
    down = timezone.now() - datetime.timedelta(minutes=10)
    with pytest.raises(RuleViolation) as silent:
        bbj_stops.bad_beat_breakdown(
            jackpot=jackpot, down_at=down, police_informed_at=None, police_service="", actor=fro[Role.COMITE]
        )
    assert silent.value.code == "INC-15" and not Incident.objects.filter(requirement="INC-15").exists()
    stop = bbj_stops.bad_beat_breakdown(
        jackpot=jackpot,
        down_at=down,
        police_informed_at=down + datetime.timedelta(minutes=2),
        police_service="SRPJ Nice",
        actor=fro[Role.COMITE],
    )
    incident = stop.incident
    assert incident.requirement == "INC-15" and incident.status == Incident.Status.OPEN
    assert incident.notices.get().recipient_role == Role.POLICE
    with pytest.raises(RuleViolation) as payout:
        win(fro, session)
    assert payout.value.code == "COUNT-47"
    bbj_stops.bad_beat_restore(stop=stop, restored_at=timezone.now(), actor=fro[Role.COMITE])
    incident.refresh_from_db()
    assert incident.status == Incident.Status.CLOSED
    assert win(fro, session).amount == Decimal("2000.00")


def test_count_47_no_increment_retained_for_a_partie_played_during_a_breakdown(fro, jackpot):
    configure(fro, jackpot)
    down = timezone.now() - datetime.timedelta(minutes=5)
    bbj_stops.bad_beat_breakdown(
        jackpot=jackpot, down_at=down, police_informed_at=down, police_service="SRPJ", actor=fro[Role.COMITE]
    )
    session = fro.close(fro.session("TH1"))
    with pytest.raises(RuleViolation) as refused:
        bbj_count(fro, session, retained="80", displayed="1080")
    assert refused.value.code == "COUNT-47" and not BadBeatCount.objects.exists()
    assert bbj_count(fro, session, retained="0", displayed="1000").flags == []


# --- COUNT-24 continuity --------------------------------------------------------------------------


def test_count_24_displayed_amount_flagged_unless_previous_plus_retenues_minus_payouts(fro, jackpot):
    configure(fro, jackpot)
    first = bbj_count(fro, fro.close(fro.session("TH1")), retained="500", displayed="1500")
    assert first.flags == []
    session = fro.session("TH1", seance=fro.seance(day=1))
    win(fro, session, amount="1500", players=3)  # restarts at the starting value, 1 000 €
    second = bbj_count(fro, fro.close(session), retained="200", displayed="1250")
    assert second.flags and "1200.00" in second.flags[0]
    assert "COUNT-24" in bbj_entries(fro)[-1].payload["flags"][0]
    assert list(selectors.bad_beat_flags(fro.est)) == [second]
    third = bbj_count(fro, fro.close(fro.session("TH1", seance=fro.seance(day=2))), retained="100", displayed="1350")
    assert third.flags == []


# --- pages and API --------------------------------------------------------------------------------


def test_count_48_bbj_pages_and_api(client, fro, jackpot, monkeypatch):
    api = APIClient()
    api.force_authenticate(fro[Role.COMITE])
    config = {
        "jackpot": jackpot.pk,
        "starting_value": "1000",
        "increment_kind": "percent",
        "increment_value": "1",
        "rounding": "euro",
        "side_pot_rule": "principal",
        "minimum_pot": "40",
        "restart": "start",
    }
    assert api.post("/api/v1/cash/bad-beat-jackpot/configs/", config, format="json").status_code == 201
    again = api.post("/api/v1/cash/bad-beat-jackpot/configs/", config, format="json")
    assert again.status_code == 409 and again.json()["code"] == "COUNT-45"
    session = fro.session("TH1")
    api.force_authenticate(fro[Role.CAISSIER])
    body = {
        "table_session": session.pk,
        "combination": "carré de 7",
        "pot": "80",
        "amount": "1000",
        "players_present": 2,
        "bons": ["750.00", "250.00"],
        "winner_name": "Durand Anne",
        "restart_value": "1000",
    }
    refused = api.post("/api/v1/cash/bad-beat-jackpot/wins/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-48"
    done = api.post(
        "/api/v1/cash/bad-beat-jackpot/wins/",
        {**body, "comite_username": fro[Role.COMITE].username, "comite_password": DEFAULT_PASSWORD},
        format="json",
    )
    assert done.status_code == 201 and done.json()["bons"][0]["amount"] == "750.00"
    api.force_authenticate(fro[Role.COMITE])
    down = (timezone.now() - datetime.timedelta(minutes=1)).isoformat()
    breakdown = {"jackpot": jackpot.pk, "down_at": down, "police_informed_at": None, "police_service": ""}
    silent = api.post("/api/v1/cash/bad-beat-jackpot/breakdowns/", breakdown, format="json")
    assert silent.status_code == 409 and silent.json()["code"] == "INC-15"
    made = api.post(
        "/api/v1/cash/bad-beat-jackpot/breakdowns/",
        {**breakdown, "police_informed_at": down, "police_service": "SRPJ"},
        format="json",
    )
    assert made.status_code == 201
    restored = api.post(
        f"/api/v1/cash/bad-beat-jackpot/breakdowns/{made.json()['id']}/restore/",
        {"restored_at": timezone.now().isoformat()},
        format="json",
    )
    assert restored.status_code == 201 and restored.json()["restored_at"]
    stop = api.post("/api/v1/cash/bad-beat-jackpot/final-stops/", {"jackpot": jackpot.pk}, format="json")
    assert stop.status_code == 409 and stop.json()["code"] == "COUNT-47"
    told = api.post(
        "/api/v1/cash/bad-beat-jackpot/final-stop-notices/",
        {"jackpot": jackpot.pk, "channel": "written", "reference": "lettre"},
        format="json",
    )
    assert told.status_code == 201 and told.json()["notified_at"]
    with monkeypatch.context() as future:  # past the 48 hours the notice precedes the stop within (AMB-50)
        later = timezone.now() + datetime.timedelta(hours=49)
        future.setattr(timezone, "now", lambda: later)
        late = api.post("/api/v1/cash/bad-beat-jackpot/final-stops/", {"jackpot": jackpot.pk}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "COUNT-47"
    client.force_login(fro[Role.COMITE])
    for url in (
        f"/caisses/bad-beat-jackpot/{jackpot.pk}/",
        f"/caisses/bad-beat-jackpot/{jackpot.pk}/conditions/",
        f"/caisses/bad-beat-jackpot/{jackpot.pk}/arret-definitif/",
        f"/caisses/bad-beat-jackpot/{jackpot.pk}/information-ministre/",
        f"/caisses/bad-beat-jackpot/{jackpot.pk}/panne/",
        f"/caisses/tables/{session.pk}/bad-beat-gain/",
    ):
        assert client.get(url).status_code == 200, url


def test_count_47_temporary_voluntary_stop_refuses_retenues_and_payouts_until_resumed(client, fro, jackpot):
    configure(fro, jackpot)
    stop = bbj_stops.bad_beat_suspend(jackpot=jackpot, actor=fro[Role.COMITE])
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as payout:
        win(fro, session)
    assert (payout.value.code, payout.value.article) == ("COUNT-47", "Arrêté du 14 mai 2007 art. 56-3-2")
    fro.close(session)
    with pytest.raises(RuleViolation) as retenue:  # the partie was played wholly during the stop
        bbj_count(fro, session, retained="80", displayed="1080")
    assert retenue.value.code == "COUNT-47" and not BadBeatCount.objects.exists()
    client.force_login(fro.director)
    resume = f"/caisses/bad-beat-jackpot/{jackpot.pk}/arrets-temporaires/{stop.pk}/reprise/"
    assert resume in client.get(f"/caisses/bad-beat-jackpot/{jackpot.pk}/").content.decode()
    assert client.post(resume).status_code == 302
    stop.refresh_from_db()
    assert stop.restored_at is not None and stop.restored_by == fro.director
    events = [e.payload["event"] for e in bbj_entries(fro)[-2:]]
    assert events[0].startswith("Arrêt volontaire temporaire à") and events[1].startswith("Reprise du bad beat jackpot")
    assert win(fro, fro.session("TH1", seance=fro.seance(day=1))).amount == Decimal("2000.00")
    api = APIClient()
    api.force_authenticate(fro[Role.COMITE])
    made = api.post("/api/v1/cash/bad-beat-jackpot/suspensions/", {"jackpot": jackpot.pk}, format="json")
    assert made.status_code == 201 and made.json()["kind"] == "suspension"
    resumed = api.post(f"/api/v1/cash/bad-beat-jackpot/suspensions/{made.json()['id']}/resume/", {}, format="json")
    assert resumed.status_code == 201 and resumed.json()["restored_by"] == fro[Role.COMITE].pk


# --- COUNT-46 machine log -------------------------------------------------------------------------

LOG = (
    "heure,pot,retenue_maison,retenue_bbj,gains_payes,montant_bbj,paiements\n"
    "21:04:12,120.00,6.00,1.20,112.80,1001.20,\n"
    "21:30,90.00,4.50,0.90,84.60,1002.10,\n"
)


def test_count_46_machine_log_imported_and_compared_with_the_register_retenue(client, fro, jackpot):
    configure(fro, jackpot)
    session = fro.close(fro.session("TH1"))
    with pytest.raises(ValidationError):  # the retenue is written in the register first
        bbj.bad_beat_log_import(session=session, content=LOG, actor=fro[Role.CAISSIER])
    bbj_count(fro, session, retained="2.00", displayed="1002.00")
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER])
    bad = api.post(
        "/api/v1/cash/bad-beat-jackpot/logs/",
        {"table_session": session.pk, "csv": "heure,pot\n21:00,10\n"},
        format="json",
    )
    assert bad.status_code == 400 and not BadBeatLog.objects.exists()
    client.force_login(fro[Role.CAISSIER])
    posted = client.post(
        f"/caisses/tables/{session.pk}/bad-beat-historique/",
        {"file": SimpleUploadedFile("th1.csv", LOG.encode(), content_type="text/csv")},
    )
    assert posted.status_code == 302
    log = BadBeatLog.objects.get(table_session=session)
    assert (log.bbj_total, log.house_total, len(log.rows)) == (Decimal("2.10"), Decimal("10.50"), 2)
    assert log.rows[1] == {
        "time": "21:30:00",
        "pot": "90.00",
        "house": "4.50",
        "bbj": "0.90",
        "wins": "84.60",
        "bbj_amount": "1002.10",
        "payments": [],
    }
    assert log.flags == [
        "COUNT-46 : retenues du bad beat jackpot de l'historique 2.10 € ≠ retenue inscrite au registre 2.00 €."
    ]
    entry = bbj_entries(fro)[-1]
    assert entry.payload["statement"] == "2.10" and entry.payload["flags"] == log.flags
    assert "2.10 €" in client.get(f"/caisses/bad-beat-jackpot/{jackpot.pk}/").content.decode()
    with pytest.raises(RuleViolation):  # once per partie
        bbj.bad_beat_log_import(session=session, content=LOG, actor=fro[Role.CAISSIER])
