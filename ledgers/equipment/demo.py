"""Demo sabots, shufflers and wheels for the two demo casinos, and a month of their history:
allocations and returns, shuffler séances, pre-séance checks, lids locked, one shuffler
malfunction, one failed check per casino, a withdrawal and a destruction, an authority's
verification; in Monaco, the ordre de roulement of each roulette and the launchers' turns, with a
launcher outside the order, a croupier kept launching and a turn before the order was set.
Everything goes through the services; running it again adds nothing.

The history uses the afternoon séances (``PERIOD``), so that it does not meet the séances other
domains seed; a day whose séance already exists is left as it is.
"""

import datetime
from collections.abc import Callable
from functools import cached_property
from typing import TextIO

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_account, demo_houses, demo_user
from ledgers.core.models import Establishment, GamingTable, Location, Seance, SeancePeriod, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import (
    membership_grant,
    seance_close,
    seance_open,
    table_session_open,
    table_session_prepare,
)
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession
from ledgers.incidents.models import Incident, IncidentSubject
from ledgers.incidents.services import incident_close, incident_decide, incident_notify

from . import services
from .domains import SHOES
from .models import (
    ApprovedModel,
    AssetStatus,
    MachineType,
    Shoe,
    Shuffler,
    ShufflerUse,
    Wheel,
    WheelCheck,
    WheelKind,
)
from .specs import ROTATION_GAMES, TEXT_SPECS
from .volumes import open_volume, paraphing_roles, required_volumes

# The French tables' rules displays (REG-23) before they open; the slot room's staffing of each day
# (SLOT-50) before any séance opens where machines are in service, on a re-seed too.
SEED_AFTER = ("ledgers.authority", "ledgers.slots")

DAYS = 30
PERIOD = SeancePeriod.APRES_MIDI

# Per casino: the cast (roles), the sabots and where they are kept, the shufflers and the wheels.
PLANS = {
    DEMO_MC: {
        "director": Role.DIRECTEUR_JEUX,
        "keeper": Role.CARTIER,
        "returner": Role.INSPECTEUR,
        "authority": Role.SCJ,
        "paraphe": "C.O.",
        "shoe_model": ("Cartamundi", "Sabot baccara 8 jeux", "", ""),
        "shoes": {"depot-ameriques": ["S-01", "S-02", "S-03", "S-04", "S-05"], "depot-principal": ["S-06", "S-07"]},
        "shoe_tables": {"PB1": ["S-01", "S-02", "S-03", "S-04"]},
        "shufflers": [("M-01", MachineType.CONTINUOUS, "BJ1", False), ("M-02", MachineType.BATCH, "PB1", False)],
        "shuffler_model": ("Shuffle Master", "MD3", "AM 2011-214", "Ministre d'État"),
        "wheels": [("C-01", WheelKind.ROULETTE_EUROPEENNE, "R1"), ("C-02", WheelKind.ROULETTE_EUROPEENNE, "R2")],
        "checks": ("R1", "R2"),
        "check_cast": (Role.ENTRETIEN, Role.INSPECTEUR),
        "failed_check": (4, "R2", "Obstacle desserré au voisinage du 17"),
        "malfunction": (6, "M-01"),
        "withdrawn": (2, "S-05"),
        "verification": 8,
        "destroyed": 10,
        # The roulette croupiers besides the demo croupier (username, first name, last name), and
        # the days whose launch log the WHEEL-09 checks flag.
        "croupiers": [
            ("croupier2", "Marco", "Ferrari"),
            ("croupier3", "Élodie", "Rinaldi"),
            ("croupier4", "Paul", "Auda"),
        ],
        "launch_flags": {"kept_on": (3, "R1"), "outsider": (6, "R2"), "no_roster_yet": (9, "R1")},
    },
    DEMO_FR: {
        "director": Role.DIRECTEUR_RESPONSABLE,
        "keeper": Role.EMPLOYE_RESPONSABLE,
        "returner": Role.EMPLOYE_RESPONSABLE,
        "authority": Role.POLICE,
        "paraphe": "C.V.",
        "shoe_model": (
            "Cartamundi",
            "Sabot 6 jeux modèle 2019",
            "Arrêté du 12 mars 2019, NOR INTA1907123A",
            "Ministre de l'intérieur",
        ),
        "shoes": {"armoire-cartes": ["1", "2", "3", "4", "5", "6", "7", "8"]},
        "shoe_tables": {"PB1": ["1", "2", "3"], "BJ1": ["4", "5"], "CF1": ["6", "7"]},
        "shufflers": [("M-01", MachineType.CONTINUOUS, "BJ2", True), ("M-02", MachineType.BATCH, "UTH1", False)],
        "shuffler_model": ("Shuffle Master", "Deck Mate 2", "Agrément 2016-07", "Ministre de l'intérieur"),
        "wheels": [("RC-01", WheelKind.ROUE_CHANCE, "RC1"), ("C-01", WheelKind.ROULETTE_EUROPEENNE, "RA1")],
        "checks": ("RC1",),
        "check_cast": (Role.CROUPIER, Role.COMITE),
        "failed_check": (5, "RC1", "Marqueur fixe faussé : la roue accroche"),
        "card_found": 7,
        "withdrawn": (3, "8"),
        "verification": 9,
        "destroyed": 11,
    },
}
CHECK_POINTS = {
    WheelKind.ROULETTE_EUROPEENNE: ["Pivot et rotation", "Cloisons des 37 cases", "7 obstacles", "Planéité"],
    WheelKind.ROUE_CHANCE: ["Rotation libre", "Marqueur fixe", "52 segments"],
}


