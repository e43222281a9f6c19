"""FR slot accounting: bons d'avance machine (SLOT-42, REG-42) and the carnet de comptabilité
modèle 29 per machine (SLOT-55, REG-41, REG-26)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledgers.core.errors import RuleViolation
from ledgers.slots import services
from ledgers.slots.models import AccountingLine, MachineAvance
from ledgers.slots.services import accounting
from tests.factories import make_user, open_register

pytestmark = pytest.mark.django_db


@pytest.fixture
def machine(fr_room):
    machine = fr_room.on_floor(payment_limit=Decimal("500"))
    open_register(fr_room.est, "slot_comptabilite_29", machine.casino_number)
    return machine


def _avance(fr_room, machine, **overrides):
    values = {
        "machine": machine,
        "amount": Decimal("200"),
        "denomination": "pièces de 1 €",
        "reason": "hopper_empty",
        "refilled_by": fr_room["employe_jeux"],
        "comite": fr_room["comite"],
        "actor": fr_room["caissier"],
        "signed_by": fr_room["caissier"],
        **overrides,
    }
    return accounting.avance_issue(**values)


def test_slot_42_bon_needs_cashier_and_comite_signatures(fr_room, machine):
    for overrides in (
        {"comite": None},
        {"comite": fr_room["superviseur"]},
        {"actor": fr_room["superviseur"]},
        {"comite": fr_room["caissier"]},
    ):
        with pytest.raises(RuleViolation) as exc:
            _avance(fr_room, machine, **overrides)
        assert exc.value.code == "SLOT-42"
    assert not MachineAvance.objects.exists() and not AccountingLine.objects.exists()


def test_slot_42_reason_required_and_modele_29_annotated(fr_room, machine):
    with pytest.raises(RuleViolation) as exc:
        _avance(fr_room, machine, reason="")
    assert exc.value.code == "SLOT-42"
    bon = _avance(fr_room, machine)
    assert bon.line.kind == "avance" and bon.line.amount == Decimal("200")
    entry = bon.line.entry
    assert entry.register.kind == "slot_comptabilite_29" and entry.register.qualifier == machine.casino_number
    assert "n° 1" in entry.payload["detail"] and "Membre du comité" in entry.payload["signature"]


def test_reg_42_avance_bons_numbered_without_gaps(fr_room, machine):
    first = _avance(fr_room, machine)
    with pytest.raises(RuleViolation):
        _avance(fr_room, machine, comite=None)  # a refused bon takes no number
    second = _avance(fr_room, machine, reason="preventive")
    other = fr_room.on_floor()
    open_register(fr_room.est, "slot_comptabilite_29", other.casino_number)
    third = _avance(fr_room, other, reason="new_machine")
    assert [first.bon_number, second.bon_number, third.bon_number] == [1, 2, 3]


def test_reg_26_modele_29_needs_a_volume_coted_by_the_control_officials(fr_room):
    machine = fr_room.on_floor()
    with pytest.raises(RuleViolation) as exc:
        _avance(fr_room, machine)
    assert exc.value.code == "REG-26"
    register = open_register(fr_room.est, "slot_comptabilite_29", machine.casino_number)
    assert register.kind_info.form == "modèle 29"
    assert register.kind_info.paraph_roles_for("FR") == ("controle_interieur",)


def test_slot_55_entry_refused_without_both_visas(fr_room, machine):
    for comite in (None, fr_room["superviseur"]):
        with pytest.raises(RuleViolation) as exc:
            accounting.tickets_record(
                machine=machine,
                amount=Decimal("30"),
                comite=comite,
                actor=fr_room["caissier"],
                signed_by=fr_room["caissier"],
            )
        assert exc.value.code == "SLOT-55"
    with pytest.raises(RuleViolation):
        accounting.count_record(
            machine=machine,
            physical=Decimal("100"),
            comite=fr_room["comite"],
            actor=fr_room["comite"],
            signed_by=fr_room["comite"],
        )
    assert not AccountingLine.objects.exists()


def test_slot_55_product_per_count_follows_the_formula(fr_room, machine):
    cashier, comite = fr_room["caissier"], fr_room["comite"]
    _avance(fr_room, machine)  # 200
    payment = services.jackpot_pay(
        machine=machine, amount=Decimal("800"), method="cash", combination="7-7-7", actor=cashier, controller=comite
    )
    with pytest.raises(RuleViolation) as exc:  # the cash-desk payment is not in modèle 29 yet
        accounting.count_record(
            machine=machine, physical=Decimal("5000"), comite=comite, actor=cashier, signed_by=cashier
        )
    assert exc.value.code == "SLOT-55"
    accounting.payment_post(payment=payment, comite=comite, actor=cashier, signed_by=cashier)  # 800
    accounting.tickets_record(machine=machine, amount=Decimal("150"), comite=comite, actor=cashier, signed_by=cashier)
    kwargs = {
        "machine": machine,
        "physical": Decimal("5000"),
        "units_in": 12000,
        "units_out": 2000,
        "unclaimed": Decimal("50"),
        "comite": comite,
        "actor": cashier,
        "signed_by": cashier,
    }
    # 5000 + (12000 − 2000) × 0.10 − 200 − 800 − 50 − 150 = 4800
    with pytest.raises(RuleViolation) as exc:
        accounting.count_record(product=Decimal("5000"), **kwargs)
    assert exc.value.code == "SLOT-55"
    count = accounting.count_record(product=Decimal("4800.00"), **kwargs)
    assert (count.electronic, count.avances, count.payments, count.tickets, count.amount) == (
        Decimal("1000.00"),
        Decimal("200"),
        Decimal("800"),
        Decimal("150"),
        Decimal("4800.00"),
    )
    assert "Membre du comité" in count.entry.payload["signature"]
    # the bons were cash values until this count: the next count starts from zero
    assert not accounting.open_lines(machine).exists()
    following = accounting.count_record(
        machine=machine, physical=Decimal("10"), comite=comite, actor=cashier, signed_by=cashier
    )
    assert following.amount == Decimal("10.00") and following.avances == 0


def test_slot_55_payment_posted_once_and_carnet_is_french_only(fr_room, machine, mc_room):
    cashier, comite = fr_room["caissier"], fr_room["comite"]
    payment = services.jackpot_pay(
        machine=machine, amount=Decimal("800"), method="cash", combination="7-7-7", actor=cashier, controller=comite
    )
    accounting.payment_post(payment=payment, comite=comite, actor=cashier, signed_by=cashier)
    with pytest.raises(ValidationError):
        accounting.payment_post(payment=payment, comite=comite, actor=cashier, signed_by=cashier)
    mc_machine = mc_room.on_floor()
    mc_cashier = make_user(mc_room.est, "caissier", username="caissier-mc-2")
    with pytest.raises(ValidationError):
        accounting.tickets_record(
            machine=mc_machine,
            amount=Decimal("1"),
            comite=mc_cashier,
            actor=mc_room["caissier"],
            signed_by=mc_room["caissier"],
        )


def test_slot_35_slot_55_dashboard_lists_the_jackpots_awaiting_the_comite_visa(client, fr_room, machine):
    cashier, comite = fr_room["caissier"], fr_room["comite"]
    payment = services.jackpot_pay(
        machine=machine, amount=Decimal("800"), method="cash", combination="7-7-7", actor=cashier, controller=comite
    )
    client.force_login(comite)
    waiting = f"Bon de paiement n° {payment.bon_number} ({machine.number}, 800,00\xa0€)"
    assert waiting in client.get(reverse("dashboard")).content.decode()
    accounting.payment_post(payment=payment, comite=comite, actor=cashier, signed_by=cashier)
    assert waiting not in client.get(reverse("dashboard")).content.decode()


def test_slot_42_avance_page_with_the_comite_visa(client, fr_room, machine):
    from django.urls import reverse

    from tests.factories import DEFAULT_PASSWORD

    client.force_login(fr_room["caissier"])
    for name, kwargs in [
        ("carnet", {"pk": machine.pk}),
        ("avance", {"pk": machine.pk}),
        ("carnet_tickets", {"pk": machine.pk}),
        ("carnet_count", {"pk": machine.pk}),
        ("carnet_payment", {}),
    ]:
        assert client.get(reverse(f"slots:{name}", kwargs=kwargs)).status_code == 200, name
    body = {
        "reason": "hopper_empty",
        "denomination": "1 €",
        "amount": "100",
        "refilled_by": fr_room["employe_jeux"].pk,
        "comite_username": fr_room["superviseur"].username,
        "comite_password": DEFAULT_PASSWORD,
        "password": DEFAULT_PASSWORD,
    }
    refused = client.post(reverse("slots:avance", args=[machine.pk]), body)
    assert refused.status_code == 409 and "SLOT-42" in refused.content.decode()
    done = client.post(
        reverse("slots:avance", args=[machine.pk]), {**body, "comite_username": fr_room["comite"].username}
    )
    assert done.status_code == 302 and MachineAvance.objects.get().bon_number == 1
    page = client.get(reverse("slots:carnet", args=[machine.pk])).content.decode()
    assert "100" in page and "Membre du comité" in page


def test_slot_55_api_count_with_the_comite_visa(fr_room, machine):
    from rest_framework.test import APIClient

    from tests.factories import DEFAULT_PASSWORD

    api = APIClient()
    api.force_authenticate(fr_room["caissier"])
    visa = {
        "comite_username": fr_room["comite"].username,
        "comite_password": DEFAULT_PASSWORD,
        "password": DEFAULT_PASSWORD,
    }
    base = f"/api/v1/slots/machines/{machine.pk}/"
    avance = api.post(
        f"{base}avances/",
        {
            "reason": "new_machine",
            "denomination": "1 €",
            "amount": "300",
            "refilled_by": fr_room["employe_jeux"].pk,
            **visa,
        },
        format="json",
    )
    assert avance.status_code == 201 and avance.json()["bon_number"] == 1
    assert api.post(f"{base}carnet/tickets/", {"amount": "20", **visa}, format="json").status_code == 201
    wrong = api.post(f"{base}carnet/counts/", {"physical": "1000", "product": "1000", **visa}, format="json")
    assert wrong.status_code == 409 and wrong.json()["code"] == "SLOT-55"
    count = api.post(f"{base}carnet/counts/", {"physical": "1000", "product": "680", **visa}, format="json")
    assert count.status_code == 201 and count.json()["amount"] == "680.00"
    bad_visa = api.post(f"{base}carnet/tickets/", {"amount": "20", **visa, "comite_password": "x"}, format="json")
    assert bad_visa.status_code == 400
    huge = api.post(f"{base}carnet/counts/", {"physical": "0", "units_in": 10**15, **visa}, format="json")
    assert huge.status_code == 400


def month_end_count(fr_room, *machines):
    """The month-end count of the machines that ran, closed on the month's last day (SLOT-46)."""
    from ledgers.slots.services import counts

    open_register(fr_room.est, "slot_comptees")
    count = counts.slot_count_open(establishment=fr_room.est, kind="month_end", actor=fr_room["comite"])
    for machine in machines:
        open_register(fr_room.est, "slot_comptabilite_29", machine.casino_number)
        counts.slot_count_line(
            count=count,
            machine=machine,
            coins=Decimal("10"),
            actor=fr_room["caissier"],
            signed_by=fr_room["caissier"],
            comite=fr_room["comite"],
        )
    return counts.slot_count_close(count=count, actor=fr_room["comite"])


