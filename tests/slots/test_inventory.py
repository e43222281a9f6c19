"""Socles, the machine inventory, technical sheets, moves and staff approvals (SLOT-01 to 13,
SLOT-25, 30, 31, 33, 34, 52; REG-15, REG-38, REG-39)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.registers.models import Entry, Register
from ledgers.slots import services
from ledgers.slots.models import Machine, MachineMove, Meter, Socle
from tests.cash.test_e2e import printed
from tests.factories import make_user

from .conftest import photo

pytestmark = pytest.mark.django_db


def test_slot_03_socle_number_fixed_once_and_for_all(mc_room):
    socle = mc_room.socle("A01")
    with pytest.raises(RuleViolation) as exc:
        mc_room.socle("A01")
    assert exc.value.code == "SLOT-03"
    assert Socle.objects.filter(number="A01").count() == 1
    assert socle.history.count() == 1
    line = mc_room.registers["slot_fichiers"].entries.order_by("-seq").first()
    assert "A01" in line.payload["detail"]


def test_reg_15_mc_inventory_line_in_the_slot_files(mc_room):
    machine = mc_room.register_machine()
    payloads = [e.payload for e in Entry.objects.filter(register=mc_room.registers["slot_fichiers"], kind="record")]
    assert [p["event"] for p in payloads] == ["Inscription à l'inventaire", "Fiche technique"]
    assert all(p["machine"] == machine.sbm_number for p in payloads)
    assert machine.photo.name.startswith("slots/machines/")
    assert machine.place == "store" and machine.status == "registered"


def test_reg_15_slot_04_07_mc_slot_files_lines_carry_every_column_and_print(mc_room):
    machine = mc_room.register_machine()
    machine.refresh_from_db()
    register = mc_room.registers["slot_fichiers"]
    inventory, sheet = (e.payload for e in Entry.objects.filter(register=register, kind="record").order_by("seq"))
    # SLOT-04: type, serial number, SBM number, location, photograph.
    assert inventory["event"] == "Inscription à l'inventaire" and inventory["machine"] == machine.sbm_number
    for mention in ("Vidéo rouleaux", f"n° {machine.maker_serial}", "lieu : Magasin", machine.photo.name):
        assert mention in inventory["detail"]
    # SLOT-04, SLOT-07: the technical sheet with the certified return, dated.
    assert sheet["event"] == "Fiche technique" and sheet["machine"] == machine.sbm_number
    assert "TRJ 92.50 %" in sheet["detail"] and "5 rouleaux, 20 lignes" in sheet["detail"]
    assert sheet["at"].startswith(machine.rate_date.isoformat())
    # SLOT-08: kept by the Directeur de l'exploitation, who signs the lines.
    assert register.kind_info.paraph_roles_for("MC") == ("directeur_exploitation",)
    assert "Directeur de l'exploitation" in inventory["signature"]
    text = "".join(printed(register).split())
    for value in (machine.sbm_number, machine.maker_serial, "Magasin", "TRJ92.50%"):
        assert value in text


def test_slot_01_media_required(mc_room):
    with pytest.raises(RuleViolation) as exc:
        services.machine_register(
            establishment=mc_room.est, data=mc_room.machine_input(media=()), actor=mc_room.keeper, photo=photo()
        )
    assert exc.value.code == "SLOT-01"


def test_slot_02_duplicate_sbm_id_refused(mc_room):
    first = mc_room.register_machine()
    data = mc_room.machine_input()
    data = services.MachineInput(**{**vars(data), "sbm_number": first.sbm_number})
    with pytest.raises(RuleViolation) as exc:
        services.machine_register(establishment=mc_room.est, data=data, actor=mc_room.keeper, photo=photo())
    assert exc.value.code == "SLOT-02"
    assert Machine.objects.count() == 1


def test_slot_02_sbm_number_required(mc_room):
    with pytest.raises(RuleViolation) as exc:
        services.machine_register(
            establishment=mc_room.est, data=mc_room.machine_input(sbm_number=""), actor=mc_room.keeper, photo=photo()
        )
    assert exc.value.code == "SLOT-02"


def test_slot_04_photo_and_rate_required(mc_room):
    with pytest.raises(RuleViolation) as exc:
        services.machine_register(establishment=mc_room.est, data=mc_room.machine_input(), actor=mc_room.keeper)
    assert exc.value.code == "SLOT-04"
    with pytest.raises(RuleViolation) as exc:
        services.machine_register(
            establishment=mc_room.est, data=mc_room.machine_input(rtp_percent=None), actor=mc_room.keeper, photo=photo()
        )
    assert exc.value.code == "SLOT-04"
    assert not Machine.objects.exists()


def test_slot_04_location_outside_controlled_list_refused(mc_room):
    machine = mc_room.register_machine()
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(machine=machine, to_place="bar", actor=mc_room.keeper, reason="planned")
    assert exc.value.code == "SLOT-04"


def test_slot_07_technical_sheet_versioned(mc_room):
    machine = mc_room.register_machine()
    sheet = services.technical_sheet_record(
        machine=machine, actor=mc_room.keeper, characteristics="Nouveau jeu", rtp_percent=Decimal("94.00")
    )
    machine.refresh_from_db()
    assert sheet.version == 2 and machine.rtp_percent == Decimal("94.00")
    assert list(machine.sheets.values_list("version", flat=True)) == [2, 1]
    with pytest.raises(RuleViolation) as exc:
        services.technical_sheet_record(machine=machine, actor=mc_room.keeper, characteristics="x")
    assert exc.value.code == "SLOT-07"


def test_slot_09_hopper_without_lid_not_put_in_service(mc_room):
    machine = mc_room.register_machine(hopper=True)
    socle = mc_room.socle()
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=socle, actor=mc_room.keeper, reason="commissioning"
        )
    assert exc.value.code == "SLOT-09"
    services.hopper_lid_confirm(machine=machine, actor=mc_room["mecanicien"])
    services.machine_move(
        machine=machine, to_place="floor", to_socle=socle, actor=mc_room.keeper, reason="commissioning"
    )
    machine.refresh_from_db()
    assert machine.status == "in_service" and machine.socle == socle


def test_slot_12_banknotes_need_bill_box_and_meter(mc_room):
    machine = mc_room.register_machine(bill_box="")
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=mc_room.socle(), actor=mc_room.keeper, reason="commissioning"
        )
    assert exc.value.code == "SLOT-12"


def test_slot_13_tito_needs_ticket_meters(mc_room):
    data = mc_room.machine_input(media=("tito",))
    data = services.MachineInput(**{**vars(data), "meters": [m for m in data.meters if m.code != "ticket_out"]})
    machine = services.machine_register(establishment=mc_room.est, data=data, actor=mc_room.keeper, photo=photo())
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=mc_room.socle(), actor=mc_room.keeper, reason="commissioning"
        )
    assert exc.value.code == "SLOT-13"


def test_slot_05_every_station_has_the_four_meters(mc_room):
    data = mc_room.machine_input(stations=2)
    data = services.MachineInput(
        **{
            **vars(data),
            "meters": [services.MeterSpec("in", 8, station=1), *[m for m in data.meters if m.code != "in"]],
        }
    )
    machine = services.machine_register(establishment=mc_room.est, data=data, actor=mc_room.keeper, photo=photo())
    assert Meter.objects.filter(machine=machine, code="out").count() == 2
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=mc_room.socle(), actor=mc_room.keeper, reason="commissioning"
        )
    assert exc.value.code == "SLOT-05"


def test_slot_06_other_meters_declared_and_logged(mc_room):
    machine = mc_room.on_floor()
    meters = services.meters_declare(
        machine=machine, specs=[services.MeterSpec("other", 8, label="games")], actor=mc_room.keeper
    )
    assert meters[0].key == "other:games"


def test_slot_30_fr_type_a_meter_of_six_digits_refused(fr_room):
    machine = fr_room.register_machine(digits=6)
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=fr_room.socle(), actor=fr_room.keeper, reason="commissioning"
        )
    assert exc.value.code == "SLOT-30"


def test_slot_30_fr_type_a_needs_electromechanical_meters(fr_room):
    data = fr_room.machine_input()
    data = services.MachineInput(
        **{**vars(data), "meters": [m for m in data.meters if not (m.code == "out" and m.nature != "electronic")]}
    )
    machine = services.machine_register(establishment=fr_room.est, data=data, actor=fr_room.keeper)
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=fr_room.socle(), actor=fr_room.keeper, reason="commissioning"
        )
    assert exc.value.code == "SLOT-30"


def test_slot_31_fr_tito_needs_approved_system(fr_room):
    machine = fr_room.register_machine(media=("tito", "banknotes"), approved_system="")
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=fr_room.socle(), actor=fr_room.keeper, reason="commissioning"
        )
    assert exc.value.code == "SLOT-31"
    ok = fr_room.on_floor(media=("tito", "banknotes"))
    assert ok.status == "in_service" and ok.cashless


def test_slot_25_insertion_limit_above_payment_limit_refused(fr_room):
    with pytest.raises(RuleViolation) as exc:
        fr_room.register_machine(insertion_limit=Decimal("500"), payment_limit=Decimal("300"))
    assert exc.value.code == "SLOT-25"
    fr_room.est.options = {"SET-19": "1000"}
    fr_room.est.save()
    with pytest.raises(RuleViolation) as exc:
        fr_room.register_machine(insertion_limit=Decimal("500"), payment_limit=Decimal("1500"))
    assert exc.value.code == "SLOT-25"


def test_slot_52_reg_39_fr_fiche_34_opened_and_written_by_the_direction(fr_room):
    machine = fr_room.on_floor()
    _told(fr_room, machine)
    services.machine_move(machine=machine, to_place="store", reason="planned", actor=fr_room["comite"])
    fiche = Register.objects.get(kind="slot_fiche_34", qualifier=machine.casino_number)
    opening = fiche.entries.get(seq=1)
    assert opening.kind == "opening" and opening.role == "directeur_responsable"
    records = fiche.entries.filter(kind="record")
    assert [e.payload["event"] for e in records] == [
        "Inscription à l'inventaire",
        "Fiche technique",
        "Mise en place",
        "Déplacement prévu",
    ]
    assert {e.role for e in records} <= {"directeur_responsable", "comite"}  # signed by the Direction (REG-39)


def test_slot_52_fr_casino_numbers_required(fr_room):
    with pytest.raises(RuleViolation) as exc:
        fr_room.register_machine(location_number="")
    assert exc.value.code == "SLOT-52"


def _told(org, machine, reference="Mail 12"):
    """The police told of the machine's next move, at the time the system records."""
    return services.machine_move_notify(
        machine=machine, service="Commissariat central", channel="email", reference=reference, actor=org["comite"]
    )