class Casino:
    """One demo casino during seeding: its people, places and equipment, looked up by code."""

    def __init__(self, est: Establishment, plan: dict) -> None:
        self.est, self.plan = est, plan
        self.director = self.user(plan["director"])
        self.tables = {t.number: t for t in GamingTable.objects.filter(establishment=est)}
        self.places = {loc.code: loc for loc in Location.objects.filter(establishment=est)}
        self._parties: dict[tuple[int, str], TableSession] = {}

    def user(self, role: str) -> AbstractBaseUser:
        return demo_user(self.est, role)

    @cached_property
    def croupiers(self) -> list[AbstractBaseUser]:
        """The demo croupier and the other roulette croupiers of the plan (created once, read once)."""
        crew = [self.user(Role.CROUPIER)]
        for name, first_name, last_name in self.plan.get("croupiers", []):
            user = demo_account(f"{name}.{self.est.code}", first_name, last_name)
            membership_grant(user=user, establishment=self.est, role=Role.CROUPIER, actor=None)
            crew.append(user)
        return crew

    def partie(self, seance: Seance, number: str) -> TableSession:
        """The table-partie of table ``number`` at ``seance``, prepared once for the day's steps (the
        services they call read it afresh)."""
        key = (seance.pk, number)
        if key not in self._parties:
            self._parties[key] = table_session_prepare(seance=seance, table=self.tables[number], actor=self.director)
        return self._parties[key]

    def shoe(self, number: str) -> Shoe:
        return Shoe.objects.get(establishment=self.est, serial=number)

    def shuffler(self, number: str) -> Shuffler:
        return Shuffler.objects.get(establishment=self.est, number=number)


def _volumes(casino: Casino) -> None:
    for kind, qualifier in required_volumes(casino.est):
        for role in paraphing_roles(casino.est, kind):
            try:
                authority = casino.user(role)
            except get_user_model().DoesNotExist:  # no demo user holds this role here
                continue
            open_volume(
                casino.est,
                kind,
                qualifier,
                director=casino.director,
                authority=authority,
                paraphe=casino.plan["paraphe"],
            )
            break


def _model(casino: Casino, kind: str, spec: tuple[str, str, str, str]) -> ApprovedModel:
    manufacturer, name, reference, issuer = spec
    existing = ApprovedModel.objects.filter(establishment=casino.est, kind=kind, name=name).first()
    return existing or services.approved_model_register(
        establishment=casino.est,
        kind=kind,
        manufacturer=manufacturer,
        name=name,
        actor=casino.director,
        approval_reference=reference,
        approval_issuer=issuer,
        approved_on=datetime.date(2019, 3, 12),
    )


