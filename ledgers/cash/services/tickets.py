"""FR carnets de tickets of the cercle cagnottes (art. 56-1, REG-32): the card-table number series
of the season (COUNT-39), the keeper's date stamps and blue lines before each cagnotte séance
(COUNT-40, with the put-into-service stamp of ``ticket_book_register``), and the approved
levy machines whose printed history replaces the ticket books (COUNT-41). All are written in the
register of the ticket books; the cagnotte computed from a machine goes to the table's modèle 11."""

from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.games import GAMES, Equipment, Family
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.core.services import table_session_locked
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, register_language

from .. import rules
from ..models import CagnotteCount, CardTableNumber, LevyMachine, TicketBook, TicketStamp
from ..registers import (
    CARNETS_TICKETS,
)
from .cagnottes import CAGNOTTE_CONTROLLERS, _cagnotte_entry
from .common import _cagnotte_write, _dated_entry
from .table_cagnottes import require_in_service

TABLE_NUMBERERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


CERCLE_GAMES = frozenset(g.code for g in GAMES.values() if g.family == Family.CERCLE)


# The cercle card games (baccara, écarté, poker): their tables' numbers form the series (COUNT-39).
CARD_CERCLE_GAMES = frozenset(code for code in CERCLE_GAMES if Equipment.CARDS in GAMES[code].equipment)


def is_card_table(table: GamingTable) -> bool:
    return table.game in CARD_CERCLE_GAMES


def _french_cercle(table: GamingTable) -> None:
    if table.establishment.jurisdiction != "FR" or table.game not in CERCLE_GAMES:
        raise ValidationError(_("Ceci concerne les tables de jeux de cercle françaises."))


@transaction.atomic
def card_table_number(*, table: GamingTable, serial: int, actor: AbstractBaseUser) -> CardTableNumber:
    """The serial number of a card table for the current season: the numbers of the card tables
    form one unbroken series without duplicates and never change during the season (COUNT-39)."""
    est = Establishment.objects.select_for_update().get(pk=table.establishment_id)  # one series at a time
    if est.jurisdiction != "FR" or not is_card_table(table):
        raise ValidationError(
            _("Seules les tables des jeux de cartes de cercle françaises reçoivent un numéro d'ordre de la série.")
        )
    role = require_role(actor, est, TABLE_NUMBERERS)
    season = rules.season_start(timezone.localdate())
    numbers = CardTableNumber.objects.filter(table__establishment=est, season=season)
    current = numbers.filter(table=table).first()
    if current is not None:
        if current.serial == serial:
            raise impossible(_("La table %(table)s porte déjà ce numéro d'ordre.") % {"table": table.number})
        raise RuleViolation(
            "COUNT-39",
            _("Le numéro d'ordre de la table %(table)s (%(serial)s) ne change jamais en cours de saison.")
            % {"table": table.number, "serial": current.serial},
        )
    taken = numbers.filter(serial=serial).select_related("table").first()
    if taken is not None:
        raise RuleViolation(
            "COUNT-39",
            _("Le numéro d'ordre %(serial)s est déjà celui de la table %(table)s.")
            % {"serial": serial, "table": taken.table.number},
        )
    expected = (numbers.aggregate(top=Max("serial"))["top"] or 0) + 1
    if serial != expected:
        raise RuleViolation(
            "COUNT-39",
            _(
                "Les numéros des tables de cartes forment une série unique et "
                "ininterrompue : le prochain est le %(expected)s."
            )
            % {"expected": expected},
        )
    number = CardTableNumber.objects.create(
        table=table, season=season, serial=serial, recorded_by=actor, recorded_at=timezone.now()
    )
    with register_language():
        payload = {
            "event": str(_("Numéro d'ordre de la table de cartes")),
            "table": table.number,
            "serial": serial,
            "season": season.isoformat(),
            "detail": str(
                _("%(game)s — n° d'ordre %(serial)s, saison commençant le %(season)s")
                % {"game": table.get_game_display(), "serial": serial, "season": f"{season:%d/%m/%Y}"}
            ),
        }
    _dated_entry(est, CARNETS_TICKETS.code, actor=actor, role=role, payload=payload)
    return number


def unnumbered_card_tables(est: Establishment) -> list[GamingTable]:
    """Card tables in service without a serial number this season: the series leaves none out."""
    season = rules.season_start(timezone.localdate())
    numbered = set(
        CardTableNumber.objects.filter(table__establishment=est, season=season).values_list("table_id", flat=True)
    )
    return [t for t in est.tables.filter(active=True) if is_card_table(t) and t.pk not in numbered]