def _lead(machine, minutes):
    est = machine.establishment
    est.options = {"SLOT-33": {"notice_lead_minutes": minutes}}
    est.save()


def test_slot_33_planned_move_refused_without_the_recorded_police_notice(fr_room):
    machine = fr_room.on_floor()
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(machine=machine, to_place="store", actor=fr_room.keeper, reason="planned")
    assert exc.value.code == "SLOT-33" and "Enregistrez d'abord" in str(exc.value)
    machine.refresh_from_db()
    assert machine.place == "floor"


def test_slot_33_police_notice_timed_by_the_system_and_the_lead_counted_from_it(fr_room):
    machine = fr_room.on_floor()
    before = timezone.now()
    notice = _told(fr_room, machine)
    assert before <= notice.notified_at <= timezone.now()  # the system's time, nothing typed
    line = Entry.objects.filter(register__kind="informations_autorites").order_by("-pk").first()
    assert line.payload["requirement"] == "SLOT-33" and line.payload["reference"] == "Mail 12"
    assert "Commissariat central" in line.payload["recipient"]
    with pytest.raises(RuleViolation) as again:
        _told(fr_room, machine, reference="Mail 13")  # one notice for the next move
    assert "déjà informée" in str(again.value)
    _lead(machine, 180)  # the establishment's notice lead: 3 hours
    planned = {"machine": machine, "to_place": "store", "actor": fr_room.keeper, "reason": "planned"}
    with pytest.raises(RuleViolation) as early:
        services.machine_move(**planned)
    ready = fr_room.est.localtime(notice.notified_at + datetime.timedelta(minutes=180))
    assert early.value.code == "SLOT-33" and f"{ready:%d/%m/%Y %H:%M}" in str(early.value)
    _lead(machine, 0)
    move = services.machine_move(**planned)
    machine.refresh_from_db()
    assert machine.socle is None and machine.status == "out_of_service"
    assert move.police_notice == notice and move.police_reference == "Mail 12"
    assert "police informée le" in move.entry.payload["detail"] and "Mail 12" in move.entry.payload["detail"]


