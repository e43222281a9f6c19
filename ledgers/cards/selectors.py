"""Reads of the card domain: what is where, what waits for whom, the stock statement and the
exceptions report (the FLAG checks of the catalogue)."""

import datetime
from collections import Counter
from dataclasses import dataclass, field

from django.contrib.contenttypes.models import ContentType
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.models import Establishment, Location, Seance, TableSession
from ledgers.core.prepared import Bound, of_model
from ledgers.custody.models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    DepotDay,
    DestructionItem,
    DestructionSession,
    ItemStatus,
    PurchaseOrder,
    StockVerification,
)
from ledgers.custody.selectors import book_stock, intake_registers, located_stock
from ledgers.incidents.models import Incident, IncidentSubject
from ledgers.registers.kinds import get_kind
from ledgers.registers.models import EntryKind, Register

from .domains import CARDS
from .models import CardEvent, CardExchange, CardUnit, ReplacementSixain
from .registers import CARDS_IN_SERVICE

CONTROL_KINDS = (CardEvent.Kind.FIRST_CONTROL, CardEvent.Kind.POST_CONTROL, CardEvent.Kind.PAE_PREPARATION)


def units_of(establishment: Establishment | Bound) -> QuerySet[CardUnit]:
    return CardUnit.objects.filter(establishment=establishment).select_related(
        "location", "supplier", "table_session__table", "table_session__seance", "parent__location"
    )


def units_at(session: TableSession) -> QuerySet[CardUnit]:
    """The units issued to a table session: whole sixains, huitains and decks, and the decks of a
    sixain issued on their own (the decks that follow their sixain are not counted twice)."""
    return (
        CardUnit.objects.filter(table_session=session)
        .exclude(parent__table_session=session)
        .select_related("parent", "table_session__table")
        .order_by("serial")
    )


def last_event(unit: CardUnit, kinds: tuple[str, ...]) -> CardEvent | None:
    return CardEvent.objects.filter(unit=unit, kind__in=kinds).order_by("-at", "-pk").first()


def controlled_since_return(unit: CardUnit) -> bool:
    """A control (first, post-séance, or the PAE preparation) after the last return of the unit
    or of its sixain (CARD-14)."""
    ids = [unit.pk, unit.parent_id] if unit.parent_id else [unit.pk]
    back = CardEvent.objects.filter(unit_id__in=ids, kind=CardEvent.Kind.RETURN).order_by("-at", "-pk").first()
    controls = CardEvent.objects.filter(unit_id__in=ids, kind__in=CONTROL_KINDS, ok=True)
    if back is not None:
        controls = controls.filter(Q(at__gt=back.at) | Q(at=back.at, pk__gt=back.pk))
    return controls.exists()


def pae_prepared_since_return(unit: CardUnit) -> CardEvent | None:
    back = last_event(unit, (CardEvent.Kind.RETURN,))
    preps = CardEvent.objects.filter(unit=unit, kind=CardEvent.Kind.PAE_PREPARATION, ok=True)
    if back is not None:
        preps = preps.filter(at__gt=back.at)
    for prep in preps.order_by("-at"):
        if prep.details.get("video_reference"):
            return prep
    return None


def unreconciled_exchanges(unit: CardUnit) -> QuerySet[CardExchange]:
    ids = {unit.pk, *unit.members.values_list("pk", flat=True)}
    if unit.parent_id:
        ids.add(unit.parent_id)
    return CardExchange.objects.filter(
        Q(table_unit_id__in=ids) | Q(replacement_unit_id__in=ids), reconciled_at__isnull=True
    )


def open_exchanges(establishment: Establishment | Bound) -> QuerySet[CardExchange]:
    """Card exchanges not yet reconciled (CARD-16)."""
    return CardExchange.objects.filter(establishment=establishment, reconciled_at__isnull=True)


def replacement_for(seance: Seance, room_id: int) -> ReplacementSixain | None:
    return ReplacementSixain.objects.filter(seance=seance, room_id=room_id).select_related("unit").first()


def main_depot(establishment: Establishment) -> Location | None:
    """Where withdrawn units go: MC the main depot (CARD-17), FR the card cabinet (CARD-39)."""
    kind = "depot_principal" if establishment.jurisdiction == "MC" else "card_cabinet"
    return Location.objects.filter(establishment=establishment, kind=kind, active=True).order_by("code").first()


