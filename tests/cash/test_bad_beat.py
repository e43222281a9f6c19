"""Bad beat jackpot: the count per table before the table employees, a cashier and a comité
member, the certified statement, the higher amount retained, the amount displayed validated
(COUNT-21 to COUNT-24; REG-10; INC-10)."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledgers.cash import selectors, services
from ledgers.cash.models import BadBeatCount, BadBeatTable
from ledgers.cash.registers import REGISTRE_BBJ
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import seance_close
from ledgers.incidents.models import Incident
from ledgers.registers.selectors import current_register
from tests.factories import DEFAULT_PASSWORD


def bbj(org, session, counted="1200", statement="1200", **kwargs):
    fields = {
        "displayed": Decimal("25400"),
        "present": ["Croupier", "Chef de table"],
        "actor": org[Role.CAISSIER],
        "comite": org[Role.COMITE],
        **kwargs,
    }
    return services.bad_beat_record(session=session, counted=Decimal(counted), statement=Decimal(statement), **fields)


def test_count_21_counted_at_the_end_of_the_partie_before_the_three_presences(fro):
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as early:
        bbj(fro, session)
    assert early.value.code == "COUNT-21"
    fro.close(session)
    with pytest.raises(RuleViolation) as no_comite:
        bbj(fro, session, comite=None)
    assert no_comite.value.code == "COUNT-21"
    with pytest.raises(RuleViolation) as nobody:
        bbj(fro, session, present=[])
    assert nobody.value.code == "COUNT-21"
    assert not BadBeatCount.objects.exists()


def test_count_22_entered_by_the_cashier_against_the_statement_certified_by_a_comite_member(fro):
    session = fro.close(fro.session("TH1"))
    with pytest.raises(RuleViolation) as refused:
        bbj(fro, session, comite=fro[Role.CHEF_TABLE])
    assert refused.value.code == "COUNT-22"
    with pytest.raises(RuleViolation) as writer:
        bbj(fro, session, actor=fro[Role.CROUPIER])
    assert writer.value.code == "COUNT-22"
    record = bbj(fro, session)
    entry = current_register(fro.est, REGISTRE_BBJ.code).entries.filter(kind="record").get()
    assert entry.payload["retained"] == "1200.00" and "Membre du comité" in entry.payload["comite"]
    assert record.cashier == fro[Role.CAISSIER] and record.flags == []  # entered at once (COUNT-22)


@pytest.mark.parametrize(
    ("counted", "statement", "retained", "adjustment", "contribution"),
    [
        ("1250", "1200", "1250.00", "50.00", "0.00"),  # surplus: keyed into the machine as extra retenue
        ("1150", "1200", "1200.00", "0.00", "50.00"),  # shortfall: borne by the casino's cash desk
        ("1200", "1200", "1200.00", "0.00", "0.00"),
    ],
)
def test_count_23_inc_10_the_higher_amount_is_retained(fro, counted, statement, retained, adjustment, contribution):
    record = bbj(fro, fro.close(fro.session("TH1")), counted=counted, statement=statement)
    assert (str(record.retained), str(record.adjustment), str(record.contribution)) == (
        retained,
        adjustment,
        contribution,
    )
    difference = current_register(fro.est, REGISTRE_BBJ.code).entries.filter(kind="record").get().payload["difference"]
    assert ("INC-10" in difference) == (counted != statement)
    incidents = Incident.objects.filter(table_session=record.table_session, requirement="INC-10")
    assert [i.found_by for i in incidents] == ([fro[Role.COMITE]] if counted != statement else [])


def test_count_24_amount_displayed_entered_and_validated_by_the_comite_member(fro):
    record = bbj(fro, fro.close(fro.session("TH1")))
    entry = current_register(fro.est, REGISTRE_BBJ.code).entries.filter(kind="record").get()
    assert record.displayed == Decimal("25400.00") and entry.payload["displayed"] == "25400.00"


def test_bad_beat_page_and_api(client, fro):
    session = fro.close(fro.session("TH1"))
    client.force_login(fro[Role.CAISSIER])
    assert client.get(f"/caisses/tables/{session.pk}/bad-beat-jackpot/").status_code == 200
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER])
    body = {
        "table_session": session.pk,
        "counted": "900",
        "statement": "1000",
        "displayed": "18000",
        "present": ["Croupier"],
    }
    refused = api.post("/api/v1/cash/bad-beat-jackpot/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-21"
    response = api.post(
        "/api/v1/cash/bad-beat-jackpot/",
        {**body, "comite_username": fro[Role.COMITE].username, "comite_password": DEFAULT_PASSWORD},
        format="json",
    )
    assert response.status_code == 201 and response.json()["contribution"] == "100.00"


def test_count_46_bbj_runs_only_with_an_approved_machine_and_a_built_in_cagnotte(fro):
    with pytest.raises(RuleViolation) as refused:
        services.bad_beat_activate(
            table=fro.tables["TH1"], machine_approval="", cagnotte_number="BBJ-TH1", actor=fro[Role.COMITE]
        )
    assert refused.value.code == "COUNT-46" and not BadBeatTable.objects.exists()
    services.bad_beat_activate(
        table=fro.tables["TH1"], machine_approval="AGR-2025-12", cagnotte_number="BBJ-TH1", actor=fro[Role.COMITE]
    )
    entry = current_register(fro.est, REGISTRE_BBJ.code).entries.filter(kind="record").get()
    assert "AGR-2025-12" in entry.payload["difference"]


def test_count_24_seance_not_closed_without_the_bbj_displayed_amount(fro):
    services.bad_beat_activate(
        table=fro.tables["TH1"], machine_approval="AGR-2025-12", cagnotte_number="BBJ-TH1", actor=fro[Role.COMITE]
    )
    session = fro.close(fro.session("TH1"))
    with pytest.raises(RuleViolation) as refused:
        seance_close(seance=session.seance, actor=fro.director)
    assert "COUNT-24" in str(refused.value)
    bbj(fro, session)
    assert not selectors.bad_beat_uncounted(session.seance).exists()


def test_count_46_bbj_activation_through_the_api(fro):
    client = APIClient()
    client.force_authenticate(fro[Role.COMITE])
    body = {"table": fro.tables["TH1"].pk, "machine_approval": "", "cagnotte_number": "BBJ-TH1"}
    refused = client.post("/api/v1/cash/bad-beat-jackpot/tables/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-46"
    done = client.post("/api/v1/cash/bad-beat-jackpot/tables/", {**body, "machine_approval": "AGR-1"}, format="json")
    assert done.status_code == 201 and done.json()["machine_approval"] == "AGR-1"


def test_count_25_the_bbj_register_kept_by_computer_is_traceable_and_unalterable(fro):
    """Art. 56-3-1 allows the register by computer if operations can be traced: its entries form a
    hash chain that verifies, and the database refuses to alter them or the count behind them."""
    from django.db import DatabaseError, transaction

    from ledgers.registers.verification import verify_register

    record = bbj(fro, fro.close(fro.session("TH1")))
    register = current_register(fro.est, REGISTRE_BBJ.code)
    entry = register.entries.filter(kind="record").get()
    assert verify_register(register) is None and entry.actor_user == fro[Role.CAISSIER]
    with pytest.raises(DatabaseError), transaction.atomic():
        type(entry).objects.filter(pk=entry.pk).update(payload={})
    with pytest.raises(DatabaseError), transaction.atomic():
        BadBeatCount.objects.filter(pk=record.pk).update(counted=Decimal("1"))
    record.refresh_from_db()
    assert record.counted == Decimal("1200.00")


def test_count_22_an_entry_made_long_after_the_end_of_the_partie_is_flagged(fro):
    """The cashier enters the retenue "immédiatement": past the COUNT-22 setting the count and its
    register line carry the flag (an entry at once carries none: the COUNT-22 test above)."""
    from django.utils import timezone

    from ledgers.core.models import TableSession

    fro.est.options = {**fro.est.options, "COUNT-22": 15}
    fro.est.save()
    late = fro.close(fro.session("TH1"))
    TableSession.objects.filter(pk=late.pk).update(closed_at=timezone.now() - datetime.timedelta(minutes=40))
    record = bbj(fro, late)
    assert [f.split(" :")[0] for f in record.flags] == ["COUNT-22"] and "40 min" in record.flags[0]
    line = current_register(fro.est, REGISTRE_BBJ.code).entries.filter(kind="record").order_by("seq").last()
    assert line.payload["flags"] == record.flags