@pytest.fixture
def october_31(monkeypatch):
    """The month's last day: the counts and the statement of October 2026."""
    import datetime

    from django.utils import timezone

    moment = datetime.datetime(2026, 10, 31, 14, 0, tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: moment)
    return moment


def test_slot_56_modele_35_certified_by_director_and_comite_total_of_modele_29(fr_room, machine, october_31):
    from ledgers.slots.models import MonthlyStatement

    cashier, comite, director = fr_room["caissier"], fr_room["comite"], fr_room["directeur_responsable"]
    open_register(fr_room.est, "slot_recapitulatif_35")
    other = fr_room.on_floor()
    open_register(fr_room.est, "slot_comptabilite_29", other.casino_number)
    _avance(fr_room, machine)
    accounting.count_record(
        machine=machine, physical=Decimal("1000"), comite=comite, actor=cashier, signed_by=cashier
    )  # 800
    accounting.count_record(
        machine=machine, physical=Decimal("500"), comite=comite, actor=cashier, signed_by=cashier
    )  # 500
    accounting.count_record(
        machine=other, physical=Decimal("250"), units_in=100, comite=comite, actor=cashier, signed_by=cashier
    )  # 260
    month = {"establishment": fr_room.est, "year": 2026, "month": 10}
    for actor, visa in (
        (director, None),
        (director, director),
        (director, fr_room["superviseur"]),
        (comite, comite),
        (cashier, comite),
    ):
        with pytest.raises(RuleViolation) as exc:
            accounting.statement_certify(comite=visa, actor=actor, **month)
        assert exc.value.code == "SLOT-56"
    with pytest.raises(RuleViolation) as exc:
        accounting.statement_certify(comite=comite, actor=director, total=Decimal("1300"), **month)
    assert exc.value.code == "SLOT-56" and not MonthlyStatement.objects.exists()
    assert accounting.month_slot_total(fr_room.est, 2026, 10) is None
    statement = accounting.statement_certify(comite=comite, actor=director, total=Decimal("1560"), **month)
    assert statement.total == Decimal("1560.00") and len(statement.lines) == 2
    line = next(row for row in statement.lines if row["casino"] == machine.casino_number)
    assert (line["counts"], line["avances"], line["product"], line["maker"]) == (
        "1500.00",
        "200.00",
        "1300.00",
        machine.maker_number,
    )
    assert statement.entry.register.kind_info.form == "modèle 35"
    assert "Membre du comité" in statement.entry.payload["signature"]
    assert accounting.month_slot_total(fr_room.est, 2026, 10) == Decimal("1560.00")
    with pytest.raises(ValidationError):  # certified once
        accounting.statement_certify(comite=comite, actor=director, **month)