@transaction.atomic
def ticket_seance_stamp(*, book: TicketBook, actor: AbstractBaseUser, blue_line: bool) -> TicketStamp:
    """Before the cagnotte séance, the keeper date-stamps the back of the stub of the first ticket
    to detach and draws the blue line after the previous séance's tickets (COUNT-40). Until the
    cagnotte is counted the day's operations stay one séance (AMB-58): its stamp stands."""
    book = TicketBook.objects.select_for_update().select_related("table", "establishment").get(pk=book.pk)
    est = book.establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le timbre à date des carnets de tickets est une règle française."))
    role = role_named_by_text(actor, est, TICKET_KEEPERS["FR"], "COUNT-40", KEEPER_ONLY)
    if book.next_number > book.last_number:
        raise impossible(_("Le carnet %(book)s est terminé.") % {"book": book})
    if TicketStamp.objects.filter(book=book, first_ticket=book.next_number).exists():
        raise impossible(
            _(
                "Le ticket n° %(first)s porte déjà le timbre à date : la cagnotte n'a pas été comptée "
                "depuis, c'est la même séance."
            )
            % {"first": book.next_number}
        )
    if not blue_line:
        raise RuleViolation(
            "COUNT-40",
            _("Un trait au crayon bleu sépare les tickets de la séance précédente de ceux de la nouvelle séance."),
        )
    stamp = TicketStamp.objects.create(
        book=book,
        kind=TicketStamp.Kind.SEANCE_START,
        first_ticket=book.next_number,
        stamped_on=timezone.localdate(),
        blue_line=True,
        keeper=actor,
        recorded_at=timezone.now(),
    )
    ticket_stamp_entry(stamp, role=role)
    return stamp


@transaction.atomic
def levy_machine_activate(*, table: GamingTable, approval_reference: str, actor: AbstractBaseUser) -> LevyMachine:
    """An approved automatic machine records the levies of a cercle table instead of ticket books;
    refused without its approval reference (COUNT-41)."""
    _french_cercle(table)
    role = require_role(actor, table.establishment, TABLE_NUMBERERS)
    if not approval_reference.strip():
        raise RuleViolation(
            "COUNT-41",
            _("Seule une machine automatique agréée enregistre les retenues : indiquez la référence de son agrément."),
        )
    if LevyMachine.objects.filter(table=table).exists():
        raise impossible(_("La table %(table)s a déjà sa machine de retenue.") % {"table": table.number})
    machine = LevyMachine.objects.create(
        table=table, approval_reference=approval_reference.strip(), activated_by=actor, activated_at=timezone.now()
    )
    with register_language():
        payload = {
            "event": str(_("Machine de retenue agréée mise en service")),
            "table": table.number,
            "detail": str(_("Agrément %(approval)s") % {"approval": machine.approval_reference}),
        }
    _dated_entry(table.establishment, CARNETS_TICKETS.code, actor=actor, role=role, payload=payload)
    return machine


@transaction.atomic
def cagnotte_machine_compute(
    *,
    session: TableSession,
    history_total: Decimal,
    printout_reference: str,
    actor: AbstractBaseUser,
    parties: Sequence[dict] = (),
) -> CagnotteCount:
    """At the end of the séance the machine's printed history totals the levies: that total is the
    computed cagnotte (modèle 11 col. 8, art. 71); the per-partie log, when imported, must add up
    to it (COUNT-41)."""
    session = table_session_locked(session)
    est, table = session.seance.establishment, session.table
    if est.jurisdiction != "FR":
        raise ValidationError(_("Ceci concerne les tables de jeux de cercle françaises."))
    role = role_named_by_text(
        actor,
        est,
        CAGNOTTE_CONTROLLERS["FR"],
        "COUNT-52",
        _(
            "Les tickets sont vérifiés et la cagnotte calculée en présence du directeur responsable ou d'un membre du "
            "comité de direction."
        ),
    )
    machine = LevyMachine.objects.filter(table=table).first()
    if machine is None:
        raise RuleViolation(
            "COUNT-41",
            _(
                "La table %(table)s n'a pas de machine de retenue agréée : la cagnotte se "
                "calcule d'après les tickets détachés."
            )
            % {"table": table.number},
        )
    require_in_service(table)
    if session.status != TableSession.Status.CLOSED:
        raise ValidationError(_("La cagnotte se calcule à la fin de la partie."))
    if CagnotteCount.objects.filter(table_session=session).exists():
        raise ValidationError(_("La cagnotte de cette partie est déjà calculée."))
    if not printout_reference.strip():
        raise RuleViolation(
            "COUNT-41", _("La sommation des retenues se fait par l'édition d'un historique : indiquez sa référence.")
        )
    total = amounts.money(history_total)
    log = [
        {
            "time": str(p["time"]),
            "pot": str(amounts.money(p["pot"])),
            "levy": str(amounts.money(p["levy"])),
            "win": str(amounts.money(p["win"])),
        }
        for p in parties
    ]
    if log and sum(Decimal(p["levy"]) for p in log) != total:
        raise RuleViolation(
            "COUNT-41",
            _("Le total de l'historique (%(total)s €) n'est pas la somme des retenues des parties enregistrées.")
            % {"total": euros(total)},
        )
    cagnotte = save_audited(
        CagnotteCount(
            table_session=session,
            computed=total,
            computed_by=actor,
            computed_at=timezone.now(),
            tickets=[
                {
                    "machine": machine.approval_reference,
                    "history": printout_reference.strip(),
                    "parties": len(log),
                    "log": log,
                    "amount": str(total),
                }
            ],
        ),
        actor=actor,
        reason="historique de la machine",
    )
    with register_language():
        payload = {
            "event": str(_("Historique de la machine agréée et cagnotte calculée")),
            "col8": str(total),
            "tickets": str(
                _("Historique %(ref)s de la machine %(approval)s : %(parties)s parties")
                % {"ref": printout_reference.strip(), "approval": machine.approval_reference, "parties": len(log)}
            ),
        }
    _cagnotte_entry(session, actor=actor, role=role, payload=payload)
    return cagnotte


