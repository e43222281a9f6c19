"""Demo dice: a month of craps at Monte-Carlo and of rampo at Nice, through the services —
orders, receipts, depot transfers, allocations signed per séance, swaps, end-of-séance checks,
anomalies with their incidents, destructions, and a verification by the authority.

Idempotent: a séance whose dice table is already closed is skipped, so a second run adds nothing.
"""

import datetime
from collections.abc import Iterator
from decimal import Decimal
from typing import TextIO

from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from ledgers.core.demo import demo_houses, demo_user
from ledgers.core.models import Establishment, GamingTable, Location, LocationKind, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import (
    seance_close,
    seance_open,
    table_session_close,
    table_session_open,
    table_session_prepare,
)
from ledgers.custody import services as custody
from ledgers.custody.models import DepotDay, ItemStatus, StockVerification, Supplier
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_close, incident_decide, incident_notify
from ledgers.registers.models import Register
from ledgers.registers.services import register_create, register_open

from . import selectors, services
from .domains import DICE
from .models import DicePair, Die
from .rules import CHECKLIST

SEED_AFTER = ("ledgers.cards",)  # the dice tables join the evening séances the card tables open
DAYS = 30
PASSED = dict.fromkeys(CHECKLIST, True)
# (kind, qualifier, role that creates it, role that cotes and paraphs it, paraphe)
REGISTERS = {
    "MC": [
        ("prise_en_charge", "des", Role.DIRECTEUR_JEUX, Role.COMMISSAIRE, "C.O."),
        ("comptabilite_annexe", "dice", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
        ("bons_commande", "dice", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
        ("des_en_service", "", Role.DIRECTEUR_JEUX, Role.COMMISSAIRE, "C.O."),
        ("incidents", "", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
    ],
    "FR": [
        ("carnet_19", "des", Role.DIRECTEUR_RESPONSABLE, Role.POLICE, "C.V."),
        ("bons_commande", "dice", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("rampo_special", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("incidents", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("informations_autorites", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
    ],
}
FR_COLOURS = [("rouge", "vert"), ("jaune", "bleu"), ("blanc", "noir"), ("orange", "violet")]


def _registers(est: Establishment) -> None:
    for kind, qualifier, creator, authority, paraphe in REGISTERS[est.jurisdiction]:
        register = (
            Register.objects.filter(establishment=est, kind=kind, qualifier=qualifier)
            .exclude(status=Register.Status.CLOSED)
            .order_by("number")
            .first()
        )
        if register is None:
            register = register_create(establishment=est, kind=kind, qualifier=qualifier, actor=demo_user(est, creator))
        if register.status == Register.Status.AWAITING_OPENING:
            register_open(register=register, actor=demo_user(est, authority), paraphe=paraphe)


def _sessions_to_play(est: Establishment, table: GamingTable, manager: str) -> Iterator[tuple[int, TableSession]]:
    """(days ago, table-partie) for each evening séance of the month whose dice table is not yet
    closed; the séance is opened here when it does not exist (and closed after the partie)."""
    today = timezone.localdate()
    actor = demo_user(est, manager)
    for day in range(DAYS, 0, -1):
        date = today - datetime.timedelta(days=day)
        seance = Seance.objects.filter(establishment=est, date=date, period="soiree").first()
        opened_here = seance is None
        if opened_here:
            seance = seance_open(establishment=est, date=date, period="soiree", actor=actor)
        elif seance.status != Seance.Status.OPEN:
            continue
        session = TableSession.objects.filter(seance=seance, table=table).first()
        if session is not None and session.status == TableSession.Status.CLOSED:
            continue
        yield day, session or table_session_prepare(seance=seance, table=table, actor=actor)
        if opened_here:
            seance_close(seance=seance, actor=actor)


def _close_anomaly(incident: Incident, est: Establishment, notices: list[tuple[str, str]], decider: str) -> None:
    for role, name in notices:
        incident_notify(
            incident=incident,
            recipient_role=role,
            recipient_name=name,
            notified_at=timezone.now(),
            channel="phone",
            actor=demo_user(est, decider),
        )
    incident_decide(
        incident=incident,
        actor=demo_user(est, decider),
        decision="Dé retiré du jeu et placé en attente de destruction ; aucune conséquence sur les coups.",
    )
    incident_close(incident=incident, actor=demo_user(est, decider))


# --- Monaco: craps -------------------------------------------------------------------------------


def _mc_receive(est: Establishment, depot: Location, supplier: Supplier, count: int) -> None:
    director = demo_user(est, Role.DIRECTEUR_JEUX)
    order = custody.purchase_order_issue(
        establishment=est,
        domain=DICE,
        supplier=supplier,
        actor=director,
        lines=[{"category": "des", "quantity": count}],
    )
    order = custody.purchase_order_send(order=order, domain=DICE, actor=director)
    first = Die.objects.filter(establishment=est).count() + 1
    dice = [services.DieInput(serial=f"MC{first + n:06d}", sigle="SBM", inspection=PASSED) for n in range(count)]
    services.dice_receive(
        establishment=est,
        location=depot,
        dice=dice,
        actor=demo_user(est, Role.CARTIER),
        order=order,
        delivery_note=f"BL {order.number:04d}",
    )


def _mc_craps(est: Establishment) -> int:
    table = selectors.dice_tables(est).order_by("number").first()
    main = est.locations.filter(kind=LocationKind.DEPOT_PRINCIPAL).order_by("code").first()
    annex = (
        est.locations.filter(code="depot-ameriques").first()
        or est.locations.filter(kind=LocationKind.DEPOT_ANNEXE).order_by("code").first()
    )
    if table is None or main is None or annex is None:
        return 0
    supplier = Supplier.objects.filter(establishment=est, domain=DICE.code).first() or custody.supplier_register(
        establishment=est,
        domain=DICE,
        name="Manufacture de dés de précision",
        actor=demo_user(est, Role.DIRECTEUR_JEUX),
    )
    cartier, sd, chef = (demo_user(est, r) for r in (Role.CARTIER, Role.SOUS_DIRECTEUR, Role.CHEF_TABLE))
    played = 0
    for day, session in _sessions_to_play(est, table, Role.SOUS_DIRECTEUR):
        new_at_annex = selectors.new_dice(est).filter(location=annex)
        if new_at_annex.count() < 5:
            if selectors.new_dice(est).filter(location=main).count() < 5:
                _mc_receive(est, main, supplier, 40)
            custody.items_transfer(
                domain=DICE,
                items=list(selectors.new_dice(est).filter(location=main)[:20]),
                to_location=annex,
                actor=cartier,
                received_by=str(chef),
            )
        dice = list(new_at_annex.order_by("serial")[:5])
        services.dice_allocate(session=session, dice=dice, actor=cartier, signer=sd)
        table_session_open(session=session, actor=chef)
        if day % 6 == 0:
            services.dice_swap(
                session=session,
                withdrawn=dice[:1],
                brought_in=dice[2:3],
                reason="fell",
                actor=chef,
                observations="Dé tombé de la table, vérifié par le chef de table.",
            )
        results = [services.DieResult(die=die) for die in dice]
        if day == 11:
            results[4] = services.DieResult(die=dice[4], result=services.Result.ANOMALY, remark="Angle ébréché")
        check = services.dice_end_check(
            session=session,
            results=results,
            actor=sd,
            return_to=main,
            observations="Contrôle effectué sans observation." if day != 11 else "Un dé présente un angle ébréché.",
        )
        if check.incident is not None:
            _close_anomaly(
                check.incident,
                est,
                [(Role.SOUS_DIRECTEUR, sd.get_full_name()), (Role.SCJ, "Permanence du SCJ")],
                Role.DIRECTEUR_JEUX,
            )
        table_session_close(session=session, actor=chef)
        played += 1
        if day % 7 == 0:
            _mc_destruction(est, day)
    if played:
        _mc_destruction(est, 0)
    return played


def _mc_destruction(est: Establishment, day: int) -> None:
    queue = [die for die in selectors.destruction_queue(est) if die.pk not in selectors.quarantined_ids(est)]
    if not queue:
        return
    director = demo_user(est, Role.DIRECTEUR_JEUX)
    method = "neutralisation" if day % 2 else "destruction"
    # Announced to the SCJ for tomorrow: it may attend, so the operation waits (DICE-07).
    session = services.dice_destruction_plan(
        establishment=est,
        dice=queue,
        planned_at=timezone.now() + datetime.timedelta(days=1),
        actor=director,
        method=method,
    )
    custody.destruction_notify(
        session=session,
        channel="email",
        actor=director,
        reference=f"Courriel au Service de Contrôle des Jeux (jour {day})",
    )


def _mc_books(est: Establishment) -> None:
    today = timezone.localdate()
    if not DepotDay.objects.filter(domain=DICE.code, location__establishment=est, date=today).exists():
        custody.depot_day_close(domain=DICE, establishment=est, date=today, actor=demo_user(est, Role.CARTIER))
    if not StockVerification.objects.filter(establishment=est, domain=DICE.code).exists():
        statement = selectors.stock_statement(est)
        orders = list(est.purchase_orders.filter(domain=DICE.code, visa_at__isnull=True))
        custody.stock_verification_record(
            domain=DICE,
            establishment=est,
            counted=statement.by_location,
            actor=demo_user(est, Role.SCJ),
            opened_by="Le cartier de service",
            remarks="Vérification inopinée du stock de dés.",
            orders_seen=orders,
        )


# --- France: rampo -------------------------------------------------------------------------------


def _fr_receive(est: Establishment, cabinet: Location, supplier: Supplier, pairs: int) -> None:
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE)
    order = custody.purchase_order_issue(
        establishment=est,
        domain=DICE,
        supplier=supplier,
        carnet="21-0001",
        lines=[{"category": "des", "quantity": 2 * pairs}],
        actor=director,
    )
    order = custody.purchase_order_visa(
        order=order,
        actor=demo_user(est, Role.POLICE),
        statement="Vu, le fonctionnaire de police chargé de la surveillance",
    )
    order = custody.purchase_order_send(order=order, domain=DICE, actor=director)
    first = Die.objects.filter(establishment=est).count() + 1
    dice = []
    for p in range(pairs):
        for side, colour in enumerate(FR_COLOURS[p % len(FR_COLOURS)]):
            dice.append(
                services.DieInput(
                    serial=f"NI{first + 2 * p + side:06d}",
                    sigle="CNI",
                    colour=colour,
                    side_mm=Decimal("22.00"),
                    inspection=PASSED,
                    pair=str(p),
                )
            )
    services.dice_receive(
        establishment=est,
        location=cabinet,
        dice=dice,
        order=order,
        actor=demo_user(est, Role.EMPLOYE_RESPONSABLE),
        delivery_note=f"BL {order.number:04d}",
    )


def _fr_rampo(est: Establishment) -> int:
    table = selectors.dice_tables(est).order_by("number").first()
    cabinet = est.locations.filter(kind=LocationKind.CARD_CABINET).order_by("code").first()
    if table is None or cabinet is None:
        return 0
    director, comite, chef = (demo_user(est, r) for r in (Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.CHEF_TABLE))
    if not (est.setting("SET-14") or {}).get("max_pairs"):
        est = services.dice_pairs_cap_set(
            establishment=est,
            max_pairs=12,
            actor=director,
            reference="Décision du ministre de l'intérieur n° 2025-118 du 12 mars 2025",
        )
    supplier = Supplier.objects.filter(establishment=est, domain=DICE.code).first() or custody.supplier_register(
        establishment=est,
        domain=DICE,
        name="Fabrique de dés agréée",
        actor=director,
        approval_reference="Agrément du ministre de l'intérieur n° 2024-07",
        approval_issuer="Ministre de l'intérieur",
        approved_from=datetime.date(2024, 1, 1),
        approved_until=datetime.date(2029, 12, 31),
    )
    instruments = {"micrometer": "MIC-01", "square": "EQ-01", "balance": "BC-01"}
    played = 0
    for day, session in _sessions_to_play(est, table, Role.DIRECTEUR_RESPONSABLE):
        previous = selectors.used_at_previous_seance(session)
        usable = [
            pair
            for pair in selectors.allocatable_pairs(est).prefetch_related("dice")
            if not {die.pk for die in pair.dice.all()} & previous
        ]
        if len(usable) < 2:
            _fr_receive(est, cabinet, supplier, 4 if not DicePair.objects.filter(establishment=est).exists() else 2)
            usable = [
                pair
                for pair in selectors.allocatable_pairs(est)
                if not set(pair.dice.values_list("pk", flat=True)) & previous
            ]
        signer = director if day % 2 else comite
        services.dice_allocate(session=session, pairs=usable[:2], actor=chef, signer=signer)
        table_session_open(session=session, actor=chef)
        dice = list(selectors.dice_at_table(session))
        if day % 5 == 0:
            services.dice_swap(
                session=session,
                brought_in=[d for d in dice if d.play_role == "reserve"],
                reason="shooter",
                actor=chef,
                observations="« Les dés changent » à la demande du tireur.",
            )
        results = [services.DieResult(die=die, micrometer="22.00", square_ok=True, balance_ok=True) for die in dice]
        if day == 9:
            results[0] = services.DieResult(
                die=dice[0],
                micrometer="22.00",
                square_ok=True,
                balance_ok=False,
                remark="Déséquilibre au balancing caliper",
            )
        check = services.dice_end_check(
            session=session,
            results=results,
            actor=signer,
            cosigner=chef,
            return_to=cabinet,
            instruments=instruments,
            observations="" if day != 9 else "Un dé non conforme à l'équilibre.",
        )
        if check.incident is not None:
            _close_anomaly(
                check.incident, est, [(Role.POLICE, "Permanence de la police des jeux")], Role.DIRECTEUR_RESPONSABLE
            )
            _fr_destroy_pair(est, Die.objects.get(pk=dice[0].pk))
        table_session_close(session=session, actor=chef)
        played += 1
    return played


def _fr_destroy_pair(est: Establishment, damaged: Die) -> None:
    """The partner of a damaged die is withdrawn as used; the pair is destroyed before the police."""
    partner = damaged.pair.dice.exclude(pk=damaged.pk).get()
    if partner.status == ItemStatus.IN_STOCK:
        services.dice_withdraw(
            dice=[partner],
            reason="used",
            actor=demo_user(est, Role.EMPLOYE_RESPONSABLE),
            observations="Dé de la paire d'un dé non conforme.",
        )
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE)
    session = services.dice_destruction_plan(
        establishment=est, dice=[damaged, partner], planned_at=timezone.now(), actor=director
    )
    services.dice_destruction_complete(
        session=session,
        actor=director,
        witness=demo_user(est, Role.POLICE),
        loaded=False,
        tampered=False,
        police_service="DTPJ Nice — police des jeux",
        observations="Dés sciés en présence du fonctionnaire de police.",
    )


@transaction.atomic
def seed(stdout: TextIO) -> None:
    for code in demo_houses():
        est = Establishment.objects.filter(code=code).first()
        if est is None:
            continue
        _registers(est)
        if est.jurisdiction == "MC":
            played = _mc_craps(est)
            if Die.objects.filter(establishment=est).exists():
                _mc_books(est)
        else:
            played = _fr_rampo(est)
        statement = selectors.stock_statement(est)
        seances = ngettext("%(n)s séance de dés ajoutée", "%(n)s séances de dés ajoutées", played) % {"n": played}
        held = ngettext(
            "%(n)s dé détenu (stock comptable %(book)s)",
            "%(n)s dés détenus (stock comptable %(book)s)",
            statement.located,
        ) % {"n": statement.located, "book": statement.book}
        stdout.write(f"{est.name} : {seances}, {held}")
