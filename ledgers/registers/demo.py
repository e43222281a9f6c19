"""Demo registers: the main courante of each demo casino, coté et paraphé by the authority, three
weeks of facts, a correction approved in words and one visa by the authority; and its next volume,
waiting for the authority's cote et paraphe. Also the table-partie log, coté et paraphé by the
director: with the main courante, the volumes every séance the other seeders play writes in."""

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_houses, demo_user, table_numbers
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

from . import services
from .kinds import MAIN_COURANTE
from .models import EntryKind, Register
from .selectors import registers_remembered
from .tasks import checkpoints_seal_task

DAYS = 21
TABLE_LOG = "parties_de_table"  # the tables app's kind: each table-partie prepared, opened and ended
# Per jurisdiction: who creates, cotes and paraphs, writes, corrects and visas the main courante.
CAST = {
    DEMO_MC: {
        "director": Role.DIRECTEUR_JEUX,
        "authority": Role.COMMISSAIRE,
        "paraphe": "C.O.",
        "writers": (Role.INSPECTEUR, Role.CHEF_PARTIE, Role.SOUS_DIRECTEUR),
        "approver": Role.DIRECTEUR_JEUX,
        "visa": Role.SCJ,
    },
    DEMO_FR: {
        "director": Role.DIRECTEUR_RESPONSABLE,
        "authority": Role.POLICE,
        "paraphe": "C.V.",
        "writers": (Role.COMITE, Role.CHEF_PARTIE, Role.DIRECTEUR_RESPONSABLE),
        "approver": Role.DIRECTEUR_RESPONSABLE,
        "visa": Role.POLICE,
    },
}

# (hour, subject, text): a séance's usual facts; {table} is filled with one of the casino's tables.
FACTS = [
    (
        "14:00",
        "Ouverture de la séance",
        "Ouverture de la séance de l'après-midi. Personnel au complet, "
        "contrôles d'ouverture effectués sans observation.",
    ),
    ("15:40", "Ouverture de table", "Ouverture de la table {table} à la demande de la clientèle."),
    (
        "17:25",
        "Incident de jeu",
        "Contestation d'un client à la table {table} sur le paiement d'un coup. "
        "Visionnage des images par l'inspecteur : paiement confirmé, client informé.",
    ),
    ("19:10", "Changement de croupier", "Remplacement du croupier de la table {table} pour raison de santé."),
    ("21:45", "Observation", "Carte abîmée signalée à la table {table}, échangée par l'inspecteur de service."),
    ("23:30", "Visite du service de contrôle", "Passage du service de contrôle en salle, aucune observation."),
    ("02:55", "Fermeture de la séance", "Fermeture de toutes les tables et clôture de la séance sans incident."),
]


@contextmanager
def seeding() -> Iterator[None]:
    """The seed remembers the volumes in service (``registers_remembered``): it stops at its first
    error, and every act of it writes in one. Its séances closed do not each seal the registers
    (``LEDGERS_SEAL_ON_SEANCE_CLOSE``): a seal covers every establishment's registers, and each
    demo establishment may be seeded by a process of its own at once; the seal is asked for once,
    when the seed is done (on its commit, as a séance's close asks for it, where the seed runs in
    a caller's transaction)."""
    sealing, settings.LEDGERS_SEAL_ON_SEANCE_CLOSE = settings.LEDGERS_SEAL_ON_SEANCE_CLOSE, False
    try:
        with registers_remembered():
            yield
    finally:
        settings.LEDGERS_SEAL_ON_SEANCE_CLOSE = sealing
    if sealing:
        transaction.on_commit(checkpoints_seal_task.delay, robust=True)


def _main_courante(est: Establishment, cast: dict) -> Register:
    """The open volume of the main courante, coté et paraphé by the authority, with its three weeks
    of facts written first."""
    register = est.registers.filter(kind=MAIN_COURANTE.code).order_by("number").first()
    if register is None:
        register = services.register_create(
            establishment=est, kind=MAIN_COURANTE.code, actor=demo_user(est, cast["director"])
        )
    if register.status == Register.Status.AWAITING_OPENING:
        services.register_open(register=register, actor=demo_user(est, cast["authority"]), paraphe=cast["paraphe"])
        register.refresh_from_db()
    if register.head_seq == 1:  # only the opening act: write the three weeks of facts
        _facts(est, register, cast)
        register.refresh_from_db()
    return register