def test_reg_41_modeles_32_and_35_kept_in_volumes_coted_by_the_control_officials(fr_room, machine, october_31):
    cashier, comite, director = fr_room["caissier"], fr_room["comite"], fr_room["directeur_responsable"]
    accounting.count_record(machine=machine, physical=Decimal("100"), comite=comite, actor=cashier, signed_by=cashier)
    month = {"establishment": fr_room.est, "year": 2026, "month": 10, "comite": comite, "actor": director}
    with pytest.raises(RuleViolation) as exc:  # no modèle 35 volume coté et paraphé yet
        accounting.statement_certify(total=Decimal("100"), **month)
    assert exc.value.code == "REG-26"
    for kind, form in (("slot_recapitulatif_35", "modèle 35"), ("slot_releve_32", "modèle 32")):
        register = open_register(fr_room.est, kind)
        assert register.kind_info.form == form
        assert register.kind_info.paraph_roles_for("FR") == ("controle_interieur",)
    statement = accounting.statement_certify(total=Decimal("100"), **month)
    assert statement.entry.register.kind == "slot_recapitulatif_35"


def test_slot_56_modele_35_not_before_the_last_day_of_the_month(fr_room, october_31):
    open_register(fr_room.est, "slot_recapitulatif_35")
    with pytest.raises(ValidationError):
        accounting.statement_certify(
            establishment=fr_room.est,
            year=2026,
            month=11,
            comite=fr_room["comite"],
            actor=fr_room["directeur_responsable"],
        )