def _equipment(casino: Casino) -> None:
    plan = casino.plan
    model = _model(casino, ApprovedModel.Kind.SHOE, plan["shoe_model"])
    for place, numbers in plan["shoes"].items():
        new = [n for n in numbers if not Shoe.objects.filter(establishment=casino.est, serial=n).exists()]
        if new and place in casino.places:
            services.shoe_receive(
                establishment=casino.est,
                model=model,
                location=casino.places[place],
                shoes=[(n, f"CM-{n}-{2019 + i}") for i, n in enumerate(new)],
                actor=casino.user(plan["keeper"]),
                delivery_note="Livraison initiale",
            )
    shuffler_model = _model(casino, ApprovedModel.Kind.SHUFFLER, plan["shuffler_model"])
    for number, machine_type, table, embout in plan["shufflers"]:
        if table not in casino.tables or Shuffler.objects.filter(establishment=casino.est, number=number).exists():
            continue
        machine = services.shuffler_register(
            establishment=casino.est,
            number=number,
            serial=f"SM-{number}",
            model=shuffler_model,
            machine_type=machine_type,
            actor=casino.director,
            embout=embout,
        )
        services.shuffler_commission(
            shuffler=machine, actor=casino.director, card_access_protection=True, malfunction_signal=True
        )
        socle = services.socle_create(table=casino.tables[table], code=f"SOCLE-{table}", actor=casino.director)
        services.shuffler_mount(shuffler=machine, socle=socle, actor=casino.director)
    for number, kind, table in plan["wheels"]:
        if table not in casino.tables or Wheel.objects.filter(establishment=casino.est, number=number).exists():
            continue
        machine = services.wheel_register(
            establishment=casino.est,
            number=number,
            kind=kind,
            spec=TEXT_SPECS[kind],
            actor=casino.director,
            serial=f"W-{number}",
        )
        services.wheel_commission(wheel=machine, actor=casino.director)
        services.wheel_install(wheel=machine, table=casino.tables[table], actor=casino.director)


def _settle_incidents(casino: Casino) -> None:
    """The previous day's incidents: informed, decided (MC), closed; the shuffler back in service."""
    notices = {"shuffler_malfunction": Role.INSPECTEUR, "equipment_check": Role.INSPECTEUR, "card_anomaly": Role.POLICE}
    mine = (
        set(WheelCheck.objects.filter(establishment=casino.est).values_list("incident", flat=True))
        | set(
            IncidentSubject.objects.filter(content_type=ContentType.objects.get_for_model(Shuffler)).values_list(
                "incident", flat=True
            )
        )
        | {
            use.closing.get("incident")
            for use in ShufflerUse.objects.filter(
                table_session__seance__establishment=casino.est, ended_at__isnull=False
            )
        }
    )
    for incident in Incident.objects.filter(
        establishment=casino.est, status=Incident.Status.OPEN, pk__in=mine - {None}
    ):
        required = casino.est.jurisdiction == "MC" or incident.category == "card_anomaly"
        if required and not incident.notices.exists():
            role = notices[incident.category]
            incident_notify(
                incident=incident,
                recipient_role=role,
                recipient_name=str(casino.user(role)),
                notified_at=incident.found_at,
                channel="in_person",
                actor=casino.director,
            )
        if casino.est.jurisdiction == "MC":
            incident_decide(
                incident=incident,
                decision="Matériel remis en état et contrôlé ; reprise autorisée.",
                actor=casino.director,
            )
        incident_close(incident=incident, actor=casino.director)
    for machine in Shuffler.objects.filter(establishment=casino.est, status=AssetStatus.OUT_OF_SERVICE):
        services.shuffler_return_to_service(shuffler=machine, actor=casino.director)


def _shoes_out(casino: Casino, seance: Seance, day: int) -> None:
    plan, fr = casino.plan, casino.est.jurisdiction == "FR"
    for number, rotation in plan["shoe_tables"].items():
        if number not in casino.tables:
            continue
        session = casino.partie(seance, number)
        # Now and then the same sabot goes back to the same table: the allocation is flagged.
        shoe = rotation[(day - 1 if day % 7 == 3 else day) % len(rotation)]
        allocator = plan["keeper"]
        if fr and number == "CF1" and day % 5 == 0:
            allocator = Role.COMITE  # allowed at baccara, and flagged (AMB-49)
        elif fr and day % 2:
            allocator = Role.DIRECTEUR_RESPONSABLE
        services.shoe_allocate(
            session=session, shoe=casino.shoe(shoe), actor=casino.user(allocator), received_by="Chef de table"
        )


def _shoes_back(casino: Casino, seance: Seance) -> None:
    for shoe in Shoe.objects.filter(table_session__seance=seance).select_related("table_session__table__room"):
        depots = [loc for loc in casino.places.values() if loc.kind in SHOES.depot_kinds[casino.est.jurisdiction]]
        room_depot = next((loc for loc in depots if loc.room_id == shoe.table_session.table.room_id), depots[0])
        services.shoe_return(
            shoes=[shoe],
            to_location=room_depot,
            actor=casino.user(casino.plan["returner"]),
            returned_by="Croupier et chef de table",
        )