def live_sessions(establishment: Establishment) -> QuerySet[TableSession]:
    return (
        TableSession.objects.filter(seance__establishment=establishment)
        .exclude(status=TableSession.Status.CLOSED)
        .select_related("table", "seance")
        .order_by("table__number")
    )


def card_incidents(establishment: Establishment | Bound) -> QuerySet[Incident]:
    return (
        Incident.objects.filter(
            of_model(CardUnit, "subjects__content_type"), establishment=establishment, status=Incident.Status.OPEN
        )
        .distinct()
        .order_by("-found_at")
    )


def under_open_incident(establishment: Establishment) -> QuerySet[IncidentSubject]:
    """The card units an open incident of the establishment names (its quarantine)."""
    return IncidentSubject.objects.filter(
        incident__establishment=establishment,
        incident__status=Incident.Status.OPEN,
        # by its natural key, joined: no lookup of its id before a process's first movement
        content_type__app_label=CardUnit._meta.app_label,
        content_type__model=CardUnit._meta.model_name,
    )


# --- The cartier's day, the inspecteur's queue --------------------------------------------------


@dataclass
class TableCards:
    session: TableSession
    units: list[CardUnit]
    controlled: set[int] = field(default_factory=set)


def out_at_tables(establishment: Establishment) -> list[TableCards]:
    """What is out: the units at every live table session, and which passed their table control."""
    rows = []
    for session in live_sessions(establishment):
        units = list(units_at(session))
        if not units:
            continue
        done = set(
            CardEvent.objects.filter(
                table_session=session,
                ok=True,
                kind__in=(CardEvent.Kind.SECOND_CONTROL, CardEvent.Kind.PAE_CONFIRMATION),
            ).values_list("unit_id", flat=True)
        )
        rows.append(TableCards(session, units, done))
    return rows


def awaiting_control(establishment: Establishment | Bound) -> QuerySet[CardUnit]:
    return units_of(establishment).filter(status=ItemStatus.AWAITING_CONTROL, parent__isnull=True)


def awaiting_destruction(establishment: Establishment | Bound) -> QuerySet[CardUnit]:
    """Withdrawn units not yet in a planned destruction session."""
    planned = DestructionItem.objects.filter(
        session__establishment=establishment,
        session__status=DestructionSession.Status.PLANNED,
        # by its natural key, joined: no lookup of its id before a process's first movement
        content_type__app_label=CardUnit._meta.app_label,
        content_type__model=CardUnit._meta.model_name,
    ).values_list("object_id", flat=True)
    return (
        units_of(establishment)
        .filter(status__in=WITHDRAWN_STATUSES, parent__isnull=True, table_session__isnull=True)
        .exclude(pk__in=planned)
    )


def destruction_sessions(establishment: Establishment) -> QuerySet[DestructionSession]:
    return DestructionSession.objects.filter(establishment=establishment, domain=CARDS.code).select_related(
        "officer", "witness"
    )


def purchase_orders(establishment: Establishment) -> QuerySet[PurchaseOrder]:
    return PurchaseOrder.objects.filter(establishment=establishment, domain=CARDS.code).select_related(
        "supplier", "visa_by"
    )


def card_registers(establishment: Establishment) -> QuerySet[Register]:
    """The registers the card domain writes in: intake, annex ledger, orders, cards in service."""
    return (
        intake_registers(CARDS, establishment)
        | Register.objects.filter(establishment=establishment, kind=CARDS_IN_SERVICE.code)
        | Register.objects.filter(
            establishment=establishment, kind__in=[CARDS.annex_kind, "bons_commande"], qualifier=CARDS.code
        )
    ).order_by("number")


@dataclass
class VisaDue:
    register: Register
    from_seq: int
    up_to_seq: int


def visas_due(establishment: Establishment, roles: set[str]) -> list[VisaDue]:
    """Open card registers with entries after their last visa that one of ``roles`` may visa."""
    due = []
    for register in card_registers(establishment).filter(status=Register.Status.OPEN):
        if not roles & set(get_kind(register.kind).visa_roles_for(establishment.jurisdiction)):
            continue
        last = register.entries.filter(kind=EntryKind.VISA).order_by("-seq").values_list("payload", flat=True).first()
        start = last["covers_seq"] + 1 if last else 1
        if register.head_seq >= start and register.entries.filter(seq__gte=start, kind=EntryKind.RECORD).exists():
            due.append(VisaDue(register, start, register.head_seq))
    return due


# --- Stock statement -------------------------------------------------------------------------


@dataclass
class StockLine:
    place: str
    location_id: int | None
    category: str
    count: int


