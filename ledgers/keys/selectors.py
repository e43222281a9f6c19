"""Reads on keys: what is out, what is late, what is still out after its purpose closed, who
held which key when, and the sanity report."""

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, reduce
from operator import or_

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import BooleanField, ExpressionWrapper, F, FilteredRelation, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.models import Establishment, Location, Membership, Seance
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.roles import DIRECTORATE, Role

from .models import Key, KeyInventory, KeyIssue
from .policy import SENSITIVE, LockType, rule_for
from .purposes import PURPOSES, PurposeType, get_purpose_type, purpose_types

INVENTORY_PERIOD = datetime.timedelta(days=92)  # quarterly blind inventory
DIRECTION = frozenset({*DIRECTORATE, Role.DIRECTEUR_EXPLOITATION})


def keys_of(est: Establishment) -> QuerySet[Key]:
    return Key.objects.filter(establishment=est).select_related("home", "custodian")


def place_names(est: Establishment) -> dict[str, str]:
    """The establishment's places, name by code: a key's asset list may name one (the card cabinet)."""
    return dict(Location.objects.filter(establishment=est).values_list("code", "name"))


def assets_text(assets: Iterable[str], places: Mapping[str, str]) -> str:
    """The assets a key serves as people name them: a place by its name, a machine or a socle by
    its number."""
    return ", ".join(places.get(ref, ref) for ref in assets)


def _issues() -> QuerySet[KeyIssue]:
    return KeyIssue.objects.select_related("key", "holder", "issued_by", "returned_by", "received_by")


def issues_of(est: Establishment) -> QuerySet[KeyIssue]:
    return _issues().filter(key__establishment=est)


def _out(issues: QuerySet[KeyIssue]) -> QuerySet[KeyIssue]:
    return issues.filter(returned_at__isnull=True).order_by("due_at")


def out_issues(est: Establishment) -> QuerySet[KeyIssue]:
    return _out(issues_of(est))


def purpose_open(issue: KeyIssue) -> bool:
    kind = get_purpose_type(issue.purpose_type)
    obj = kind.get(issue.purpose_id) if kind else None
    return obj is not None and kind.is_open(obj)


def purpose_still_open(est: Establishment | OuterRef, kinds: Iterable[PurposeType]) -> ExpressionWrapper:
    """``purpose_open`` as an expression of a query on hand-overs: the open objects of every purpose
    type of ``kinds`` in ``est`` (the house, or a reference to the hand-overs' own), read in that
    same query."""
    still_open = reduce(
        or_, (Q(purpose_type=kind.code, purpose_id__in=kind.open_for_keys(est).values("pk")) for kind in kinds)
    )
    return ExpressionWrapper(still_open, output_field=BooleanField())


@cache
def _out_with_facts(codes: tuple[str, ...]) -> Prepared[KeyIssue]:
    """The keys out of a house (``Bound`` "house"), each with its house's last séance closing and
    whether its purpose (of the types ``codes``) is still open, compiled once for those purposes:
    they name no house, and compiling their subqueries for every read costs more than running them."""
    kinds = [PURPOSES.get(code) for code in codes]
    house = OuterRef("key__establishment")
    closings = Seance.objects.filter(establishment=house, status=Seance.Status.CLOSED).order_by("-closed_at")
    out = _out(_issues()).annotate(
        last_closing=Subquery(closings.values("closed_at")[:1]), purpose_open=purpose_still_open(house, kinds)
    )
    return Prepared(out.filter(key__establishment=Bound("house")))


