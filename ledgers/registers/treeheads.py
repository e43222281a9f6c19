"""Signed tree heads: one per establishment at each sealing, over the last sealed checkpoint of
each of its registers (docs/ledger-format.md §11).

A tree head is the document that leaves the building: the Merkle root of the registers' heads,
the counts of the append-only tables, the time, the previous tree head's hash (tree heads form a
chain), signed with Ed25519 and, when ``LEDGERS_TSA_URL`` names an RFC 3161 time-stamping
authority, dated by its token over the tree head's hash."""

import hashlib
import json
from collections.abc import Iterator
from datetime import datetime

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.db import append_only_tables
from ledgers.core.models import Establishment

from . import merkle, timestamps
from .chain import GENESIS_HASH, format_timestamp
from .models import Checkpoint, Register, TreeHead
from .signing import current_key_id, sign, signature_valid
from .verification import Finding, scan_range, snapshot

SIGNED = ("establishment", "number", "created_at", "size", "root", "prev", "tables", "key_id")


def canonical(document: dict) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def leaf_bytes(register: str, seq: int, digest: str) -> bytes:
    return canonical({"register": register, "seq": seq, "hash": digest})


def leaf_hashes(leaves: dict[str, list]) -> list[bytes]:
    """The Merkle leaves, in register number order (Unicode code points)."""
    return [merkle.leaf_hash(leaf_bytes(number, *leaves[number])) for number in sorted(leaves)]


def signed_document(tree_head: TreeHead) -> dict:
    return {
        "establishment": tree_head.establishment.code,
        "number": tree_head.number,
        "created_at": format_timestamp(tree_head.created_at),
        "size": len(tree_head.leaves),
        "root": tree_head.root_hash,
        "prev": tree_head.prev_hash,
        "tables": tree_head.tables,
        "key_id": tree_head.key_id,
    }


def document(tree_head: TreeHead) -> dict:
    """The tree head as the JSON file that leaves the building: the signed fields, the signature,
    the tree head's hash, its RFC 3161 token (base64 DER, or null) and the leaves."""
    return {
        **signed_document(tree_head),
        "signature": tree_head.signature,
        "hash": tree_head.tree_hash,
        "timestamp_token": tree_head.timestamp_token or None,
        "leaves": [{"register": n, "seq": s, "hash": h} for n, (s, h) in sorted(tree_head.leaves.items())],
    }


def document_problem(doc: dict) -> str | None:
    """Why a tree head document does not stand on its own (signature, hash, root, token), or None."""
    try:
        body = canonical({key: doc[key] for key in SIGNED})
        leaves = {leaf["register"]: [leaf["seq"], leaf["hash"]] for leaf in doc["leaves"]}
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


def _leaves(establishment: Establishment) -> dict[str, list]:
    latest = Checkpoint.objects.filter(register=OuterRef("pk")).order_by("-seq")
    rows = (
        Register.objects.filter(establishment=establishment)
        .annotate(seq=Subquery(latest.values("seq")[:1]), digest=Subquery(latest.values("entry_hash")[:1]))
        .filter(seq__isnull=False)
        .values_list("number", "seq", "digest")
    )
    return {number: [seq, digest] for number, seq, digest in rows}


def tree_heads_seal(*, now: datetime | None = None) -> list[TreeHead]:
    """A new signed tree head for every establishment whose registers' sealed heads moved since its
    last one (after ``checkpoints_seal``). The table counts are taken once, before any insert."""
    tables, made = table_counts(), []
    for establishment in Establishment.objects.filter(registers__checkpoints__isnull=False).distinct():
        with transaction.atomic():
            leaves = _leaves(establishment)
            previous = TreeHead.objects.filter(establishment=establishment).order_by("-number").first()
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
            body = signed_document(tree_head)
            tree_head.key_id = body["key_id"] = current_key_id()
            body_bytes = canonical(body)
            tree_head.signature = sign(body_bytes)[1]
            tree_head.tree_hash = hashlib.sha256(body_bytes).hexdigest()
            tree_head.timestamp_token = timestamps.stamp(bytes.fromhex(tree_head.tree_hash))
            # Two runs at once make the same number twice: the second one is a no-op.
            TreeHead.objects.bulk_create([tree_head], ignore_conflicts=True)
            made.append(tree_head)
    return made


def verify_tree_heads(using: str = DEFAULT_DB_ALIAS, *, counts: bool = True) -> Iterator[tuple[str, Finding | None]]:
    """Each establishment's tree heads: numbered 1, 2, 3…, each signed, hashed and rooted as it
    says, chained to the previous one; and, with ``counts``, no append-only table has lost rows
    that the newest counted (the counts are the whole database's: a witness copy filtered by
    establishment does not hold them)."""
    establishments = Establishment.objects.using(using).filter(tree_heads__isnull=False).distinct()
    for establishment in establishments.order_by("code"):
        name = f"{establishment.code} têtes d'arbre"
        prev, expected, newest = GENESIS_HASH, 1, None
        found = None
        tree_heads = TreeHead.objects.using(using).filter(establishment=establishment).order_by("number")
        for tree_head in tree_heads.iterator():
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


def entry_proof(register: Register, seq: int) -> dict | None:
    """Proof of entry ``seq``: the entries from it to the register's head in the newest tree head
    that covers it (its chain position), the head's leaf index and Merkle audit path, and the
    signed tree head (without its leaves); None while no tree head covers the entry."""
    covering = (
        TreeHead.objects.filter(
            establishment_id=register.establishment_id, **{f"leaves__{register.number}__0__gte": seq}
        )
        .order_by("-number")
        .first()
    )
    if covering is None:
        return None
    head = covering.leaves[register.number]
    numbers = sorted(covering.leaves)
    leaves = leaf_hashes(covering.leaves)
    index = numbers.index(register.number)
    tree_head = {key: value for key, value in document(covering).items() if key != "leaves"}
    with snapshot():
        entries = scan_range(register, seq, head[0])
    return {
        "register": register.number,
        "head": head,
        "leaf_index": index,
        "audit_path": [p.hex() for p in merkle.inclusion_path(index, leaves)],
        "tree_head": tree_head,
        "entries": entries,
    }