def test_slot_33_back_dated_move_refused_before_the_notice(fr_room):
    machine = fr_room.on_floor()
    notice = _told(fr_room, machine)
    _lead(machine, 0)
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine,
            to_place="store",
            actor=fr_room.keeper,
            reason="planned",
            moved_at=notice.notified_at - datetime.timedelta(hours=1),
        )
    assert exc.value.code == "SLOT-33" and "possible à partir du" in str(exc.value)
    machine.refresh_from_db()
    assert machine.place == "floor" and not MachineMove.objects.filter(police_notice=notice).exists()


def test_slot_33_a_police_notice_counts_for_one_move_only(fr_room):
    machine = fr_room.on_floor()
    socle = machine.socle
    notice = _told(fr_room, machine)
    _lead(machine, 0)
    planned = {"machine": machine, "to_place": "store", "actor": fr_room.keeper, "reason": "planned"}
    assert services.machine_move(**planned).police_notice == notice
    services.machine_move(
        machine=machine, to_place="floor", to_socle=socle, actor=fr_room.keeper, reason="commissioning"
    )
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(**planned)  # the notice is used up by the first move
    assert exc.value.code == "SLOT-33" and "Enregistrez d'abord" in str(exc.value)
    assert MachineMove.objects.filter(police_notice=notice).count() == 1


