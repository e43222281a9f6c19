"""Signed tree heads: one per establishment at each sealing, over the last sealed checkpoint of
each of its registers (docs/ledger-format.md §11).

A tree head is the document that leaves the building: the Merkle root of the registers' heads
(each with, from format 2 on, the RFC 9162 root of the register's own Merkle tree over its
entries, so that one entry is proved in O(log n) hashes, §12), the counts of the append-only
tables, the time, the previous tree head's hash (tree heads form a chain), signed with Ed25519
and, when ``LEDGERS_TSA_URL`` names an RFC 3161 time-stamping authority, dated by its token over
the tree head's hash."""

import hashlib
import json
from collections.abc import Iterator
from datetime import datetime
from functools import lru_cache

from django.apps import apps
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.db import append_only_tables
from ledgers.core.models import Establishment
from witness import note

from . import merkle, timestamps, trees
from .chain import GENESIS_HASH, format_timestamp
from .models import Checkpoint, Cosignature, Register, TreeHead
from .signing import current_key_id, sign, signature_valid, signing_key
from .verification import Finding, scan_range

SIGNED = ("establishment", "number", "created_at", "size", "root", "prev", "tables", "key_id")
FORMAT = 2  # the registers' leaves carry their Merkle roots; format 1 heads (without) keep verifying
PROOF_FORMAT = 3  # proofs carry the register's signed checkpoint, not the establishment's whole tree head


def head_format(leaves: dict[str, list]) -> int:
    """A tree head's format, read from its leaves: [seq, hash] (1) or [seq, hash, root] (2)."""
    return FORMAT if any(len(leaf) == 3 for leaf in leaves.values()) else 1


def signed_keys(doc: dict) -> tuple[str, ...]:
    return (*SIGNED, "format") if "format" in doc else SIGNED


def canonical(document: dict) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def leaf_dict(register: str, seq: int, digest: str, root: str | None = None) -> dict:
    """A register's leaf in a tree head: its sealed head, and from format 2 its tree's root."""
    leaf = {"register": register, "seq": seq, "hash": digest}
    return leaf if root is None else {**leaf, "root": root}


def leaf_bytes(register: str, *head) -> bytes:
    return canonical(leaf_dict(register, *head))


@lru_cache(maxsize=4096, typed=True)  # typed: a leaf's 3 and 3.0 (or true) are different bytes
def _known_leaf_hash(register: str, *head) -> bytes:
    return merkle.leaf_hash(leaf_bytes(register, *head))


def _leaf_hash(register: str, *head) -> bytes:
    try:
        return _known_leaf_hash(register, *head)
    except TypeError:  # a document from outside with a list or object where a value goes: hashed as it is
        return merkle.leaf_hash(leaf_bytes(register, *head))


def leaf_hashes(leaves: dict[str, list]) -> list[bytes]:
    """The Merkle leaves, in register number order (Unicode code points). A register's leaf is
    hashed once for the many tree heads that repeat it (one at each sealing of its house)."""
    return [_leaf_hash(number, *leaves[number]) for number in sorted(leaves)]


def signed_document(tree_head: TreeHead) -> dict:
    body = {
        "establishment": tree_head.establishment.code,
        "number": tree_head.number,
        "created_at": format_timestamp(tree_head.created_at),
        "size": len(tree_head.leaves),
        "root": tree_head.root_hash,
        "prev": tree_head.prev_hash,
        "tables": tree_head.tables,
        "key_id": tree_head.key_id,
    }
    if (version := head_format(tree_head.leaves)) > 1:
        body["format"] = version
    return body


def document(tree_head: TreeHead) -> dict:
    """The tree head as the JSON file that leaves the building: the signed fields, the signature,
    the tree head's hash, its RFC 3161 token (base64 DER, or null) and the leaves."""
    return {
        **signed_document(tree_head),
        "signature": tree_head.signature,
        "hash": tree_head.tree_hash,
        "timestamp_token": tree_head.timestamp_token or None,
        "leaves": [leaf_dict(number, *head) for number, head in sorted(tree_head.leaves.items())],
    }


