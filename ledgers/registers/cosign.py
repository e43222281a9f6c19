"""Each register's sealed head as a C2SP checkpoint, cosigned by the witnesses the regulator runs
(docs/ledger-format.md §14, docs/operations.md §10).

A register is a transparency log: its origin is ``LEDGERS_LOG_ORIGIN/<register number>``, its
tree the Merkle tree over its entries (trees.py), and its checkpoint a signed note
(c2sp.org/tlog-checkpoint) signed with the sealing key under the key name ``LEDGERS_LOG_ORIGIN``
when the tree head that signs its root is sealed (treeheads.py). At every seal each configured
witness (``LEDGERS_WITNESSES``) is sent that note for the newest head of each register it has not
cosigned yet, with a consistency proof from the last head it cosigned
(c2sp.org/tlog-witness); its cosignature is kept (``Cosignature``). A witness that is down stops
nothing: the next seal catches up. Verification recomputes each cosigned root from the entries,
checks the cosignatures with the witnesses' public keys, and fails when a sealed head has waited
longer than ``LEDGERS_WITNESS_MAX_DELAY_MINUTES`` for a witness's cosignature."""

import base64
import hashlib
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from witness import note

from . import merkle, trees
from .chain import format_timestamp
from .models import Checkpoint, Cosignature, Entry, Register, TreeHead
from .signing import signing_key
from .treeheads import checkpoint_signature, log_origin, register_checkpoint
from .verification import Finding

logger = logging.getLogger("ledgers.checkpoints")
HTTP_ERRORS = (urllib.error.URLError, TimeoutError, ConnectionError)


@dataclass(frozen=True)
class Witness:
    url: str
    verifier: note.Verifier

    @property
    def name(self) -> str:
        return self.verifier.name


def witnesses() -> list[Witness]:
    return [Witness(item["url"].rstrip("/"), note.parse_vkey(item["vkey"])) for item in settings.LEDGERS_WITNESSES]


def log_vkey() -> str:
    """The casino's log key as a verifier key (c2sp.org/signed-note), for the witness's add-log."""
    public = note.raw_public(signing_key().public_key())
    return str(note.Verifier(settings.LEDGERS_LOG_ORIGIN, note.ED25519, public))


@dataclass
class Outcome:
    """What one witness answered for one register's head."""

    register: str
    witness: str
    size: int
    status: str  # "cosigned", "unreachable" or "refused"
    detail: str = ""