def test_slot_33_breakdown_move_needs_its_cause(fr_room):
    machine = fr_room.on_floor()
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(machine=machine, to_place="workshop", actor=fr_room.keeper, reason="breakdown")
    assert exc.value.code == "SLOT-33"
    move = services.machine_move(
        machine=machine,
        to_place="workshop",
        actor=fr_room["comite"],
        reason="breakdown",
        observations="Écran noir",
        signers=[fr_room["mecanicien"]],
    )
    assert move.entry.register.kind == "slot_controle_technique"


def test_slot_34_return_without_removal_refused(fr_room):
    machine = fr_room.register_machine()
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=fr_room.socle(), actor=fr_room.keeper, reason="repair_return"
        )
    assert exc.value.code == "SLOT-34"


def test_slot_04_move_snapshots_the_meters(mc_room):
    machine = mc_room.on_floor()
    mc_room.read(machine, 500)
    move = services.machine_move(machine=machine, to_place="workshop", actor=mc_room.keeper, reason="breakdown")
    assert move.meters and set(move.meters.values()) == {500}
    assert MachineMove.objects.filter(machine=machine).count() == 2


def test_socle_holds_one_machine(mc_room):
    socle = mc_room.socle()
    first = mc_room.register_machine()
    services.machine_move(machine=first, to_place="floor", to_socle=socle, actor=mc_room.keeper, reason="commissioning")
    second = mc_room.register_machine()
    with pytest.raises(Exception, match="porte déjà"):
        services.machine_move(
            machine=second, to_place="floor", to_socle=socle, actor=mc_room.keeper, reason="commissioning"
        )


def test_slot_08_copy_to_secretariat_general_and_outdated_flag(mc_room):
    from ledgers.slots.selectors import files_copy_overdue

    mc_room.register_machine()
    later = timezone.localdate() + datetime.timedelta(days=31)
    assert files_copy_overdue(mc_room.est, later) == 31
    with pytest.raises(RuleViolation) as exc:
        services.files_copy_deliver(establishment=mc_room.est, actor=mc_room.keeper, received_by=mc_room["mecanicien"])
    assert exc.value.code == "SLOT-08"
    register = mc_room.registers["slot_fichiers"]
    register.refresh_from_db()
    copy = services.files_copy_deliver(
        establishment=mc_room.est, actor=mc_room.keeper, received_by=mc_room["secretariat_general"]
    )
    assert (copy.covers_seq, copy.covers_hash) == (register.head_seq, register.head_hash)
    assert files_copy_overdue(mc_room.est, timezone.localdate() + datetime.timedelta(days=30)) is None


def test_slot_34_fr_repair_moves_countersigned(fr_room):
    machine = fr_room.on_floor()
    kwargs = {"machine": machine, "to_place": "workshop", "reason": "breakdown", "observations": "Lecteur HS"}
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(actor=fr_room.keeper, **kwargs)
    assert exc.value.code == "SLOT-34"
    with pytest.raises(RuleViolation):
        services.machine_move(actor=fr_room["comite"], signers=[fr_room["superviseur"]], **kwargs)
    move = services.machine_move(
        actor=fr_room["comite"], signers=[fr_room["mecanicien"], fr_room["technicien_sfm"]], **kwargs
    )
    signed = move.entry.payload["countersigned"]
    assert len(signed) == 3 and "Membre du comité de direction" in signed[0] and "SFM" in signed[2]
    back = services.machine_move(
        machine=machine,
        to_place="floor",
        to_socle=fr_room.socle(),
        reason="repair_return",
        actor=fr_room["comite"],
        signers=[fr_room["employe_jeux"]],
    )
    assert back.entry.payload["countersigned"]  # ≤ 75 machines: the employee in charge may sign