def document_problem(doc: dict) -> str | None:
    """Why a tree head document does not stand on its own (signature, hash, root, token), or None."""
    try:
        body = canonical({key: doc[key] for key in signed_keys(doc)})
        rooted = ("root",) if "format" in doc else ()
        leaves = {leaf["register"]: [leaf[k] for k in ("seq", "hash", *rooted)] for leaf in doc["leaves"]}
    except (KeyError, TypeError):
        return str(_("tête d'arbre illisible"))
    if not signature_valid(doc["key_id"], doc["signature"], body):
        return str(_("la signature de la tête d'arbre n'est pas valide (fausse ou clé inconnue)"))
    if hashlib.sha256(body).hexdigest() != doc["hash"]:
        return str(_("l'empreinte de la tête d'arbre ne correspond pas à son contenu"))
    if len(leaves) != doc["size"] or merkle.root(leaf_hashes(leaves)).hex() != doc["root"]:
        return str(_("la racine de la tête d'arbre ne correspond pas aux têtes des registres"))
    if doc.get("timestamp_token") and not timestamps.token_valid(doc["timestamp_token"], bytes.fromhex(doc["hash"])):
        return str(_("le jeton d'horodatage ne porte pas sur cette tête d'arbre"))
    return None


def _pk_columns() -> dict[str, str]:
    return {model._meta.db_table: model._meta.pk.column for model in apps.get_models()}


def table_counts() -> dict[str, list[int]]:
    """{table: [its largest id, its rows up to it]} of every append-only table (PostgreSQL):
    fewer rows up to that id later means rows were deleted."""
    if connection.vendor != "postgresql":
        return {}
    pks, counts = _pk_columns(), {}
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in append_only_tables(connection):
            if table in pks:
                cursor.execute(f"SELECT coalesce(max({q(pks[table])}), 0), count(*) FROM {q(table)}")
                counts[table] = list(cursor.fetchone())
    return counts


def tables_problem(tables: dict[str, list[int]], using: str = DEFAULT_DB_ALIAS) -> tuple[str, str] | None:
    """(table, reason) for the first append-only table with fewer rows up to the recorded id than
    recorded (rows committed later with an older id can only make more)."""
    pks, q = _pk_columns(), connections[using].ops.quote_name
    with connections[using].cursor() as cursor:
        for table, (top, count) in sorted(tables.items()):
            if table not in pks:
                continue
            cursor.execute(f"SELECT count(*) FROM {q(table)} WHERE {q(pks[table])} <= %s", [top])
            now = cursor.fetchone()[0]
            if now < count:
                return table, str(
                    _("%(missing)s ligne(s) supprimée(s) parmi les %(count)s scellées (id ≤ %(top)s)")
                    % {"missing": count - now, "count": count, "top": top}
                )
    return None


def _leaves(establishment: Establishment, previous: TreeHead | None) -> dict[str, list]:
    """{register number: [seq, entry hash, Merkle root]} of each register's last checkpoint; a root
    already signed for the same head is taken from ``previous``, the others from stored subtrees
    (completed first, for registers sealed before their trees were kept)."""
    latest = Checkpoint.objects.filter(register=OuterRef("pk")).order_by("-seq")
    registers = (
        Register.objects.filter(establishment=establishment)
        .annotate(seq=Subquery(latest.values("seq")[:1]), digest=Subquery(latest.values("entry_hash")[:1]))
        .filter(seq__isnull=False)
    )
    before = previous.leaves if previous is not None else {}
    leaves = {}
    for register in registers:
        head = [register.seq, register.digest]
        if before.get(register.number, [])[:2] == head and len(before[register.number]) == 3:
            leaves[register.number] = before[register.number]
            continue
        trees.extend(register, register.seq)
        leaves[register.number] = [*head, trees.root(register, register.seq).hex()]
    return leaves