@dataclass
class StockStatement:
    at: datetime.datetime
    lines: list[StockLine]
    book: dict[str, int]
    located: dict[str, int]
    balanced: bool
    categories: list[tuple[str, str]]

    def by_category(self) -> list[tuple[str, int, int]]:
        """(category label, book, located) of every category."""
        return [(label, self.book.get(code, 0), self.located.get(code, 0)) for code, label in self.categories]

    def by_place(self) -> list[tuple[str, str, int]]:
        """(place, category label, units) of every line."""
        labels = dict(self.categories)
        return [(line.place, labels.get(line.category, line.category), line.count) for line in self.lines]

    def differences(self) -> list[tuple[str, int, int]]:
        cats = sorted(set(self.book) | set(self.located))
        return [
            (c, self.book.get(c, 0), self.located.get(c, 0))
            for c in cats
            if self.book.get(c, 0) != self.located.get(c, 0)
        ]


def stock_statement(establishment: Establishment) -> StockStatement:
    """Book stock (Σ IN − Σ OUT of the intake registers) against the units located in each depot
    and at the tables, per category, computed now (CARD-04, CARD-06, CARD-29)."""
    located = located_stock(CARDS, establishment, include_tables=True)
    names = dict(Location.objects.filter(establishment=establishment).values_list("pk", "name"))
    lines = [
        StockLine(names.get(loc, str(_("En table"))) if loc else str(_("En table")), loc, category, n)
        for (loc, category), n in sorted(
            located.items(), key=lambda kv: (kv[0][0] is None, str(names.get(kv[0][0])), kv[0][1])
        )
    ]
    totals: Counter = Counter()
    for (_loc, category), n in located.items():
        totals[category] += n
    book = {c: n for c, n in book_stock(CARDS, establishment).items() if n}
    located_totals = dict(totals)
    return StockStatement(
        at=timezone.now(),
        lines=lines,
        book=book,
        located=located_totals,
        balanced=book == located_totals,
        categories=CARDS.categories(),
    )


# --- Exceptions (FLAG checks) ------------------------------------------------------------------


@dataclass
class Flag:
    code: str
    text: str
    at: datetime.datetime | None = None
    subject: str = ""
    unit: CardUnit | None = None

    @property
    def article(self) -> str:
        return REQUIREMENTS[self.code].article if self.code in REQUIREMENTS else ""


def exceptions(establishment: Establishment) -> list[Flag]:
    """Everything allowed but reported to inspectors and authorities, newest first."""
    flags: list[Flag] = []
    flags += _stored_flags(establishment)
    flags += _intake_flags(establishment)
    flags += _stock_flags(establishment)
    flags += _unit_flags(establishment)
    flags += _lead_time_flags(establishment)
    flags += _exchange_flags(establishment)
    flags += _notice_flags(establishment)
    if establishment.jurisdiction == "MC":
        flags += _depot_day_flags(establishment)
        flags += _order_flags(establishment)
    epoch = datetime.datetime.min.replace(tzinfo=datetime.UTC)
    return sorted(flags, key=lambda f: f.at or epoch, reverse=True)


def _stored_flags(est: Establishment) -> list[Flag]:
    rows = CardEvent.objects.filter(establishment=est).exclude(flags=[]).select_related("unit")
    return [Flag(f["code"], f["text"], e.at, str(e.unit or ""), e.unit) for e in rows for f in e.flags]


def _intake_flags(est: Establishment) -> list[Flag]:
    flags = []
    for register in intake_registers(CARDS, est):
        for recorded_at, payload in register.entries.filter(kind=EntryKind.RECORD).values_list(
            "recorded_at", "payload"
        ):
            for f in payload.get("flags") or []:
                if f.get("code"):
                    flags.append(Flag(f["code"], f["text"], recorded_at, ", ".join(payload.get("serials", [])[:6])))
    return flags


def _stock_flags(est: Establishment) -> list[Flag]:
    statement = stock_statement(est)
    code = "CARD-04" if est.jurisdiction == "MC" else "CARD-29"
    return [
        Flag(
            code,
            str(
                _("Catégorie « %(cat)s » : stock comptable %(book)s ≠ unités localisées %(located)s.")
                % {"cat": cat, "book": book, "located": located}
            ),
            statement.at,
        )
        for cat, book, located in statement.differences()
    ]