@dataclass(frozen=True)
class KeyException:
    issue: KeyIssue
    code: str  # the catalogue row the flag reports
    reason: str
    late_by: datetime.timedelta | None  # how long past its due time, None when not late

    @property
    def late_label(self) -> str:
        if self.late_by is None:
            return ""
        minutes = int(self.late_by.total_seconds() // 60)
        days, rest = divmod(minutes, 24 * 60)
        hours, minutes = divmod(rest, 60)
        return f"{days} j {hours:02d} h {minutes:02d}" if days else f"{hours} h {minutes:02d}"


def _flag_code(est: Establishment, issue: KeyIssue) -> str:
    rule = rule_for(est, issue.key.lock_type)
    return rule.giver_code or rule.code


def out_at_closing(est: Establishment) -> list[KeyIssue]:
    """Machine keys still out with the mechanics (KEY-05: those the superviseurs hand over): the
    séance's closing flags them, and they stay flagged once it closed without them."""
    return [issue for issue in out_issues(est) if _held_past_closing(est, issue)]


def _held_past_closing(est: Establishment, issue: KeyIssue) -> bool:
    return rule_for(est, issue.key.lock_type).giver_code == "KEY-05"


def exceptions(
    est: Establishment, *, now: datetime.datetime | None = None, lock_types: frozenset[str] | None = None
) -> list[KeyException]:
    """Every key out past its due time (with how late), still out after its purpose closed
    (KEY-02 for socle and bill-box release keys, KEY-05 for machine keys), or a machine key still
    out when a séance closed (KEY-05); latest due first."""
    now = now or timezone.now()
    # The last closing read with the keys out, in the same query.
    out = _out_with_facts(tuple(kind.code for kind in purpose_types())).read(house=est.pk)
    at_closing = {
        issue.pk
        for issue in out
        if issue.last_closing and issue.issued_at < issue.last_closing and _held_past_closing(est, issue)
    }
    if lock_types is not None:
        out = [issue for issue in out if issue.key.lock_type in lock_types]
    found = []
    for issue in out:
        late = now - issue.due_at if issue.due_at < now else None
        closed = not issue.purpose_open
        if late is None and not closed and issue.pk not in at_closing:
            continue
        reasons = [
            str(_("en retard")) if late else "",
            str(_("objet clos, clé non rendue")) if closed else "",
            str(_("encore sortie à la clôture de la séance")) if issue.pk in at_closing else "",
        ]
        found.append(KeyException(issue, _flag_code(est, issue), " ; ".join(filter(None, reasons)), late))
    return sorted(found, key=lambda e: e.issue.due_at)


def concerned_lock_types(user: AbstractBaseUser, est: Establishment) -> frozenset[str] | None:
    """The lock types whose late keys concern ``user``: every one for the Direction (None), those
    it hands over or keeps for a custodian, nothing for the others."""
    held = roles_of(user, est)
    if held & DIRECTION:
        return None
    types = {lt for lt in LockType.values if held & set(rule_for(est, lt).givers)}
    types |= set(Key.objects.filter(establishment=est, custodian=user).values_list("lock_type", flat=True))
    return frozenset(types)


def _serving(keys: QuerySet[Key], asset_ref: str) -> list[Key]:
    """The keys among ``keys`` whose asset list names ``asset_ref``."""
    return [key for key in keys.filter(asset_ref__contains=asset_ref.strip()) if asset_ref.strip() in key.assets]


def holdings(
    est: Establishment, *, start: datetime.datetime, end: datetime.datetime, key: Key | None = None, asset_ref: str = ""
) -> QuerySet[KeyIssue]:
    """Who held which key when: every hand-over overlapping [start, end], per key or per asset."""
    found = issues_of(est).filter(issued_at__lte=end).filter(Q(returned_at__isnull=True) | Q(returned_at__gte=start))
    if key is not None:
        found = found.filter(key=key)
    if asset_ref:
        found = found.filter(key__in=[k.pk for k in _serving(keys_of(est), asset_ref)])
    return found.order_by("issued_at")


@dataclass(frozen=True)
class Sanity:
    several_sensitive: list[tuple[AbstractBaseUser, list[KeyIssue]]]
    no_holder_left: list[Key]
    last_inventory: KeyInventory | None
    inventory_due: bool


def sanity(est: Establishment, *, now: datetime.datetime | None = None) -> Sanity:
    """One person holding several sensitive keys at once; keys nobody may hold any more (no member
    left in a holder role, or a custodian no longer a member); the last blind inventory with its
    differences, and whether the quarterly one is due."""
    now = now or timezone.now()
    by_holder: dict[int, list[KeyIssue]] = defaultdict(list)
    for issue in out_issues(est).filter(key__lock_type__in=SENSITIVE):
        by_holder[issue.holder_id].append(issue)
    several = [(issues[0].holder, issues) for issues in by_holder.values() if len(issues) > 1]
    members = defaultdict(set)
    for user_id, role in Membership.objects.filter(establishment=est).values_list("user_id", "role"):
        members[role].add(user_id)
    no_holder = []
    for key in keys_of(est).exclude(status=Key.Status.RETIRED):
        holders = rule_for(est, key.lock_type).holders
        if holders and not any(members[r] for r in holders):
            no_holder.append(key)
        elif key.custodian_id and key.custodian_role and key.custodian_id not in members[key.custodian_role]:
            no_holder.append(key)
    last = KeyInventory.objects.filter(establishment=est).first()
    return Sanity(several, no_holder, last, last is None or now - last.counted_at > INVENTORY_PERIOD)


def socle_surrendered(est: Establishment, socle_ref: str) -> bool:
    """Whether the lock and key of socle ``socle_ref`` went to the caissier principal (KEY-07): the
    slots app asks before it sets the socle "out of operation"."""
    return Key.objects.filter(establishment=est, surrenders__socle_ref=socle_ref).exists()


def lock_keys(est: Establishment, asset_ref: str) -> dict[str, list[Key]]:
    """The keys in service for an asset, by lock type: the slots app checks a bill box's security
    lock (KEY-09, SLOT-12) and a French machine's upper, lower and device locks (KEY-12) with it."""
    found: dict[str, list[Key]] = defaultdict(list)
    for key in _serving(keys_of(est).filter(status=Key.Status.IN_SERVICE), asset_ref):
        found[key.lock_type].append(key)
    return dict(found)


def cabinet_key(est: Establishment, location_code: str = "") -> Key | None:
    """The card cabinet's key in service (KEY-11): the one whose asset list names the cabinet
    ``location_code``, or one with no asset list (it opens the establishment's cabinet)."""
    for key in keys_of(est).filter(lock_type=LockType.CARD_CABINET, status=Key.Status.IN_SERVICE).order_by("pk"):
        if not location_code or not key.assets or location_code in key.assets:
            return key
    return None


def cabinet_key_holder(est: Establishment, location_code: str = "") -> AbstractBaseUser | None:
    """Who holds the card cabinet's key in service now (``holder_now`` of ``cabinet_key``), read
    in one query with the copy out and its holder; None when no such key is registered."""
    keys = (
        keys_of(est)
        .filter(lock_type=LockType.CARD_CABINET, status=Key.Status.IN_SERVICE)
        .annotate(out=FilteredRelation("issues", condition=Q(issues__returned_at__isnull=True)))
        .select_related("out__holder")
        .order_by("pk", F("out__issued_at").desc(nulls_last=True))
    )
    for key in keys:
        if not location_code or not key.assets or location_code in key.assets:
            out = getattr(key, "out", None)  # no copy out: the relation is left unset
            return out.holder if out is not None else key.custodian
    return None


def holder_now(key: Key) -> AbstractBaseUser | None:
    """Who has the key now: the holder of a copy out, else its custodian. The cards app names the
    card cabinet's key holder on each issue, return and verification with it (KEY-11: CARD-29,
    CARD-34, CARD-37)."""
    out = key.issues.filter(returned_at__isnull=True).select_related("holder").order_by("-issued_at").first()
    return out.holder if out is not None else key.custodian