def _shufflers(casino: Casino, seance: Seance, day: int, end: bool) -> None:
    fr = casino.est.jurisdiction == "FR"
    croupier = casino.user(Role.CROUPIER)
    for number, _type, table, _embout in casino.plan["shufflers"]:
        if table not in casino.tables:
            continue
        machine = casino.shuffler(number)
        session = casino.partie(seance, table)
        if not end:
            if machine.status != AssetStatus.IN_SERVICE:
                continue
            game = casino.tables[table].game
            display = {"blackjack": "black jack 6 jeux", "punto_banco": "6 jeux"}.get(game, "") if fr else ""
            services.shuffler_use_start(
                session=session,
                shuffler=machine,
                actor=croupier,
                embout=machine.embout,
                display=display,
                decks_counted=6 if display else None,
            )
            continue
        use = ShufflerUse.objects.filter(table_session=session, shuffler=machine).first()
        if use is None:
            continue
        if fr and day == casino.plan.get("card_found") and table == "UTH1":
            services.shuffler_use_end(
                use=use,
                actor=croupier,
                hood_opened=True,
                empty=False,
                observations="Une carte (dame de pique) restée dans le réceptacle.",
            )
        services.shuffler_use_end(
            use=use, actor=croupier, hood_opened=True, empty=True, cards_removed=True, disconnected=True
        )


def _wheel_checks(casino: Casino, seance: Seance, day: int) -> None:
    first, second = casino.plan["check_cast"]
    failed_day, failed_table, observation = casino.plan["failed_check"]
    for number in casino.plan["checks"]:
        if number not in casino.tables:
            continue
        session = casino.partie(seance, number)
        kind = Wheel.objects.get(table=casino.tables[number]).kind
        passed = not (day == failed_day and number == failed_table)
        services.wheel_check_record(
            session=session,
            actor=casino.user(first),
            cosigner=casino.user(second),
            points=CHECK_POINTS[kind],
            passed=passed,
            observations="" if passed else observation,
        )


def _open_tables(casino: Casino, seance: Seance) -> None:
    failed = set(
        WheelCheck.objects.filter(table_session__seance=seance, passed=False).values_list("table_session", flat=True)
    )
    for session in TableSession.objects.filter(seance=seance, status=TableSession.Status.PREPARING):
        if session.pk in failed:
            continue  # a failed check keeps the table closed (INC-08)
        table_session_open(session=session, actor=casino.director)


def _end_of_partie(casino: Casino, seance: Seance) -> None:
    for session in TableSession.objects.filter(
        seance=seance, status=TableSession.Status.OPEN, table__game="roulette"
    ).select_related("table"):
        if casino.est.jurisdiction == "MC":
            services.wheel_lid_lock(
                session=session, actor=casino.user(Role.CHEF_TABLE), key_holder=casino.user(Role.INSPECTEUR)
            )


def _launchers(casino: Casino, seance: Seance, day: int) -> None:
    """MC roulette: the sous-directeur sets the ordre de roulement of each open table (three of the
    four croupiers, a different start every day), then the chef de table records six turns
    following it (WHEEL-09); the plan's days depart from it and are flagged."""
    games = ROTATION_GAMES[casino.est.jurisdiction]
    if not games:
        return
    crew, chef, flags = casino.croupiers, casino.user(Role.CHEF_TABLE), casino.plan["launch_flags"]
    for session in TableSession.objects.filter(
        seance=seance, status=TableSession.Status.OPEN, table__game__in=games
    ).select_related("table"):
        today = (day, session.table.number)
        order = [crew[(day + i) % len(crew)] for i in range(3)]
        launchers = [order[i % len(order)] for i in range(6)]
        if today == flags["kept_on"]:
            launchers[1:3] = [launchers[0]] * 2  # the first croupier kept at the cylinder
        if today == flags["outsider"]:
            launchers[3] = crew[(day + 3) % len(crew)]  # the croupier left out of the order
        if today == flags["no_roster_yet"]:
            services.launch_turn_record(session=session, launcher=launchers.pop(0), actor=chef)
        services.launch_roster_set(session=session, croupiers=order, actor=casino.user(Role.SOUS_DIRECTEUR))
        for launcher in launchers:
            services.launch_turn_record(session=session, launcher=launcher, actor=chef)