def test_slot_34_amb_55_the_comite_member_of_the_days_slot_staffing_countersigns(fr_room):
    """ "Le membre du comité spécialisé" (art. 68-19): the comité member the day's staffing assigns to
    the control of the slot games (art. 68-27), not any comité member."""
    machine = fr_room.on_floor()
    fr_room.staff()
    other = make_user(fr_room.est, "comite", username="comite-bis", first_name="Paule", last_name="Autre")
    kwargs = {"machine": machine, "to_place": "workshop", "reason": "breakdown", "observations": "Lecteur HS"}
    with pytest.raises(RuleViolation) as exc:
        services.machine_move(actor=other, signers=[fr_room["mecanicien"]], **kwargs)
    assert exc.value.code == "SLOT-34" and fr_room["comite"].get_full_name() in str(exc.value)
    machine.refresh_from_db()
    assert machine.place == "floor"
    move = services.machine_move(actor=fr_room["mecanicien"], signers=[fr_room["comite"]], **kwargs)
    assert fr_room["comite"].get_full_name() in " ".join(move.entry.payload["countersigned"])


def test_slot_34_fr_replacement_by_a_reserve_machine_names_both_machines_countersigned(fr_room):
    machine, reserve = fr_room.on_floor(), fr_room.register_machine()
    socle = machine.socle
    kwargs = {
        "machine": machine,
        "to_place": "workshop",
        "reason": "breakdown",
        "observations": "Écran HS",
        "replaced_by": reserve,
    }
    with pytest.raises(RuleViolation) as exc:  # the reserve machine's line is countersigned too
        services.machine_move(actor=fr_room["comite"], **kwargs)
    assert exc.value.code == "SLOT-34"
    with pytest.raises(ValidationError):  # a replacement is recorded from the machine taken off the floor
        services.machine_move(
            machine=reserve,
            to_place="floor",
            to_socle=fr_room.socle(),
            reason="replacement",
            actor=fr_room["comite"],
            signers=[fr_room["mecanicien"]],
        )
    out = services.machine_move(actor=fr_room["comite"], signers=[fr_room["mecanicien"]], **kwargs)
    reserve.refresh_from_db()
    into = reserve.moves.get()
    assert reserve.socle == socle and reserve.status == "in_service" and into.reason == "replacement"
    assert out.entry.register.kind == into.entry.register.kind == "slot_controle_technique"
    assert out.entry.payload["countersigned"] and into.entry.payload["countersigned"]
    assert f"remplacée par {reserve.number} (n° fabricant {reserve.maker_number})" in out.entry.payload["detail"]
    assert f"en remplacement de {machine.number} (n° fabricant {machine.maker_number})" in into.entry.payload["detail"]


def test_slot_51_reg_38_moves_interventions_resets_and_sfm_visits_go_day_by_day_into_modele_26(fr_room):
    """Each act of art. 68-29 writes its modèle 26 line in its own transaction; with no open
    modèle 26 (coté et paraphé) the act itself is refused and nothing of it is kept."""
    from ledgers.keys.services import key_register
    from ledgers.registers.services import register_close

    machine = fr_room.on_floor(media=("coins",))
    sheet = services.intervention_open(machine=machine, actor=fr_room["mecanicien"], reason="Bourrage monnayeur")
    key_register(
        establishment=fr_room.est,
        actor=fr_room.keeper,
        code="RK-51",
        lock_type="reset",
        opens="Réinitialisation",
        asset_ref=machine.number,
        custodian=fr_room["comite"],
    )
    zeros = {m.key_at: 0 for m in machine.meters.all()}
    clear = services.ram_clear_record(
        machine=machine,
        actor=fr_room["comite"],
        witness=fr_room["mecanicien"],
        reset_key="RK-51",
        reason="Panne mémoire",
        before=zeros,
        after=zeros,
    )
    visit = services.sfm_visit_record(
        establishment=fr_room.est, machines=[machine], actor=fr_room["technicien_sfm"], remarks="RAS", limits={}
    )
    register = fr_room.registers["slot_controle_technique"]
    lines = list(register.entries.filter(kind="record").order_by("seq"))[-4:]  # after approvals, inventory, socle
    assert [e.payload["event"] for e in lines] == [
        "Mise en place",
        "Ouverture de la machine",
        "Remise à zéro de la mémoire",
        "Visite de révision de la SFM",
    ]
    assert (MachineMove.objects.get(machine=machine).entry, clear.entry, visit.entry) == (lines[0], lines[2], lines[3])
    assert str(sheet.pk) in lines[1].payload["detail"]

    register_close(register=register, actor=fr_room.keeper)
    with pytest.raises(RuleViolation):
        services.intervention_open(machine=machine, actor=fr_room["mecanicien"], reason="Porte")
    assert machine.interventions.count() == 1
