"""Demo slot rooms: at Monte-Carlo and at Nice, twelve machines on their socles and a month of
activity through the services: a relève every day with its meters and counts, interventions (MC:
the day's sheets handed over in the evening envelope), a jackpot above the identity threshold
(MC) or above the automatic payment limit (FR), an orphan, a count above the variance threshold,
a door opening the monitoring system saw with no intervention, the change points and, at Nice,
the SFM's revision visit, the counterfeit box, a progressive jackpot and TITO tickets, and the slot
room's staffing of each day (SLOT-50), before the séances the later seeders open.

Idempotent: an establishment that already has slot machines is left as it is.
"""

import datetime
import io
from decimal import Decimal
from typing import TextIO

from django.contrib.auth.models import AbstractBaseUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext
from PIL import Image

from ledgers.authority import displays
from ledgers.authority import services as authority_services
from ledgers.authority.registers import DISPLAYS
from ledgers.core.demo import demo_houses, demo_user
from ledgers.core.models import Establishment, Room
from ledgers.core.roles import Role
from ledgers.core.services import room_create
from ledgers.equipment.volumes import open_volume
from ledgers.keys import demo as keys_demo
from ledgers.registers.models import Register
from ledgers.registers.services import register_create, register_open

from . import selectors, services
from .models import Intervention, Machine, Meter, Releve, StaffApproval
from .rules import required_meters
from .services import cashdesk, progressives, staffing, unclaimed

