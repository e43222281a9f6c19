"""Cagnottes: play lines, their computation and their count."""

from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.core.services import table_session_locked
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, register_language

from .. import breakdowns, rules, selectors
from ..models import CagnotteCount, TicketBook
from ..registers import CARNET_CAGNOTTES
from .bbj import _difference_incident
from .common import _cagnotte_write, _session_fields
from .table_cagnottes import require_in_service

# Who checks the tickets and opens the cagnotte: FR the directeur responsable or a comité member,
# never anyone else (art. 56-2, 71); MC the inspecteur or the Direction des Jeux, an SCJ agent
# possibly present (art. 11.7).
CAGNOTTE_CONTROLLERS = {
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
    "MC": (Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX, Role.SCJ),
}


def _cagnotte_entry(session: TableSession, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    with register_language():
        body = {**_session_fields(session), **payload, "signed_by": f"{display_name(actor)} ({Role(role).label})"}
    if session.table.establishment.jurisdiction == "FR":  # modèle 11 col. 2: the opening time of the partie (art. 71)
        est = session.table.establishment
        body["col2"] = est.localtime(session.opened_at).strftime("%H:%M") if session.opened_at else ""
    return _cagnotte_write(session.table, actor=actor, role=role, payload=body)


PLAY_LINES = {
    "interruption": _("Interruption du jeu"),
    "resumption": _("Reprise du jeu"),
    "new_book": _("Nouveau carnet de tickets"),
}


@transaction.atomic
def cagnotte_play_line(
    *, session: TableSession, line: str, actor: AbstractBaseUser, book: TicketBook | None = None
) -> Entry:
    """FR modèle 11 during play (art. 71, COUNT-52): the times of interruption and resumption, and
    the value and number of the first ticket of each new book put into use at the table."""
    session = table_session_locked(session)
    est, table = session.seance.establishment, session.table
    if est.jurisdiction != "FR" or line not in PLAY_LINES:
        raise ValidationError(_("Ligne de carnet modèle 11 inconnue."))
    role = require_role(actor, est, CARNET_CAGNOTTES.record_roles)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Ces lignes s'inscrivent pendant la partie."))
    lines = [
        e.payload["line"]
        for e in Entry.objects.filter(
            register__establishment=est,
            register__kind=CARNET_CAGNOTTES.code,
            payload__table_session=session.pk,
            payload__line__in=["interruption", "resumption"],
        ).order_by("register_id", "seq")
    ]
    interrupted = bool(lines) and lines[-1] == "interruption"
    if line != "new_book" and interrupted == (line == "interruption"):
        raise ValidationError(_("Le jeu est déjà interrompu.") if interrupted else _("Le jeu n'est pas interrompu."))
    tickets = ""
    if line == "new_book":
        if book is None:
            raise RuleViolation("COUNT-52", _("Indiquez le nouveau carnet : valeur et numéro de son premier ticket."))
        book = TicketBook.objects.get(pk=book.pk)
        if book.table_id != table.pk:
            raise RuleViolation("COUNT-39", _("Le carnet %(book)s est affecté à une autre table.") % {"book": book})
        tickets = f"{book.cover_number} : {book.ticket_value} € n° {book.next_number}"
    with register_language():
        payload = {
            "line": line,
            "event": str(PLAY_LINES[line]),
            "tickets": tickets,
            "certification": str(
                _("%(event)s à %(time)s") % {"event": PLAY_LINES[line], "time": est.localtime().strftime("%H:%M")}
            ),
        }
    return _cagnotte_entry(session, actor=actor, role=role, payload=payload)


@transaction.atomic
def cagnotte_compute(*, session: TableSession, detached: Sequence[dict], actor: AbstractBaseUser) -> CagnotteCount:
    """Before the cagnotte is opened, the tickets detached from each book (its next ticket up to
    ``last_number``) give the sum it must hold (col. 8): MC the ticket-book check (COUNT-08), FR
    cols. 4 to 8 on the carnet itself, before the directeur responsable or a comité member (COUNT-52)."""
    session = table_session_locked(session)
    est, table = session.seance.establishment, session.table
    fr = est.jurisdiction == "FR"
    code = "COUNT-52" if fr else "COUNT-08"
    role = role_named_by_text(
        actor,
        est,
        CAGNOTTE_CONTROLLERS[est.jurisdiction],
        code,
        _(
            "Les tickets sont vérifiés et la cagnotte calculée en présence du directeur responsable ou d'un membre du "
            "comité de direction."
        )
        if fr
        else _("Le carnet de tickets est vérifié par l'inspecteur ou la Direction des Jeux."),
    )
    if session.status != TableSession.Status.CLOSED:
        raise ValidationError(_("La cagnotte se calcule à la fin de la partie."))
    if CagnotteCount.objects.filter(table_session=session).exists():
        raise ValidationError(_("La cagnotte de cette partie est déjà calculée."))
    if fr and table.game == "baccara_deux_tableaux" and not session.banker_segments.exists():
        raise RuleViolation(
            "COUNT-54", _("Baccara à deux tableaux : le nom du banquier est inscrit au carnet au début de la séance.")
        )
    if fr and selectors.uses_levy_machine(table):
        raise RuleViolation(
            "COUNT-41",
            _(
                "La table %(table)s enregistre ses retenues sur une machine agréée : la "
                "cagnotte calculée est le total de son historique."
            )
            % {"table": table.number},
        )
    if fr:
        require_in_service(table)
    tickets, computed = [], Decimal("0.00")
    for line in detached:
        book = TicketBook.objects.select_for_update().get(pk=getattr(line["book"], "pk", line["book"]))
        if book.table_id != table.pk:
            raise RuleViolation(
                "COUNT-39" if fr else "COUNT-07",
                _("Le carnet %(book)s est affecté à une autre table.") % {"book": book},
            )
        last = int(line["last_number"])
        if fr and last >= book.next_number and selectors.seance_stamp_missing(book):
            raise RuleViolation(
                "COUNT-40",
                _(
                    "Carnet %(book)s : le ticket n° %(first)s, premier de la séance, n'a pas reçu "
                    "le timbre à date et le "
                    "trait bleu de l'employé chargé des carnets."
                )
                % {"book": book, "first": book.next_number},
            )
        if not book.next_number - 1 <= last <= book.last_number:
            raise ValidationError(
                _("Carnet %(book)s : le dernier ticket détaché est entre le n° %(first)s et le n° %(last)s.")
                % {"book": book, "first": book.next_number - 1, "last": book.last_number}
            )
        count = last - book.next_number + 1
        amount = book.ticket_value * count
        tickets.append(
            {
                "book": book.cover_number,
                "value": str(book.ticket_value),
                "first": book.next_number,
                "last": last,
                "tickets": count,
                "amount": str(amount),
            }
        )
        computed += amount
        book.next_number = last + 1
        if book.next_number > book.last_number:
            book.finished_on = session.seance.date  # the only mention on the cover (art. 56-1)
        save_audited(book, actor=actor, reason="tickets détachés")
    if not tickets:
        # The levies are evidenced by the tickets detached from each book, and by nothing else: the
        # count is compared with their value, never with a sum keyed by hand (COUNT-09, COUNT-38).
        raise RuleViolation(
            "COUNT-38" if fr else "COUNT-09",
            _(
                "Indiquez les tickets détachés de chaque carnet : leur valeur est la somme que la "
                "cagnotte doit contenir."
            ),
        )
    cagnotte = save_audited(
        CagnotteCount(
            table_session=session, tickets=tickets, computed=computed, computed_by=actor, computed_at=timezone.now()
        ),
        actor=actor,
        reason="calcul de la cagnotte",
    )
    with register_language():
        payload = {
            "event": str(_("Vérification des tickets et calcul de la cagnotte")),
            "col8": str(computed),
            "tickets": " ; ".join(
                f"{t['book']} n° {t['first']} à {t['last']} : {t['tickets']} × {t['value']} €" for t in tickets
            ),
        }
    _cagnotte_entry(session, actor=actor, role=role, payload=payload)
    return cagnotte


@transaction.atomic
def cagnotte_count(
    *,
    session: TableSession,
    breakdown: Iterable[dict],
    actor: AbstractBaseUser,
    words: str = "",
    balancing_ticket: int | None = None,
) -> CagnotteCount:
    """Open and count the cagnotte (col. 9), only once its computation exists (COUNT-08, COUNT-52),
    FR by the directeur responsable or a comité member who writes "certifié exact" (COUNT-43). A
    surplus is balanced by tickets detached (col. 13), a shortfall is borne by the casino's cash
    desk; the higher of cols. 8 and 9 is carried (col. 15), table by table (COUNT-53, INC-17)."""
    session = TableSession.objects.select_related("seance", "table").get(pk=session.pk)
    est = session.seance.establishment
    fr = est.jurisdiction == "FR"
    role = role_named_by_text(
        actor,
        est,
        CAGNOTTE_CONTROLLERS[est.jurisdiction],
        "COUNT-43" if fr else "COUNT-08",
        _(
            "Une cagnotte n'est ouverte et comptée qu'en présence du directeur responsable ou d'un membre du comité de "
            "direction."
        )
        if fr
        else _("La cagnotte est comptée sous le contrôle de l'inspecteur ou de la Direction des Jeux."),
    )
    cagnotte = CagnotteCount.objects.select_for_update().filter(table_session=session).first()
    # The count waits for the value of the tickets detached, computed per book (COUNT-09).
    if cagnotte is None:
        raise RuleViolation(
            "COUNT-52" if fr else "COUNT-08",
            _(
                "Aucune cagnotte n'est ouverte avant la vérification des tickets détachés et le "
                "calcul de la somme qu'elle "
                "doit contenir."
            ),
        )
    if cagnotte.status == CagnotteCount.Status.COUNTED:
        raise ValidationError(_("Cette cagnotte est déjà comptée."))
    words = " ".join(words.lower().split())
    if fr and words != "certifié exact":
        raise RuleViolation(
            "COUNT-43", _("Le comptage est certifié par la mention « certifié exact » suivie de la signature.")
        )
    lines = breakdowns.clean_breakdown(breakdown)
    counted = breakdowns.breakdown_total(lines)
    surplus = max(counted - cagnotte.computed, Decimal("0.00"))
    shortfall = max(cagnotte.computed - counted, Decimal("0.00"))
    if surplus and fr and balancing_ticket is None:
        raise RuleViolation(
            "COUNT-53",
            _(
                "Excédent de %(surplus)s € : détachez les tickets d'équilibre et inscrivez "
                "le numéro du dernier (col. 13)."
            )
            % {"surplus": euros(surplus)},
        )
    cagnotte.counted, cagnotte.breakdown, cagnotte.surplus, cagnotte.shortfall = counted, lines, surplus, shortfall
    cagnotte.balancing_ticket = balancing_ticket if surplus else None
    cagnotte.retained = max(counted, cagnotte.computed)
    cagnotte.status, cagnotte.counted_by, cagnotte.counted_at = CagnotteCount.Status.COUNTED, actor, timezone.now()
    cagnotte.certification = words or "vu"
    save_audited(cagnotte, actor=actor, reason="comptage de la cagnotte")
    if surplus or shortfall:
        _difference_incident(
            session,
            rules.CAGNOTTE_DIFFERENCE.code,
            actor=actor,
            text=_("Cagnotte de la table %(table)s : comptée %(counted)s €, calculée %(computed)s € (col. 9 ≠ col. 8).")
            % {"table": session.table.number, "counted": counted, "computed": cagnotte.computed},
        )
    # The pots' rakes recorded at the table go into this cagnotte: the count that differs from
    # their sum is flagged (COUNT-18, COUNT-19).
    raked = selectors.pot_rakes_total(session)
    with register_language():
        notes = []
        if raked is not None and raked != counted:
            notes.append(
                str(
                    _("Retenues inscrites pot par pot : %(raked)s € ; cagnotte comptée : %(counted)s €.")
                    % {"raked": raked, "counted": counted}
                )
            )
        if shortfall:
            notes.append(
                str(_("Manquant de %(amount)s € supporté par la caisse de l'établissement.") % {"amount": shortfall})
            )
        payload = {
            "event": str(_("Comptage de la cagnotte")),
            "col8": str(cagnotte.computed),
            "col9": str(counted),
            "col10": str(surplus) if surplus else "",
            "col11": str(shortfall) if shortfall else "",
            "col13": balancing_ticket if surplus else None,
            "col15": str(cagnotte.retained),
            "difference": str(counted - cagnotte.computed),
            "breakdown": breakdowns.breakdown_text(lines),
            "pot_rakes": str(raked) if raked is not None else None,
            "certification": " ".join([cagnotte.certification, *notes]),
        }
    _cagnotte_entry(session, actor=actor, role=role, payload=payload)
    return cagnotte