@dataclass
class _Client:
    witness: Witness
    timeout: float
    down: bool = False

    def post(self, body: str) -> tuple[int, str]:
        request = urllib.request.Request(
            f"{self.witness.url}/add-checkpoint",
            data=body.encode("utf-8"),
            method="POST",
            headers={"Content-Type": "text/plain; charset=utf-8"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")


def _body(register: Register, old: int, size: int, checkpoint: str) -> str:
    proof = trees.consistency(register, old, size) if 0 < old < size else []
    return f"old {old}\n" + "".join(f"{base64.b64encode(h).decode()}\n" for h in proof) + "\n" + checkpoint


def _ask(client: _Client, register: Register, checkpoint: Checkpoint, head: TreeHead) -> Outcome:
    witness = client.witness
    signed_head = register_checkpoint(register, head)
    text, root = signed_head.text, signed_head.root
    signature = head.notes.get(register.number) or checkpoint_signature(text)  # heads sealed before notes were kept
    signed = f"{text}\n{note.DASH} {settings.LEDGERS_LOG_ORIGIN} {signature}\n"
    last = (
        Cosignature.objects.filter(
            checkpoint__register=register, witness=witness.name, checkpoint__seq__lte=checkpoint.seq
        )
        .order_by("-checkpoint__seq")
        .values_list("checkpoint__seq", flat=True)
        .first()
    )
    old = last or 0
    status, answer = client.post(_body(register, old, checkpoint.seq, signed))
    if status == 409 and answer.strip().isdigit() and int(answer) != old:
        # The witness cosigned a head this database does not hold the cosignature of (an answer
        # lost on the way, or rows gone): prove the new head from the witness's own size.
        old = int(answer)
        if old > checkpoint.seq:
            return Outcome(register.number, witness.name, checkpoint.seq, "refused", f"the witness holds size {old}")
        status, answer = client.post(_body(register, old, checkpoint.seq, signed))
    if status != 200:
        return Outcome(register.number, witness.name, checkpoint.seq, "refused", f"{status} {answer.strip()}")
    for line in answer.splitlines(keepends=True):
        timestamp = note.cosignature_time(text, line, witness.verifier)
        if timestamp is not None:
            Cosignature.objects.bulk_create(
                [
                    Cosignature(
                        checkpoint=checkpoint,
                        witness=witness.name,
                        key_id=witness.verifier.id.hex(),
                        root=root.hex(),
                        signed_at=datetime.fromtimestamp(timestamp, tz=UTC),
                        signature=line.split(" ")[2].strip(),
                        received_at=timezone.now(),
                    )
                ],
                ignore_conflicts=True,  # two seals at once: the second cosignature is not kept
            )
            return Outcome(register.number, witness.name, checkpoint.seq, "cosigned")
    return Outcome(register.number, witness.name, checkpoint.seq, "refused", "no valid cosignature in the answer")


def cosignatures_request(*, registers: QuerySet[Register] | None = None) -> list[Outcome]:
    """Ask every configured witness to cosign the newest sealed head of each register (of
    ``registers``, default all) that it has not cosigned yet, as its establishment's newest tree
    head signs it (a head not yet in a tree head waits for the next seal). A system act, after
    each seal. A witness that cannot be reached is not asked again in this run."""
    outcomes, heads = [], {}
    newest = Checkpoint.objects.filter(register=OuterRef("pk")).order_by("-seq").values("pk")[:1]
    sealed = (Register.objects.all() if registers is None else registers).annotate(head=Subquery(newest))
    timeout = settings.LEDGERS_WITNESS_TIMEOUT_SECONDS
    for client in (_Client(w, timeout) for w in witnesses()):
        done = Cosignature.objects.filter(witness=client.witness.name).values("checkpoint_id")
        pending = sealed.filter(head__isnull=False).exclude(head__in=done).order_by("number")
        for register in pending:
            checkpoint = Checkpoint.objects.get(pk=register.head)
            if register.establishment_id not in heads:
                heads[register.establishment_id] = (
                    TreeHead.objects.filter(establishment_id=register.establishment_id).order_by("-number").first()
                )
            head = heads[register.establishment_id]
            signed_head = register_checkpoint(register, head) if head else None
            if signed_head is None or signed_head.size != checkpoint.seq:
                continue
            try:
                outcome = _ask(client, register, checkpoint, head)
            except HTTP_ERRORS as exc:
                outcomes.append(Outcome(register.number, client.witness.name, checkpoint.seq, "unreachable", str(exc)))
                break
            outcomes.append(outcome)
    for outcome in outcomes:
        level = logging.INFO if outcome.status == "cosigned" else logging.ERROR
        logger.log(level, "witness %s %s %s %s %s", *vars(outcome).values())
    return outcomes


# --- verification ------------------------------------------------------------------------------


def _roots(register: Register, sizes: set[int], using: str) -> dict[int, bytes]:
    """The register's Merkle roots at ``sizes``, from its entries' hashes (one pass, in seq order):
    a cosigned root is held to the entries themselves, not to the stored subtrees."""
    roots: dict[int, bytes] = {}
    stack: list[tuple[int, bytes]] = []  # the perfect subtrees of the prefix read so far
    wanted = sorted(s for s in sizes if s > 0)
    if not wanted:
        return roots
    hashes = (
        Entry.objects.using(using)
        .filter(register=register, seq__lte=wanted[-1])
        .order_by("seq")
        .values_list("entry_hash", flat=True)
        .iterator(chunk_size=5000)
    )
    for size, digest in enumerate(hashes, start=1):
        width, node = 1, trees.entry_leaf(digest)
        while stack and stack[-1][0] == width:
            node, width = merkle.node_hash(stack.pop()[1], node), width * 2
        stack.append((width, node))
        if size in sizes:
            top = stack[-1][1]
            for _, left in reversed(stack[:-1]):
                top = merkle.node_hash(left, top)
            roots[size] = top
    return roots


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    finding: Finding | None = None

    def fail(self, register: Register, seq: int | None, code: str, reason) -> None:
        self.finding = self.finding or Finding(register.number, seq, code, str(reason))


def _age(since: datetime, now: datetime) -> str:
    return str(_("%(minutes)s min") % {"minutes": int((now - since).total_seconds() // 60)})


def cosignatures_verify(
    register: Register, using: str = DEFAULT_DB_ALIAS, *, now: datetime | None = None, ask: bool = True
) -> Report:
    """Hold the register to its witnesses: every stored cosignature of a configured witness
    verifies over the root recomputed from the entries; no sealed head has waited longer than the
    delay for one; the heads sealed while a witness was not reached are reported as gaps; and,
    with ``ask``, the newest head each witness serves for the register is still the register's."""
    report, now = Report(), now or timezone.now()
    configured = witnesses()
    if not configured:
        return report
    checkpoints = list(
        Checkpoint.objects.using(using).filter(register=register).order_by("seq").values_list("pk", "seq", "created_at")
    )
    if not checkpoints:
        return report
    cosignatures = list(
        Cosignature.objects.using(using)
        .filter(checkpoint__register=register, witness__in=[w.name for w in configured])
        .values_list("checkpoint_id", "witness", "key_id", "signed_at", "signature", "checkpoint__seq")
    )
    served = {w.name: _served(w, register, report) if ask else None for w in configured}
    sizes = {row[5] for row in cosignatures} | {head.size for head in served.values() if head}
    roots = _roots(register, sizes, using)
    for witness in configured:
        mine = {row[0]: row for row in cosignatures if row[1] == witness.name and row[2] == witness.verifier.id.hex()}
        for _pk, wname, _kid, signed_at, signature, seq in mine.values():
            text = note.Checkpoint(log_origin(register), seq, roots[seq]).text if seq in roots else ""
            line = f"{note.DASH} {wname} {signature}\n"
            if note.cosignature_time(text, line, witness.verifier) != int(signed_at.timestamp()):
                report.fail(
                    register,
                    seq,
                    "cosignature",
                    _("la cosignature de %(w)s ne porte pas sur ce registre") % {"w": wname},
                )
        _delays(report, register, witness, checkpoints, mine, now)
        head = served[witness.name]
        if head is not None:
            _hold(report, register, witness, head, roots)
    return report


def _served(witness: Witness, register: Register, report: Report) -> note.Checkpoint | None:
    try:
        return _fetch_served(witness, register)
    except (*HTTP_ERRORS, note.NoteError) as exc:
        report.lines.append(
            str(_("NON VÉRIFIÉ\t%(register)s\ttémoin %(w)s injoignable (%(error)s)"))
            % {"register": register.number, "w": witness.name, "error": exc}
        )
        return None


def _fetch_served(witness: Witness, register: Register) -> note.Checkpoint | None:
    url = f"{witness.url}/{hashlib.sha256(log_origin(register).encode()).hexdigest()}/checkpoint"
    try:
        with urllib.request.urlopen(url, timeout=settings.LEDGERS_WITNESS_TIMEOUT_SECONDS) as response:
            served = response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        if exc.code == 404:  # it never cosigned this register
            return None
        raise
    text, signatures = note.split(served)
    for name, kid, raw in signatures:
        line = note.signature_line(name, kid, raw)
        if note.cosignature_time(text, line, witness.verifier) is not None:
            checkpoint = note.parse_checkpoint(text)
            if checkpoint.origin == log_origin(register):
                return checkpoint
    raise note.NoteError(str(_("sa réponse ne porte pas sa cosignature")))


def _delays(report: Report, register: Register, witness: Witness, checkpoints: list, mine: dict, now: datetime) -> None:
    """The newest cosignature's age; each run of heads sealed without the witness's cosignature
    and later caught up (a gap); a failure when the run still open is older than the delay."""
    newest = max((row[3] for row in mine.values()), default=None)
    report.lines.append(
        f"COSIGNATURE\t{register.number}\t{witness.name}\t"
        + (str(_("la plus récente il y a %(age)s") % {"age": _age(newest, now)}) if newest else str(_("aucune")))
    )
    run: list[tuple] = []
    for pk, seq, created_at in checkpoints:
        if pk not in mine:
            run.append((seq, created_at))
            continue
        if run:
            report.lines.append(
                str(
                    _(
                        "LACUNE\t%(register)s\t%(w)s\t%(count)s tête(s) scellée(s) sans cosignature, n° %(first)s "
                        "à %(last)s, du %(since)s à la cosignature du n° %(seq)s le %(at)s"
                    )
                )
                % {
                    "register": register.number,
                    "w": witness.name,
                    "count": len(run),
                    "first": run[0][0],
                    "last": run[-1][0],
                    "since": format_timestamp(run[0][1]),
                    "seq": seq,
                    "at": format_timestamp(mine[pk][3]),
                }
            )
        run = []
    delay = timedelta(minutes=settings.LEDGERS_WITNESS_MAX_DELAY_MINUTES)
    if run and now - run[0][1] > delay:
        report.fail(
            register,
            run[0][0],
            "cosignature_missing",
            _("tête scellée sans cosignature de %(w)s depuis %(age)s (délai : %(delay)s min)")
            % {"w": witness.name, "age": _age(run[0][1], now), "delay": settings.LEDGERS_WITNESS_MAX_DELAY_MINUTES},
        )


def _hold(report: Report, register: Register, witness: Witness, head: note.Checkpoint, roots: dict) -> None:
    if head.size not in roots and head.size > 0:
        report.fail(
            register,
            head.size,
            "witness_ahead",
            _("%(w)s a cosigné %(size)s entrées, le registre en a moins (entrées retirées)")
            % {"w": witness.name, "size": head.size},
        )
    elif head.size and roots[head.size] != head.root:
        report.fail(
            register,
            head.size,
            "witness_fork",
            _("la tête de %(size)s entrées cosignée par %(w)s n'est plus celle du registre (réécrit)")
            % {"w": witness.name, "size": head.size},
        )