def tree_head_sign(tree_head: TreeHead) -> None:
    """Sign ``tree_head`` with the current key: its key id, signature, hash and time-stamp, and each
    register's checkpoint it signs the root of (§14), kept beside it for the proofs (§12)."""
    body = signed_document(tree_head)
    tree_head.key_id = body["key_id"] = current_key_id()
    body_bytes = canonical(body)
    tree_head.signature = sign(body_bytes)[1]
    tree_head.tree_hash = hashlib.sha256(body_bytes).hexdigest()
    tree_head.timestamp_token = timestamps.stamp(bytes.fromhex(tree_head.tree_hash))
    tree_head.notes = {
        number: checkpoint_signature(checkpoint.text)
        for number in tree_head.leaves
        if (checkpoint := leaf_checkpoint(number, tree_head.leaves[number]))
    }


def tree_heads_seal(*, now: datetime | None = None) -> list[TreeHead]:
    """A new signed tree head for every establishment whose registers' sealed heads moved since its
    last one (after ``checkpoints_seal``). The table counts are taken once, before any insert."""
    tables, made = table_counts(), []
    for establishment in Establishment.objects.filter(registers__checkpoints__isnull=False).distinct():
        with transaction.atomic():
            previous = TreeHead.objects.filter(establishment=establishment).order_by("-number").first()
            leaves = _leaves(establishment, previous)
            if previous is not None and previous.leaves == leaves:
                continue
            tree_head = TreeHead(
                establishment=establishment,
                number=previous.number + 1 if previous else 1,
                created_at=now or timezone.now(),
                leaves=leaves,
                tables=tables,
                root_hash=merkle.root(leaf_hashes(leaves)).hex(),
                prev_hash=previous.tree_hash if previous else GENESIS_HASH,
            )
            tree_head_sign(tree_head)
            # Two runs at once make the same number twice: the second one is a no-op.
            TreeHead.objects.bulk_create([tree_head], ignore_conflicts=True)
            made.append(tree_head)
    return made


def verify_tree_heads(
    using: str = DEFAULT_DB_ALIAS, *, counts: bool = True, newest_only: bool = False
) -> Iterator[tuple[str, Finding | None]]:
    """Each establishment's tree heads: numbered 1, 2, 3…, each signed, hashed and rooted as it
    says, chained to the previous one; and, with ``counts``, no append-only table has lost rows
    that the newest counted (the counts are the whole database's: a witness copy filtered by
    establishment does not hold them). With ``newest_only`` (the daily run), the newest one alone,
    numbered and chained after the one before it, which the run of its day checked."""
    establishments = Establishment.objects.using(using).filter(tree_heads__isnull=False).distinct()
    for establishment in establishments.order_by("code"):
        name = f"{establishment.code} têtes d'arbre"
        prev, expected, newest = GENESIS_HASH, 1, None
        found = None
        tree_heads = (
            TreeHead.objects.using(using)
            .filter(establishment=establishment)
            .select_related("establishment")
            .order_by("number")
        )
        if newest_only:
            *before, last = reversed(tree_heads.reverse()[:2])
            if before:
                prev, expected = before[0].tree_hash, before[0].number + 1
            tree_heads = [last]
        for tree_head in tree_heads if newest_only else tree_heads.iterator():
            doc = document(tree_head)
            problem = (
                (_("tête d'arbre n° %(n)s manquante") % {"n": expected} if tree_head.number != expected else None)
                or document_problem(doc)
                or (_("ne suit pas la tête d'arbre précédente") if tree_head.prev_hash != prev else None)
            )
            if problem:
                found = Finding(name, tree_head.number, "tree_head", str(problem))
                break
            prev, expected, newest = tree_head.tree_hash, expected + 1, tree_head
        if found is None and newest is not None and counts and (lost := tables_problem(newest.tables, using)):
            found = Finding(lost[0], None, "rows_deleted", lost[1])
        yield name, found