def test_slot_56_modele_35_total_carried_to_modele_13(fr_room, machine, october_31):
    from ledgers.cash.services import levy_month_close

    keeper = make_user(fr_room.est, "caissier_principal", username="cp-fr")
    open_register(fr_room.est, "slot_recapitulatif_35")
    register = open_register(fr_room.est, "carnet_prelevements")
    accounting.count_record(
        machine=machine,
        physical=Decimal("900"),
        comite=fr_room["comite"],
        actor=fr_room["caissier"],
        signed_by=fr_room["caissier"],
    )
    accounting.statement_certify(
        establishment=fr_room.est, year=2026, month=10, comite=fr_room["comite"], actor=fr_room["directeur_responsable"]
    )
    month = {"establishment": fr_room.est, "year": 2026, "month": 10, "actor": keeper}
    with pytest.raises(RuleViolation) as exc:
        levy_month_close(slot_total=Decimal("100"), **month)
    assert exc.value.code == "COUNT-57"
    levy_month_close(slot_total=None, **month)
    assert register.entries.get(payload__event="month").payload["slots"] == "900.00"


def test_slot_56_statement_page_and_api(client, fr_room, machine, october_31):
    from django.urls import reverse
    from rest_framework.test import APIClient

    from tests.factories import DEFAULT_PASSWORD

    open_register(fr_room.est, "slot_recapitulatif_35")
    accounting.count_record(
        machine=machine,
        physical=Decimal("40"),
        comite=fr_room["comite"],
        actor=fr_room["caissier"],
        signed_by=fr_room["caissier"],
    )
    director = fr_room["directeur_responsable"]
    client.force_login(director)
    assert client.get(reverse("slots:statement")).status_code == 200
    body = {
        "year": 2026,
        "month": 10,
        "total": "41",
        "comite_username": fr_room["comite"].username,
        "comite_password": DEFAULT_PASSWORD,
        "password": DEFAULT_PASSWORD,
    }
    refused = client.post(reverse("slots:statement"), body)
    assert refused.status_code == 409 and "SLOT-56" in refused.content.decode()
    api = APIClient()
    api.force_authenticate(director)
    done = api.post("/api/v1/slots/statements/", {**body, "total": "40.00"}, format="json")
    assert done.status_code == 201 and done.json()["total"] == "40.00"