def _unit_flags(est: Establishment) -> list[Flag]:
    flags = []
    code = "CARD-09" if est.jurisdiction == "MC" else "CARD-30"
    for unit in units_of(est).filter(complete=False).exclude(status__in=GONE_STATUSES):
        flags.append(Flag(code, str(_("Unité marquée incomplète.")), unit.completeness_checked_at, str(unit), unit))
    for unit in units_of(est).filter(internal_serial=True, parent__isnull=True).exclude(status__in=GONE_STATUSES):
        flags.append(
            Flag(
                "CARD-02",
                str(_("Unité sans numéro du fabricant : numéro interne (AMB-05).")),
                unit.received_at,
                str(unit),
                unit,
            )
        )
    period = (est.setting("SET-05") or {}).get("destruction_period_days")
    if period:
        limit = timezone.now() - datetime.timedelta(days=period)
        for unit in units_of(est).filter(status__in=WITHDRAWN_STATUSES, withdrawn_at__lt=limit, parent__isnull=True):
            flags.append(
                Flag(
                    "CARD-10",
                    str(_("Hors d'usage depuis plus de %(days)s jours, non détruit.") % {"days": period}),
                    unit.withdrawn_at,
                    str(unit),
                    unit,
                )
            )
    return flags


def _lead_time_flags(est: Establishment) -> list[Flag]:
    """Issues made longer than SET-05 before the table opened (CARD-12 / CARD-34, best practice)."""
    lead = (est.setting("SET-05") or {}).get("issue_lead_minutes")
    if not lead:
        return []
    code = "CARD-12" if est.jurisdiction == "MC" else "CARD-34"
    flags = []
    issues = CardEvent.objects.filter(
        establishment=est, kind=CardEvent.Kind.ISSUE, table_session__opened_at__isnull=False
    ).select_related("unit", "table_session__table")
    for event in issues:
        minutes = (event.table_session.opened_at - event.at).total_seconds() / 60
        if minutes > lead:
            flags.append(
                Flag(
                    code,
                    str(
                        _(
                            "Sortie %(m)s min avant l'ouverture de la table %(table)s (bonne pratique : "
                            "%(lead)s min au plus)."
                        )
                        % {"m": int(minutes), "table": event.table_session.table, "lead": lead}
                    ),
                    event.at,
                    str(event.unit),
                    event.unit,
                )
            )
    return flags


def _exchange_flags(est: Establishment) -> list[Flag]:
    rows = open_exchanges(est).select_related("table_unit", "replacement_unit", "table_session__seance")
    return [
        Flag(
            "CARD-16",
            str(
                _("Échange non rapproché : %(card)s entre %(a)s et %(b)s.")
                % {"card": x.card, "a": x.table_unit, "b": x.replacement_unit}
            ),
            x.exchanged_at,
            str(x.table_unit),
            x.table_unit,
        )
        for x in rows
        if x.table_session.seance.status == Seance.Status.CLOSED
    ]


# The texts say "immediately" / "as soon as possible" and leave the delay to a setting (INC-01,
# INC-13): the establishment's option, else an hour.
NOTICE_OPTION, NOTICE_DEFAULT_MINUTES = "card_incident_notice_minutes", 60