def verify_against_tree_head(
    doc: dict, using: str = DEFAULT_DB_ALIAS, *, counts: bool = True
) -> Iterator[tuple[str, Finding | None]]:
    """Hold the database to a tree head that left the building, as a whole: it stands on its own,
    the database still has it (same hash), no append-only table lost rows it counted (with
    ``counts``), and every register it covers still exists. Each register's chain is then held to
    its leaf by the register verification (``tree_head_anchors``)."""
    label = f"{doc.get('establishment', '?')} tête d'arbre n° {doc.get('number', '?')}"
    if problem := document_problem(doc):
        yield label, Finding(label, None, "tree_head", problem)
        return
    stored = (
        TreeHead.objects.using(using).filter(establishment__code=doc["establishment"], number=doc["number"]).first()
    )
    if stored is None or stored.tree_hash != doc["hash"]:
        yield label, Finding(label, None, "tree_head_missing", str(_("absente de la base ou différente")))
    elif counts and (lost := tables_problem(doc["tables"], using)):
        yield label, Finding(lost[0], None, "rows_deleted", lost[1])
    else:
        yield label, None
    known = set(
        Register.objects.using(using)
        .filter(number__in=[leaf["register"] for leaf in doc["leaves"]])
        .values_list("number", flat=True)
    )
    for leaf in doc["leaves"]:
        if leaf["register"] not in known:
            yield leaf["register"], Finding(leaf["register"], None, "register_missing", str(_("registre absent")))


def tree_head_anchors(documents: list[dict]) -> dict[str, dict[int, tuple[str, str]]]:
    """{register number: {seq: (hash, time)}} of the leaves of tree heads whose signature holds."""
    anchors: dict[str, dict[int, tuple[str, str]]] = {}
    for doc in documents:
        if document_problem(doc) is None:
            for leaf in doc["leaves"]:
                anchors.setdefault(leaf["register"], {})[leaf["seq"]] = (leaf["hash"], doc["created_at"])
    return anchors


def newest_document(establishment: Establishment) -> dict | None:
    tree_head = TreeHead.objects.filter(establishment=establishment).order_by("-number").first()
    return document(tree_head) if tree_head else None


def _head_of(register: Register, *, covering: int = 0, number: int | None = None) -> TreeHead | None:
    """The tree head ``number`` of the register's establishment, or its newest; None unless it
    signs the register's Merkle root (format 2) at a size of at least ``covering``."""
    heads = TreeHead.objects.filter(establishment_id=register.establishment_id)
    head = (heads.filter(number=number) if number else heads.order_by("-number")).first()
    leaf = head.leaves.get(register.number, []) if head else []
    return head if len(leaf) == 3 and leaf[0] >= covering else None


def register_in_head(tree_head: TreeHead, number: str) -> dict:
    """The register's leaf in a tree head, its Merkle audit path there and the signed tree head
    (without its leaves)."""
    numbers = sorted(tree_head.leaves)
    index = numbers.index(number)
    return {
        "leaf": leaf_dict(number, *tree_head.leaves[number]),
        "leaf_index": index,
        "audit_path": [p.hex() for p in merkle.inclusion_path(index, leaf_hashes(tree_head.leaves))],
        "tree_head": {key: value for key, value in document(tree_head).items() if key != "leaves"},
    }


def entry_proof(register: Register, seq: int, tree_head: int | None = None) -> dict | None:
    """Proof of entry ``seq`` against the tree head numbered ``tree_head`` (default: the newest):
    the entry, its RFC 9162 inclusion path in the register's tree of the size that head signs, and
    the register's checkpoint at that size as a signed note (format 3, about 2 kB at any size); the
    register's leaf in the whole tree head (format 2) when the head predates kept checkpoint
    signatures. O(log n) hashes, from stored subtrees. None unless that head signs the register's
    root and covers the entry."""
    head = _head_of(register, covering=seq, number=tree_head)
    if seq < 1 or head is None:
        return None
    size = head.leaves[register.number][0]
    proof = {
        "register": register.number,
        "origin": log_origin(register),
        "seq": seq,
        "entry": scan_range(register, seq, seq)[0],
        "inclusion": [p.hex() for p in trees.inclusion(register, seq, size)],
    }
    compact = register.number in head.notes
    return {"format": PROOF_FORMAT if compact else FORMAT, **proof, **_head_part(register, head, compact=compact)}


