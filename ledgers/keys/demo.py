"""Demo keys: the register of keys of Monte-Carlo and Nice with their homes and custodians, keys
out for today's séance, for a relève and an intervention of the slot room, and one overdue (due
back a second after it went out). The slot demo registers the slot keys first, through
``register_keys``, since its machines go in service only with their locks' keys registered
(KEY-09, KEY-12), and the card demo the French cabinet key, whose holder opens the cabinet
(KEY-11); this seeder then opens today's relève and an intervention in the slot room.

Idempotent: a key already registered is not registered again, nor handed out twice."""

import datetime
from typing import TextIO

from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_houses, demo_user
from ledgers.core.models import Establishment, Location, Seance
from ledgers.core.roles import Role
from ledgers.core.services import seance_open
from ledgers.registers.models import Register
from ledgers.registers.services import register_create, register_open

from . import services
from .models import Key
from .purposes import PURPOSES
from .registers import REGISTRE_CLES

SEED_AFTER = ("ledgers.cards", "ledgers.dice", "ledgers.equipment", "ledgers.slots")
# code, lock type, opens, asset ({machines}, {socles}: the slot room's), copies, home code, custodian
# role, holder organisation
KEYS = {
    DEMO_MC: [
        ("MC-PM-01", "machine_door", "Portes des machines, rangée A", "{machines}", 2, "coffre", None, ""),
        ("MC-SO-01", "socle", "Socles, rangée A", "{socles}", 1, "caisse-centrale", None, ""),
        (
            "MC-BR-01",
            "bill_release",
            "Blocs lecteurs de billets, rangée A",
            "{machines}",
            1,
            "caisse-centrale",
            None,
            "",
        ),
        ("MC-BB-01", "bill_content", "Boîtes à billets, rangée A", "{machines}", 1, "comptabilite", None, ""),
        ("MC-CY-RO1", "cylinder_lid", "Couvercle du cylindre", "RO1", 1, None, Role.INSPECTEUR, ""),
        ("MC-DEP-01", "card_cabinet", "Dépôt principal des cartes", "depot-principal", 2, None, Role.CARTIER, ""),
    ],
    DEMO_FR: [
        (
            "FR-ARM-01",
            "card_cabinet",
            "Armoire « dépôt des cartes »",
            "armoire-cartes",
            1,
            None,
            Role.DIRECTEUR_RESPONSABLE,
            "",
        ),
        (
            "FR-HA-01",
            "upper",
            "Parties supérieures des machines",
            "{machines}",
            1,
            None,
            Role.DIRECTEUR_RESPONSABLE,
            "",
        ),
        ("FR-BA-01", "lower", "Parties inférieures des machines", "{machines}", 1, None, Role.COMITE, ""),
        ("FR-BB-01", "bill_content", "Boîtes à billets et à tickets", "{machines}", 1, None, Role.CAISSIER, ""),
        ("FR-RZ-01", "reset", "Réinitialisation des machines", "{machines}", 1, None, Role.COMITE, ""),
        (
            "FR-CL-01",
            "logic_board",
            "Cartes logiques",
            "{machines}",
            1,
            None,
            Role.TECHNICIEN_SFM,
            "SFM Côte d'Azur — agrément n° 2021-014",
        ),
    ],
}
# code, giver role, holder role, hours until due (a second: overdue at once), purpose, witness role
ISSUES = {
    DEMO_MC: [
        ("MC-DEP-01", Role.CARTIER, Role.SOUS_DIRECTEUR, 6, "core.seance", None),
        ("MC-CY-RO1", Role.DIRECTEUR_JEUX, Role.INSPECTEUR, 1 / 3600, "core.seance", None),
        ("MC-SO-01", Role.CAISSIER_PRINCIPAL, Role.SUPERVISEUR, 2, "slots.releve", None),
        ("MC-PM-01", Role.SUPERVISEUR, Role.MECANICIEN, 1, "slots.intervention", None),
    ],
    DEMO_FR: [
        ("FR-ARM-01", Role.DIRECTEUR_RESPONSABLE, Role.COMITE, 1 / 3600, "core.seance", None),
        ("FR-HA-01", Role.DIRECTEUR_RESPONSABLE, Role.COMITE, 1, "slots.intervention", Role.MECANICIEN),
    ],
}
ADMIN = {DEMO_MC: Role.DIRECTEUR_JEUX, DEMO_FR: Role.DIRECTEUR_RESPONSABLE}