def _malfunction(casino: Casino, seance: Seance, day: int) -> None:
    when = casino.plan.get("malfunction")
    if when is None or when[0] != day:
        return
    machine = casino.shuffler(when[1])
    session = TableSession.objects.filter(seance=seance, table=machine.socle.table).first()
    services.shuffler_malfunction_report(
        shuffler=machine,
        actor=casino.user(Role.CROUPIER),
        session=session,
        description="Voyant rouge allumé et signal sonore : cartes bloquées dans le mélangeur distributeur.",
        action_taken="Cartes récupérées et contrôlées ; partie poursuivie avec un sabot ; machine retirée.",
    )


def _custody_events(casino: Casino, day: int, date: datetime.date) -> None:
    plan = casino.plan
    keeper = casino.user(plan["keeper"])
    withdraw_day, number = plan["withdrawn"]
    if day == withdraw_day:
        main = next(loc for loc in casino.places.values() if loc.kind in ("depot_principal", "card_cabinet"))
        services.shoe_withdraw(
            shoe=casino.shoe(number), actor=keeper, reason="Orifice ébréché : les cartes accrochent", to_location=main
        )
    if day == plan["destroyed"]:
        method = (
            DestructionSession.Method.NEUTRALISATION
            if casino.est.jurisdiction == "MC"
            else DestructionSession.Method.DESTRUCTION
        )
        # MC: announced to the SCJ for tomorrow, which it may attend: the operation waits (CARD-11).
        planned = timezone.now() + datetime.timedelta(days=1 if casino.est.jurisdiction == "MC" else 0)
        plan_ = custody.destruction_plan(
            domain=SHOES,
            establishment=casino.est,
            method=method,
            planned_at=planned,
            items=[casino.shoe(number)],
            actor=casino.director,
        )
        if casino.est.jurisdiction == "MC":
            custody.destruction_notify(
                session=plan_,
                channel="email",
                reference=f"SCJ/{date:%Y}/{day:03d}",
                actor=casino.director,
            )
        else:
            custody.destruction_complete(
                session=plan_,
                domain=SHOES,
                actor=casino.director,
                witness=casino.user(plan["authority"]),
                observations="Sabot percé et découpé en présence de l'autorité.",
            )
    if day == plan["verification"]:
        counted = {}
        for shoe in Shoe.objects.filter(establishment=casino.est, location__isnull=False).exclude(
            status__in=("destroyed", "neutralised")
        ):
            key = (shoe.location_id, shoe.category)
            counted[key] = counted.get(key, 0) + 1
        custody.stock_verification_record(
            domain=SHOES,
            establishment=casino.est,
            counted=counted,
            actor=casino.user(plan["authority"]),
            remarks="Vérification inopinée des sabots.",
        )


def _history_day(casino: Casino, day: int, date: datetime.date) -> bool:
    if Seance.objects.filter(establishment=casino.est, date=date, period=PERIOD).exists():
        return False
    _settle_incidents(casino)
    seance = seance_open(establishment=casino.est, date=date, period=PERIOD, actor=casino.director)
    _shoes_out(casino, seance, day)
    _shufflers(casino, seance, day, end=False)
    _wheel_checks(casino, seance, day)
    _open_tables(casino, seance)
    _launchers(casino, seance, day)
    _malfunction(casino, seance, day)
    _shufflers(casino, seance, day, end=True)
    _end_of_partie(casino, seance)
    _shoes_back(casino, seance)
    seance_close(seance=seance, actor=casino.director)
    _custody_events(casino, day, date)
    return True


def seed(*, stdout: TextIO, days: int = DAYS) -> None:
    """Seed the demo casinos (``demo_houses``); each casino in its own transaction."""
    steps: list[Callable[[Casino], None]] = [_volumes, _equipment]
    for code in demo_houses():
        plan = PLANS[code]
        est = Establishment.objects.filter(code=code).first()
        if est is None:
            stdout.write(f"{code} : établissement absent, matériel non créé")
            continue
        with transaction.atomic():
            casino = Casino(est, plan)
            for step in steps:
                step(casino)
            first_day = timezone.localdate() - datetime.timedelta(days=days)
            seeded = sum(_history_day(casino, day, first_day + datetime.timedelta(days=day)) for day in range(days))
        stdout.write(
            f"{est.name} : {Shoe.objects.filter(establishment=est).count()} sabots, "
            f"{Shuffler.objects.filter(establishment=est).count()} mélangeurs, "
            f"{Wheel.objects.filter(establishment=est).count()} cylindres et roues, "
            + ngettext("%(n)s séance d'historique ajoutée", "%(n)s séances d'historique ajoutées", seeded)
            % {"n": seeded}
        )