DAYS = 30
MACHINES = 12
STAFFED_AHEAD = 7  # FR: the slot-room staffing is planned a week ahead (SLOT-50)
# (kind, role that creates it, role that cotes and paraphs it, paraphe)
REGISTERS = {
    "MC": [
        ("slot_fichiers", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, "J.-P.R."),
        ("slot_interventions", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, "J.-P.R."),
        ("slot_releves", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, "J.-P.R."),
        ("slot_jackpots", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, "J.-P.R."),
        ("slot_complements", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, "J.-P.R."),
        ("incidents", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
        ("slot_caisse", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, "J.-P.R."),
        ("slot_comptees", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, "J.-P.R."),
    ],
    "FR": [
        ("slot_controle_technique", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("slot_releves", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("slot_jackpots", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("incidents", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("informations_autorites", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("slot_caisse", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("slot_comptees", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("slot_jackpots_progressifs", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("slot_jpm_28s", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("slot_rapprochement_31", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
    ],
}
KEEPER = {"MC": Role.DIRECTEUR_EXPLOITATION, "FR": Role.DIRECTEUR_RESPONSABLE}
GAMES = ["Vidéo rouleaux 5×3", "Vidéo poker", "Rouleaux mécaniques", "Multi-jeux"]


def _registers(est: Establishment) -> None:
    for kind, creator, authority, paraphe in REGISTERS[est.jurisdiction]:
        register = (
            Register.objects.filter(establishment=est, kind=kind, qualifier="")
            .exclude(status=Register.Status.CLOSED)
            .order_by("number")
            .first()
        )
        if register is None:
            register = register_create(establishment=est, kind=kind, actor=demo_user(est, creator))
        if register.status == Register.Status.AWAITING_OPENING:
            register_open(register=register, actor=demo_user(est, authority), paraphe=paraphe)


def _photo(number: str) -> SimpleUploadedFile:
    """The machine's photograph, named after its number as a keeper's camera roll would be sorted
    (one file name per machine: the storage does not add a random suffix to tell them apart)."""
    buffer = io.BytesIO()
    Image.new("RGB", (160, 240), (128, 20, 40)).save(buffer, "PNG")
    return SimpleUploadedFile(f"{number}.png", buffer.getvalue(), content_type="image/png")


def _number(jur: str, n: int) -> str:
    """The demo machine's number: SBM number in Monaco, casino number in France."""
    return f"SBM-{n:03d}" if jur == "MC" else f"{n:03d}"


def _machines(est: Establishment, room: Room, at: datetime.datetime) -> list[Machine]:
    jur = est.jurisdiction
    keeper = demo_user(est, KEEPER[jur])
    # The keys of their locks first: a machine goes in service only with them registered (KEY-09, KEY-12).
    keys_demo.register_keys(
        est,
        machines=",".join(_number(jur, n) for n in range(1, MACHINES + 1)),
        socles=",".join(f"{n:03d}" for n in range(1, MACHINES + 1)),
    )
    machines = []
    for n in range(1, MACHINES + 1):
        media = ["coins", "banknotes"] if n % 3 else ["banknotes", "tito"]
        ids = (
            {"sbm_number": _number(jur, n)}
            if jur == "MC"
            else {"casino_number": _number(jur, n), "maker_number": f"IGT-{7000 + n}", "location_number": f"A{n:02d}"}
        )
        data = services.MachineInput(
            machine_type=GAMES[n % len(GAMES)],
            technology="electronic",
            maker="IGT",
            maker_serial=f"{est.code}-{n:05d}",
            media=media,
            stations=1,
            rate_date=at.date(),
            rtp_percent=Decimal("92.00") + n % 5,
            credit_value=Decimal("0.10"),
            bill_box=f"BB-{n:03d}",
            approved_system="SAS-AGREE-2024" if "tito" in media else "",
            insertion_limit=Decimal("100"),
            payment_limit=Decimal("1500"),
            characteristics=f"{GAMES[n % len(GAMES)]}, mise de 0,10 € à 5 €",
            meters=[services.MeterSpec(code, 8, nature) for code, nature in required_meters(jur, media)],
            **ids,
        )
        machine = services.machine_register(
            establishment=est, data=data, actor=keeper, photo=_photo(_number(jur, n)) if jur == "MC" else None
        )
        socle = services.socle_create(
            establishment=est, room=room, number=f"{n:03d}", actor=keeper, position=f"Allée {1 + (n - 1) // 4}"
        )
        if jur == "FR":  # the art. 68-11 devices and displays first (SLOT-29, REG-23)
            post_machine_displays(machine)
        services.machine_move(
            machine=machine, to_place="floor", to_socle=socle, actor=keeper, reason="commissioning", moved_at=at
        )
        machines.append(machine)
    return machines


def post_machine_displays(machine: Machine) -> None:
    """The art. 68-11 devices and displays of a French machine, checked by the comité member."""
    est = machine.establishment
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE)
    open_volume(est, DISPLAYS.code, "", director=director, authority=director, paraphe="D.R.")
    checker = demo_user(est, Role.COMITE)
    posted = displays.posted_items(machine=machine)
    for required in displays.missing(displays.machine_items(machine), posted):
        authority_services.display_post(
            establishment=est,
            actor=checker,
            item=required.item,
            machine=machine,
            posted_on=est.localtime(timezone.now()).date(),
        )


def _rows(machines: list[Machine], meters: dict[int, list[Meter]], day: int) -> list[services.ReadingRow]:
    rows = []
    for n, machine in enumerate(machines, start=1):
        for meter in meters[machine.pk]:
            step = {
                "in": 9000,
                "out": 8200,
                "cash_box": 2500,
                "bills": 4000,
                "ticket_in": 1500,
                "ticket_out": 1200,
            }.get(meter.code, 100) + n * 37
            if meter.code == "jackpots":  # no hand-paid jackpot: modèle 31 finds no unclaimed win (SLOT-43)
                step = 0
            rows.append(services.ReadingRow(machine.number, meter.station, meter.key, 100_000 + day * step))
    return rows


def _month(est: Establishment, room: Room, machines: list[Machine], start: datetime.datetime) -> None:
    jur = est.jurisdiction
    supervisor, mechanic = demo_user(est, Role.SUPERVISEUR), demo_user(est, Role.MECANICIEN)
    counter = demo_user(est, Role.SUPERVISEUR)
    meters: dict[int, list[Meter]] = {machine.pk: [] for machine in machines}  # read once for the month's relèves
    for meter in Meter.objects.filter(machine__in=machines):
        meters[meter.machine_id].append(meter)
    for day in range(DAYS + 1):
        at = start + datetime.timedelta(days=day, hours=9)
        releve = services.releve_open(
            establishment=est, room=room, actor=supervisor, during_operation=False, started_at=at
        )
        services.releve_readings_import(releve=releve, rows=_rows(machines, meters, day), actor=supervisor, read_at=at)
        if day:
            for n, machine in enumerate(machines, start=1):
                services.box_exchange(
                    releve=releve,
                    machine=machine,
                    box="bill",
                    removed=machine.bill_box,
                    replaced_by=f"BB-{n:03d}-{day:02d}",
                    actor=supervisor,
                )
                machine.refresh_from_db()
                amount = selectors.expected_drop(releve, machine)
                short = Decimal("45.00") if (day, n) == (DAYS - 3, 4) else Decimal("0")  # the variance flag
                services.drop_count_record(releve=releve, machine=machine, counted=amount - short, actor=counter)
        if jur == "FR":  # the état de rapprochement modèle 31 before the closing (SLOT-43)
            unclaimed.reconciliation_draw_up(
                releve=releve, actor=demo_user(est, Role.CAISSIER), comite=demo_user(est, Role.COMITE)
            )
        services.releve_close(releve=releve, actor=supervisor)
        if day % 4 == 2:
            machine = machines[day % len(machines)]
            sheet = services.intervention_open(
                machine=machine,
                actor=mechanic,
                reason="Bourrage du lecteur de billets",
                stopped_at=at + datetime.timedelta(hours=5),
            )
            services.intervention_close(
                intervention=sheet,
                actor=mechanic,
                work_done="Lecteur nettoyé et testé",
                ended_at=at + datetime.timedelta(hours=5, minutes=25),
            )
            if jur == "MC":
                services.transmittal_hand_over(
                    establishment=est,
                    date=est.localtime(sheet.stopped_at).date(),
                    actor=supervisor,
                    received_by=demo_user(est, Role.DIRECTEUR_EXPLOITATION),
                )
    # The monitoring system's export: the last sheet's door opening, explained, and one at night
    # that no intervention explains, flagged (SLOT-14 / SLOT-53).
    night = start + datetime.timedelta(days=DAYS - 1, hours=27)
    services.monitoring_events_import(
        establishment=est,
        actor=supervisor,
        rows=[
            services.EventRow(sheet.machine.number, "door_open", sheet.stopped_at + datetime.timedelta(minutes=2)),
            services.EventRow(machines[7].number, "door_open", night),
        ],
    )


def _payments(est: Establishment, machines: list[Machine], start: datetime.datetime) -> None:
    jur = est.jurisdiction
    if jur == "MC":
        services.jackpot_threshold_set(
            establishment=est,
            amount=Decimal("2000"),
            effective_from=start,
            actor=demo_user(est, Role.DIRECTEUR_EXPLOITATION),
        )
        services.jackpot_pay(
            machine=machines[2],
            amount=Decimal("4850"),
            method="cheque",
            combination="5 × Couronne",
            id_type="Passeport",
            id_number="FR19AB12345",
            pre_check="Machine contrôlée par le mécanicien",
            actor=demo_user(est, Role.SUPERVISEUR),
        )
    else:
        services.jackpot_pay(
            machine=machines[2],
            amount=Decimal("3200"),
            method="cash",
            combination="7-7-7",
            actor=demo_user(est, Role.CAISSIER),
            controller=demo_user(est, Role.COMITE),
        )
    services.orphan_record(
        establishment=est,
        kind="credits",
        amount=Decimal("3.40"),
        machine=machines[5],
        disposal="Crédits relevés et versés à la caisse",
        actor=demo_user(est, Role.SUPERVISEUR),
    )


def _change_points(est: Establishment) -> None:
    """An itinerant changer with its fixed sum (SLOT-21, SLOT-48), and at Monte-Carlo the slot desk;
    at Nice a foreign coin found at a count, in the counterfeit box (SLOT-45). (A French slot desk
    needs its cashier named at every séance, which the other demos' séances do not do.)"""
    keeper = demo_user(est, KEEPER[est.jurisdiction])
    if est.jurisdiction == "MC":
        cashdesk.change_point_create(
            establishment=est,
            kind="desk",
            name="Caisse des machines",
            cash=Decimal("20000"),
            chips=Decimal("10000"),
            actor=keeper,
        )
    cashdesk.change_point_create(
        establishment=est, kind="itinerant", name="Changeur rangées A-B", fixed_sum=Decimal("2000"), actor=keeper
    )
    if est.jurisdiction == "FR":
        cashdesk.counterfeit_deposit(
            establishment=est,
            kind="foreign",
            description="Pièce de 1 franc suisse",
            quantity=1,
            found_during="count",
            found_by=demo_user(est, Role.EMPLOYE_JEUX),
            actor=demo_user(est, Role.CAISSIER),
        )


def _progressives(est: Establishment, machines: list[Machine]) -> None:
    """FR: a local progressive on three machines with today's displayed amount (SLOT-36), and TITO
    tickets from the approved system, one redeemed at the cash desk (SLOT-44)."""
    progressive = progressives.progressive_create(
        establishment=est,
        code="PJ-1",
        name="Jackpot progressif de l'allée 1",
        start_amount=Decimal("5000"),
        machines=machines[:3],
        actor=demo_user(est, Role.COMITE),
    )
    cashier = demo_user(est, Role.CAISSIER)
    progressives.progressive_reading_record(progressive=progressive, displayed=Decimal("5312.40"), actor=cashier)
    tito = next(m for m in machines if "tito" in m.media)
    now = timezone.now()
    unclaimed.tickets_import(
        establishment=est,
        actor=cashier,
        rows=[
            unclaimed.TicketRow(
                f"TK-{n:04d}", now - datetime.timedelta(days=n), Decimal(12 * n), tito.number if n % 2 else ""
            )
            for n in range(1, 5)
        ],
    )
    unclaimed.ticket_redeem(establishment=est, number="TK-0001", actor=cashier)


def _approvals(est: Establishment, since: datetime.date) -> None:
    """The ministerial approvals of the slot staff (SLOT-50: the comité member and the cashier of
    the room too) and of the SFM technician (SLOT-53), each once."""
    keeper = demo_user(est, KEEPER[est.jurisdiction])
    staff = (
        (Role.MECANICIEN, "slot_staff"),
        (Role.EMPLOYE_JEUX, "slot_staff"),
        (Role.TECHNICIEN_SFM, "sfm"),
        (Role.COMITE, "slot_staff"),
        (Role.CAISSIER, "slot_staff"),
    )
    for role, kind in staff:
        user = demo_user(est, role)
        if StaffApproval.objects.filter(establishment=est, user=user, kind=kind).exists():
            continue
        services.staff_approval_record(
            establishment=est,
            user=user,
            kind=kind,
            reference=f"AGR-{est.code.upper()}-{role[:4].upper()}",
            issuer="Ministère de l'intérieur",
            valid_from=since,
            actor=keeper,
        )


def staffing_people(est: Establishment) -> dict[str, AbstractBaseUser]:
    """FR: the slot room's staff of every demo day (SLOT-50), named by the director, as
    ``staffing_record`` takes them."""
    return {
        "comite": demo_user(est, Role.COMITE),
        "cashier": demo_user(est, Role.CAISSIER),
        "maintainer": demo_user(est, Role.MECANICIEN),
        "actor": demo_user(est, KEEPER["FR"]),
    }


def _staffing(est: Establishment, since: datetime.date) -> int:
    """FR: the slot room's staffing of every day of the demo month and of the coming week (SLOT-50),
    so that the séances the other seeders open, on this run or a later one, find it."""
    _approvals(est, since - datetime.timedelta(days=365))
    today = timezone.localdate()
    people = staffing_people(est)
    recorded = 0
    for day in range((today - since).days + STAFFED_AHEAD + 1):
        date = since + datetime.timedelta(days=day)
        if staffing.staffing_of(est, date) is None:
            staffing.staffing_record(establishment=est, date=date, **people)
            recorded += 1
    return recorded


def _open_for_keys(est: Establishment) -> None:
    """Today's relève and an intervention left open, for the keys the keys seeder hands out for them
    (the month's relèves and interventions above are closed)."""
    machine = Machine.objects.filter(establishment=est, status=Machine.Status.IN_SERVICE).first()
    if machine is None:
        return
    if not Releve.objects.filter(establishment=est, status=Releve.Status.OPEN).exists():
        services.releve_open(
            establishment=est, room=machine.socle.room, during_operation=False, actor=demo_user(est, Role.SUPERVISEUR)
        )
    if not Intervention.objects.filter(machine__establishment=est, status=Intervention.Status.OPEN).exists():
        services.intervention_open(
            machine=machine,
            actor=demo_user(est, Role.MECANICIEN),
            reason="Porte principale : contrôle du lecteur de billets",
        )


def seed(stdout: TextIO) -> None:
    for code in demo_houses():
        est = Establishment.objects.get(code=code)
        if est.jurisdiction == "FR":
            _registers(est)
            staffed = _staffing(est, timezone.localdate() - datetime.timedelta(days=DAYS + 1))
            text = ngettext(
                "%(n)s journée de personnel de la salle des machines inscrite",
                "%(n)s journées de personnel de la salle des machines inscrites",
                staffed,
            )
            stdout.write(f"{est.name} : {text % {'n': staffed}}")
        if Machine.objects.filter(establishment=est).exists():
            _open_for_keys(est)
            continue
        with transaction.atomic():
            _registers(est)
            room = Room.objects.filter(establishment=est, code="machines").first() or room_create(
                establishment=est, code="machines", name="Salle des machines à sous", actor=None
            )
            start = timezone.now() - datetime.timedelta(days=DAYS + 1)
            machines = _machines(est, room, start)
            _month(est, room, machines, start)
            _payments(est, machines, start)
            _change_points(est)
            if est.jurisdiction == "FR":
                _progressives(est, machines)
                acceptors = [m for m in machines if "tito" in m.media or "banknotes" in m.media]
                services.sfm_visit_record(
                    establishment=est,
                    machines=machines,
                    actor=demo_user(est, Role.TECHNICIEN_SFM),
                    remarks="Limites conformes, compteurs vérifiés",
                    limits={m.number: {"insertion_limit": "100", "payment_limit": "1500"} for m in acceptors},
                )
        stdout.write(
            f"{est.name} : {MACHINES} machines, {DAYS} relèves, "
            f"{Meter.objects.filter(machine__establishment=est).count()} compteurs"
        )
        _open_for_keys(est)