def _register(est: Establishment) -> None:
    admin = demo_user(est, ADMIN[est.code])
    register = (
        Register.objects.filter(establishment=est, kind=REGISTRE_CLES.code)
        .exclude(status=Register.Status.CLOSED)
        .first()
    )
    if register is None:
        register = register_create(establishment=est, kind=REGISTRE_CLES.code, actor=admin)
    if register.status == Register.Status.AWAITING_OPENING:
        register_open(register=register, actor=admin, paraphe="D.J." if est.jurisdiction == "MC" else "F.D.")


def _today_seance(est: Establishment) -> Seance:
    today = timezone.localdate()
    seance = Seance.objects.filter(establishment=est, date=today, status=Seance.Status.OPEN).first()
    return seance or seance_open(establishment=est, date=today, period="soiree", actor=demo_user(est, ADMIN[est.code]))


def register_keys(
    est: Establishment, *, machines: str = "", socles: str = "", lock_types: frozenset[str] | None = None
) -> None:
    """Register the demo keys not yet registered (of ``lock_types`` only, when given: the card
    demo registers the cabinet key, KEY-11); ``machines`` and ``socles``: the slot room's numbers
    (comma separated) the slot keys serve."""
    _register(est)
    admin = demo_user(est, ADMIN[est.code])
    for code, lock_type, opens, asset, copies, home, custodian, organisation in KEYS[est.code]:
        if Key.objects.filter(establishment=est, code=code).exists():
            continue
        if lock_types is not None and lock_type not in lock_types:
            continue
        services.key_register(
            establishment=est,
            actor=admin,
            code=code,
            lock_type=lock_type,
            opens=opens,
            asset_ref=asset.format(machines=machines, socles=socles),
            copies=copies,
            home=Location.objects.get(establishment=est, code=home) if home else None,
            custodian=demo_user(est, custodian) if custodian else None,
            holder_organisation=organisation,
        )


def _open_purposes(est: Establishment) -> dict[str, int]:
    """An open object of each purpose the apps declared (their seeders leave one open)."""
    found = {}
    for purpose in PURPOSES:
        if (obj := purpose.open_objects(est).first()) is not None:
            found[purpose.code] = obj.pk
    return found


@transaction.atomic
def _seed(est: Establishment) -> int:
    register_keys(est)
    purposes = {**_open_purposes(est), "core.seance": _today_seance(est).pk}
    issued = 0
    for code, giver, holder, hours, purpose, witness in ISSUES[est.code]:
        key = Key.objects.get(establishment=est, code=code)
        if key.issues.exists() or purpose not in purposes:
            continue
        services.key_issue(
            key=key,
            actor=demo_user(est, giver),
            holder=demo_user(est, holder),
            purpose_type=purpose,
            purpose_id=purposes[purpose],
            due_at=timezone.now() + datetime.timedelta(hours=hours),
            witness=demo_user(est, witness) if witness else None,
        )
        issued += 1
    return issued


def seed(stdout: TextIO) -> None:
    for code in demo_houses():
        est = Establishment.objects.filter(code=code).first()
        if est is None:
            continue
        issued = _seed(est)
        keys = Key.objects.filter(establishment=est).count()
        text = ngettext("%(keys)s clés, %(n)s remise en cours", "%(keys)s clés, %(n)s remises en cours", issued)
        stdout.write(f"{est.name} : {text % {'keys': keys, 'n': issued}}")