def test_slot_47_modele_32_certified_by_employee_and_comite_line_per_fleet_machine(fr_room, october_31, monkeypatch):
    import datetime

    from django.utils import timezone

    from ledgers.core.authz import save_audited
    from ledgers.slots.models import MeterStatement

    open_register(fr_room.est, "slot_releve_32")
    read, unread = fr_room.on_floor(), fr_room.on_floor()  # put on the floor (and read) in October
    in_store, retired = fr_room.register_machine(), fr_room.register_machine()
    retired.status = "retired"
    save_audited(retired, actor=fr_room.keeper)
    monkeypatch.setattr(timezone, "now", lambda: october_31 + datetime.timedelta(days=30))  # 30 November
    releve = fr_room.releve()
    fr_room.read(read, value=1234, releve=releve)
    month_end_count(fr_room, read, unread)
    employee, comite = fr_room["employe_jeux"], fr_room["comite"]
    month = {"establishment": fr_room.est, "year": 2026, "month": 11}
    with pytest.raises(RuleViolation) as exc:  # a machine on the floor whose meters were not read this month
        accounting.meter_statement_certify(comite=comite, actor=employee, **month)
    assert exc.value.code == "SLOT-47" and unread.number in str(exc.value) and read.number not in str(exc.value)
    fr_room.read(unread, value=77, releve=releve)
    for actor, visa in (
        (employee, None),
        (employee, employee),
        (comite, comite),
        (employee, fr_room["superviseur"]),
        (fr_room["caissier"], comite),
    ):
        with pytest.raises(RuleViolation) as exc:
            accounting.meter_statement_certify(comite=visa, actor=actor, **month)
        assert exc.value.code == "SLOT-47"
    assert not MeterStatement.objects.exists()
    statement = accounting.meter_statement_certify(comite=comite, actor=employee, **month)
    lines = {line["casino"]: line for line in statement.lines}
    # the machine retired in October is not in November's fleet; the one in store is
    assert set(lines) == {read.casino_number, unread.casino_number, in_store.casino_number}
    assert set(lines[read.casino_number]["meters"].values()) == {1234}
    assert lines[read.casino_number]["maker"] == read.maker_number
    assert retired in accounting.fleet_of_month(fr_room.est, 2026, 10)
    assert statement.entry.register.kind_info.form == "modèle 32"
    assert "Membre du comité" in statement.entry.payload["signature"]


def test_slot_47_meter_statement_page_and_api(client, fr_room, october_31):
    from django.urls import reverse
    from rest_framework.test import APIClient

    from tests.factories import DEFAULT_PASSWORD

    open_register(fr_room.est, "slot_releve_32")
    month_end_count(fr_room)
    employee = fr_room["employe_jeux"]
    client.force_login(employee)
    assert client.get(reverse("slots:meter_statement")).status_code == 200
    body = {
        "year": 2026,
        "month": 10,
        "comite_username": fr_room["superviseur"].username,
        "comite_password": DEFAULT_PASSWORD,
        "password": DEFAULT_PASSWORD,
    }
    refused = client.post(reverse("slots:meter_statement"), body)
    assert refused.status_code == 409 and "SLOT-47" in refused.content.decode()
    api = APIClient()
    api.force_authenticate(employee)
    done = api.post(
        "/api/v1/slots/meter-statements/", {**body, "comite_username": fr_room["comite"].username}, format="json"
    )
    assert done.status_code == 201 and done.json()["lines"] == []