def _head_part(register: Register, head: TreeHead, *, compact: bool) -> dict:
    """What a proof carries of ``head``: the register's signed checkpoint in it (format 3), or the
    register's leaf in the whole head (format 2)."""
    if compact:
        return {"tree_head": head.number, "checkpoint": signed_checkpoint(register, head)}
    return register_in_head(head, register.number)


def consistency_proof(register: Register, first: int, second: int | None = None) -> dict | None:
    """Proof that the register's tree in tree head ``second`` (default: the newest) extends its
    tree in tree head ``first`` (RFC 9162 §2.1.4), with its signed checkpoint in each (format 3;
    its leaf in each whole head, format 2, when either predates kept checkpoint signatures); None
    unless both heads sign the register's root and ``first`` comes before ``second``."""
    older, newer = _head_of(register, number=first), _head_of(register, number=second)
    if older is None or newer is None or older.number > newer.number:
        return None
    m, n = older.leaves[register.number][0], newer.leaves[register.number][0]
    compact = all(register.number in head.notes for head in (older, newer))
    return {
        "format": PROOF_FORMAT if compact else FORMAT,
        "register": register.number,
        **({"origin": log_origin(register)} if compact else {}),
        "first": _head_part(register, older, compact=compact),
        "second": _head_part(register, newer, compact=compact),
        "consistency": [p.hex() for p in trees.consistency(register, m, n)],
    }


def log_origin(register: Register) -> str:
    """The register's log name in checkpoints (C2SP tlog-checkpoint): one log per register."""
    return origin_of(register.number)


def origin_of(number: str) -> str:
    return f"{settings.LEDGERS_LOG_ORIGIN}/{number}"


def leaf_checkpoint(number: str, leaf: list) -> note.Checkpoint | None:
    """A register's leaf in a tree head as its C2SP checkpoint (origin, tree size, root); None for a
    format 1 leaf, which signs no Merkle root."""
    if len(leaf) != 3:
        return None
    return note.Checkpoint(origin_of(number), leaf[0], bytes.fromhex(leaf[2]))


def register_checkpoint(register: Register, tree_head: TreeHead | None = None) -> note.Checkpoint | None:
    """The register's head as ``tree_head`` (default: its establishment's newest) signs it: the one
    head that the proofs, the QR code and the witnesses' cosignatures all speak of."""
    head = tree_head or _head_of(register)
    return leaf_checkpoint(register.number, head.leaves.get(register.number, [])) if head else None


def checkpoint_signature(text: str) -> str:
    """base64(key ID ‖ Ed25519 signature) of a checkpoint's text by the sealing key under the key
    name ``LEDGERS_LOG_ORIGIN`` (c2sp.org/signed-note)."""
    return note.sign(text, settings.LEDGERS_LOG_ORIGIN, signing_key()).split(" ")[2].strip()


def signed_checkpoint(register: Register, tree_head: TreeHead) -> str | None:
    """The register's checkpoint in ``tree_head`` as a signed note: the casino's signature kept at
    sealing, then the cosignature of every witness that cosigned that size. None for a tree head
    sealed before the signatures were kept, or one that signs no root of the register."""
    checkpoint = register_checkpoint(register, tree_head)
    signature = tree_head.notes.get(register.number)
    if checkpoint is None or signature is None:
        return None
    cosignatures = Cosignature.objects.filter(
        checkpoint__register=register, checkpoint__seq=checkpoint.size, root=checkpoint.root.hex()
    ).order_by("witness", "key_id")
    lines = [note.DASH + f" {settings.LEDGERS_LOG_ORIGIN} {signature}"]
    lines += [f"{note.DASH} {c.witness} {c.signature}" for c in cosignatures]
    return checkpoint.text + "\n" + "".join(line + "\n" for line in lines)