def _table_log(est: Establishment, cast: dict) -> Register:
    """The open volume of the table-partie log, coté et paraphé by the director (a paraphing role
    of its kind)."""
    director = demo_user(est, cast["director"])
    register = est.registers.filter(kind=TABLE_LOG).exclude(status=Register.Status.CLOSED).first()
    if register is None:
        register = services.register_create(establishment=est, kind=TABLE_LOG, actor=director)
    if register.status == Register.Status.AWAITING_OPENING:
        initials = "".join(word[0] for word in director.get_full_name().split())
        services.register_open(register=register, actor=director, paraphe=initials)
    return register


def _facts(est: Establishment, register: Register, cast: dict) -> None:
    tables = sorted(table_numbers(est))  # the tables are set up after this seeder (core.demo.seed_tables)
    writers = [demo_user(est, role) for role in cast["writers"]]
    first_day = timezone.localdate() - datetime.timedelta(days=DAYS)
    for day in range(DAYS):
        date = first_day + datetime.timedelta(days=day)
        # Opening and closing every day, and a few facts of the day in between.
        for n, (hour, subject, text) in enumerate(FACTS):
            if 0 < n < len(FACTS) - 1 and (day + n) % 3:
                continue
            when = date + datetime.timedelta(days=1) if hour < "12:00" else date
            services.main_courante_record(
                register=register,
                actor=writers[(day + n) % len(writers)],
                event_at=f"{when:%Y-%m-%d} {hour}",
                subject=subject,
                text=text.format(table=tables[(day * 3 + n) % len(tables)]),
            )


def _correct_and_visa(est: Establishment, register: Register, cast: dict) -> None:
    records = register.entries.filter(kind=EntryKind.RECORD).order_by("seq")
    if not register.entries.filter(kind=EntryKind.CORRECTION).exists():
        wrong = records.filter(payload__subject="Ouverture de table").first()
        corrected = {**wrong.payload, "event_at": wrong.payload["event_at"][:11] + "15:50"}
        services.entry_correct(
            entry=wrong,
            actor=demo_user(est, cast["approver"]),
            payload=corrected,
            reason="Heure d'ouverture de la table mal reportée (15 h 50 et non 15 h 40).",
            approval=f"Approuvé la correction de l'heure de l'entrée numéro {wrong.seq}.",
        )
    if not register.entries.filter(kind=EntryKind.VISA).exists():
        register.refresh_from_db()
        services.visa_sign(
            register=register,
            actor=demo_user(est, cast["visa"]),
            up_to_seq=register.head_seq * 2 // 3,
            statement="Vu et vérifié lors du contrôle.",
        )


def _awaiting_authority(est: Establishment, cast: dict) -> Register:
    """A register the authority has still to coter et parapher: the next volume of the main courante."""
    waiting = est.registers.filter(status=Register.Status.AWAITING_OPENING).order_by("number").first()
    if waiting is None:
        waiting = services.register_create(
            establishment=est,
            kind=MAIN_COURANTE.code,
            actor=demo_user(est, cast["director"]),
            title="Main courante de la direction des jeux — volume suivant",
        )
    return waiting


@transaction.atomic
def prepare_tables(*, stdout: TextIO) -> None:
    """The main courante of each demo casino, before the tables are set up: Monte-Carlo writes its
    tables there (core.hooks.TABLE_SET_UP)."""
    for code, cast in CAST.items():
        _main_courante(Establishment.objects.get(code=code), cast)


@transaction.atomic
def seed(stdout: TextIO) -> None:
    for code in demo_houses():
        est, cast = Establishment.objects.get(code=code), CAST[code]
        register = _main_courante(est, cast)
        _correct_and_visa(est, register, cast)
        register.refresh_from_db()
        waiting = _awaiting_authority(est, cast)
        _table_log(est, cast)
        stdout.write(
            f"{est.name} : {register.number}, {register.head_seq} entrées ; {waiting.number} à coter et parapher"
        )