def _notice_flags(est: Establishment) -> list[Flag]:
    """Card incidents whose authority (MC: SCJ, FR: police) was informed late, or not yet."""
    authority, code = ("scj", "INC-01") if est.jurisdiction == "MC" else ("police", "INC-13")
    limit = datetime.timedelta(minutes=est.setting(NOTICE_OPTION) or NOTICE_DEFAULT_MINUTES)
    flags, now = [], timezone.now()
    incidents = (
        Incident.objects.filter(establishment=est, subjects__content_type=ContentType.objects.get_for_model(CardUnit))
        .distinct()
        .prefetch_related("notices")
    )
    for incident in incidents:
        notices = [n.notified_at for n in incident.notices.all() if n.recipient_role == authority]
        informed = min(notices) if notices else None
        if (informed or now) - incident.found_at > limit and (informed or incident.status == Incident.Status.OPEN):
            late = int(((informed or now) - incident.found_at).total_seconds() // 60)
            text = (
                _("%(i)s : autorité informée %(m)s min après la constatation.")
                if informed
                else _("%(i)s : autorité non encore informée, %(m)s min après la constatation.")
            )
            flags.append(Flag(code, str(text % {"i": incident, "m": late}), incident.found_at, str(incident)))
    return flags


def _depot_day_flags(est: Establishment) -> list[Flag]:
    """Days with depot transfers that were not closed before a later séance opened (CARD-05)."""
    try:
        register = Register.objects.get(
            establishment=est, kind=CARDS.annex_kind, qualifier=CARDS.code, status=Register.Status.OPEN
        )
    except (Register.DoesNotExist, Register.MultipleObjectsReturned):
        return []
    days = set()
    for payload in register.entries.filter(kind=EntryKind.RECORD).values_list("payload", flat=True):
        if payload.get("movement") == "TRANSFER":
            days.add(datetime.date.fromisoformat(payload["date"]))
    closed = set(DepotDay.objects.filter(establishment=est, domain=CARDS.code).values_list("date", flat=True))
    flags = []
    for day in sorted(days - closed):
        later = Seance.objects.filter(establishment=est, date__gt=day).order_by("opened_at").first()
        if later is not None:
            flags.append(
                Flag(
                    "CARD-05",
                    str(
                        _("Journée du %(d)s non arrêtée avant la séance du %(s)s.")
                        % {"d": day.strftime("%d/%m/%Y"), "s": later}
                    ),
                    later.opened_at,
                )
            )
    return flags


def _order_flags(est: Establishment) -> list[Flag]:
    """Orders still without the SCJ visa after a later verification (CARD-07)."""
    last = StockVerification.objects.filter(establishment=est, domain=CARDS.code).order_by("-verified_at").first()
    if last is None:
        return []
    return [
        Flag(
            "CARD-07",
            str(
                _("%(order)s non visé lors de la vérification du %(d)s.")
                % {"order": order, "d": last.verified_at.strftime("%d/%m/%Y")}
            ),
            last.verified_at,
        )
        for order in purchase_orders(est).filter(visa_at__isnull=True, issued_at__lt=last.verified_at)
    ]


def events_of(unit: CardUnit) -> QuerySet[CardEvent]:
    return (
        CardEvent.objects.filter(Q(unit=unit) | Q(unit__parent=unit))
        .select_related("actor", "table_session__table", "entry__register")
        .order_by("-at", "-pk")
    )


# --- Choices offered by the forms --------------------------------------------------------------


def issuable_units(establishment: Establishment) -> QuerySet[CardUnit]:
    """Units in a depot that may leave for a table: whole units, and single decks of a sixain."""
    return (
        units_of(establishment)
        .filter(status=ItemStatus.IN_STOCK, table_session__isnull=True)
        .filter(Q(parent__isnull=True) | Q(parent__status=ItemStatus.IN_STOCK, parent__table_session__isnull=True))
        .order_by("serial")
    )


def depot_units(establishment: Establishment) -> QuerySet[CardUnit]:
    """Whole units kept in a depot (not at a table, not gone)."""
    return (
        units_of(establishment)
        .filter(parent__isnull=True, table_session__isnull=True)
        .exclude(status__in=GONE_STATUSES)
        .order_by("serial")
    )


def issued_units(establishment: Establishment | Bound) -> QuerySet[CardUnit]:
    """Units out at live tables, as issued (whole units or single decks)."""
    return (
        units_of(establishment)
        .filter(
            table_session__isnull=False,
            table_session__status__in=[TableSession.Status.PREPARING, TableSession.Status.OPEN],
        )
        .exclude(parent__table_session=F("table_session"))
        .order_by("table_session__table__number", "serial")
    )


def decks_at_tables(establishment: Establishment) -> QuerySet[CardUnit]:
    """Every deck at a live table, single or inside an issued sixain (for a card exchange)."""
    return (
        units_of(establishment)
        .filter(unit_type="jeu", table_session__status__in=[TableSession.Status.PREPARING, TableSession.Status.OPEN])
        .order_by("serial")
    )


def replacement_decks(establishment: Establishment) -> QuerySet[CardUnit]:
    """The designated replacement sixains of open séances and their decks."""
    ids = ReplacementSixain.objects.filter(
        seance__establishment=establishment, seance__status=Seance.Status.OPEN
    ).values_list("unit_id", flat=True)
    return units_of(establishment).filter(Q(pk__in=ids) | Q(parent_id__in=ids)).order_by("serial")


def incidents_of(unit: CardUnit) -> QuerySet[Incident]:
    ids = [unit.pk, *unit.members.values_list("pk", flat=True)]
    return (
        Incident.objects.filter(
            subjects__content_type=ContentType.objects.get_for_model(CardUnit), subjects__object_id__in=ids
        )
        .distinct()
        .order_by("-found_at")
    )