# FR: only the employee who keeps the ticket books between séances puts them into service and
# date-stamps them (art. 56-1, COUNT-40, REG-32).
TICKET_KEEPERS = {"FR": (Role.GARDIEN_CARNETS,), "MC": (Role.CARTIER, Role.INSPECTEUR, *DIRECTORATE)}


KEEPER_ONLY = _(
    "Les timbres à date et traits bleus des carnets de tickets sont apposés, en dehors de la table, par "
    "l'employé chargé de conserver les carnets entre les séances."
)


def ticket_stamp_entry(stamp: TicketStamp, *, role: str) -> Entry:
    """The keeper's date stamp written in the register of the ticket books (REG-32)."""
    book = stamp.book
    with register_language():
        payload = {
            "date": stamp.stamped_on.isoformat(),
            "event": str(stamp.get_kind_display()),
            "table": book.table.number,
            "book": book.cover_number,
            "book_id": book.pk,
            "tickets": str(
                _("n° %(first)s (série %(from)s à %(to)s, %(value)s €)")
                % {
                    "first": stamp.first_ticket,
                    "from": book.first_number,
                    "to": book.last_number,
                    "value": book.ticket_value,
                }
            ),
            "detail": str(_("Trait au crayon bleu")) if stamp.blue_line else "",
            "signed_by": f"{display_name(stamp.keeper)} ({Role(role).label})",
        }
    return _dated_entry(book.establishment, CARNETS_TICKETS.code, actor=stamp.keeper, role=role, payload=payload)


def ticket_book_keeper_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` puts a ticket book into service, else the refusal."""
    if est.jurisdiction == "FR":
        # The date stamp on the first ticket's stub is the keeper's, away from the table (art. 56-1).
        return role_named_by_text(actor, est, TICKET_KEEPERS["FR"], "COUNT-40", KEEPER_ONLY)
    return require_role(actor, est, TICKET_KEEPERS["MC"])


@transaction.atomic
def ticket_book_register(
    *,
    table: GamingTable,
    cover_number: str,
    ticket_value: Decimal,
    first_number: int,
    last_number: int,
    actor: AbstractBaseUser,
) -> TicketBook:
    """A ticket book put into service at a cercle table: FR its cover bears the table number
    (COUNT-39); MC one active book per chemin de fer table (COUNT-07)."""
    est = table.establishment
    role = ticket_book_keeper_role(actor, est)
    if table.game_info.family != Family.CERCLE:
        raise ValidationError(_("Les carnets de tickets servent aux jeux de cercle."))
    cover_number = cover_number.strip()
    if est.jurisdiction == "FR" and cover_number != table.number:
        raise RuleViolation(
            "COUNT-39",
            _("Le carnet porte sur sa couverture le numéro de sa table (%(table)s).") % {"table": table.number},
        )
    active = TicketBook.objects.filter(table=table, finished_on__isnull=True)
    if est.jurisdiction == "MC" and any(book.next_number <= book.last_number for book in active):
        raise RuleViolation(
            "COUNT-07", _("La table %(table)s a déjà un carnet de tickets en service.") % {"table": table.number}
        )
    if not 0 < first_number <= last_number:
        raise ValidationError(_("Indiquez une série de tickets croissante."))
    book = save_audited(
        TicketBook(
            establishment=est,
            table=table,
            cover_number=cover_number,
            ticket_value=amounts.money(ticket_value),
            first_number=first_number,
            last_number=last_number,
            next_number=first_number,
            put_in_service_at=timezone.now(),
        ),
        actor=actor,
        reason="mise en service",
    )
    if est.jurisdiction == "FR":
        stamp = TicketStamp.objects.create(
            book=book,
            kind=TicketStamp.Kind.IN_SERVICE,
            first_ticket=first_number,
            stamped_on=timezone.localdate(),
            keeper=actor,
            recorded_at=timezone.now(),
        )
        ticket_stamp_entry(stamp, role=role)
    if est.jurisdiction == "MC":
        with register_language():
            payload = {
                "date": timezone.localdate().isoformat(),
                "seance": "",
                "table": table.number,
                "event": str(_("Carnet de tickets mis en service")),
                "tickets": f"{cover_number} : n° {first_number} à {last_number} × {book.ticket_value} €",
                "signed_by": f"{display_name(actor)} ({Role(role).label})",
            }
        _cagnotte_write(table, actor=actor, role=role, payload=payload)
    return book
