from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .chain import GENESIS_HASH, format_timestamp
from .kinds import RegisterKind, default_title, get_kind, qualifier_label


class Register(models.Model):
    """One register volume. Its head (seq and hash of the last entry) moves with every append,
    under a row lock; the entries themselves are the audit trail, so the head is updated without
    a history row."""

    class Status(models.TextChoices):
        AWAITING_OPENING = "awaiting", _("En attente de cote et paraphe")
        OPEN = "open", _("Ouvert")
        CLOSED = "closed", _("Clos")
        # Created by mistake and withdrawn before its opening act: kept, never written in.
        WITHDRAWN = "withdrawn", _("Retiré")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="registers")
    kind = models.CharField(_("type de registre"), max_length=50)
    number = models.CharField(_("numéro"), max_length=60, unique=True)
    title = models.CharField(_("intitulé"), max_length=250)
    qualifier = models.CharField(_("catégorie"), max_length=100, blank=True)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.AWAITING_OPENING)
    head_seq = models.PositiveBigIntegerField(_("dernière entrée"), default=0)
    head_hash = models.CharField(_("empreinte de tête"), max_length=64, default=GENESIS_HASH)
    # Kept by the opening act and every visa, so that what awaits a visa is read, never counted:
    # head_seq - visaed_seq - acts_after_visa (the opening act and the visas after visaed_seq are
    # not entries to visa; only records, corrections and the closing act follow them).
    # (db_default: a row written by other means than this model, e.g. COPY, starts at 0 too)
    visaed_seq = models.PositiveBigIntegerField(_("visé jusqu'au n°"), default=0, db_default=0)
    acts_after_visa = models.PositiveIntegerField(
        _("actes non soumis au visa après le dernier visé"), default=0, db_default=0
    )
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["head_seq", "head_hash", "visaed_seq", "acts_after_visa"])

    class Meta:
        verbose_name = _("registre")
        verbose_name_plural = _("registres")
        ordering = ["establishment", "number"]
        indexes = [models.Index(fields=["establishment", "kind", "qualifier"])]

    def __str__(self) -> str:
        return f"{self.number} — {self.heading}"

    @property
    def heading(self) -> str:
        """The title in the reader's language. A title the volume got by default (its kind's, with
        its qualifier as a label or, in volumes made before labels, as a code) is made anew in the
        active language; a title chosen at creation reads as written."""
        kind = self.kind_info
        made = default_title(kind, self.qualifier)
        if self.title == made:  # the default in the active language: no need to make the French ones
            return made
        with translation.override("fr"):
            defaults = {default_title(kind, self.qualifier), f"{kind.title} — {self.qualifier}".removesuffix(" — ")}
        return made if self.title in defaults else self.title

    @property
    def unvisaed(self) -> int:
        """Entries not yet covered by a visa (the opening act and the visas are not counted)."""
        return self.head_seq - self.visaed_seq - self.acts_after_visa

    @property
    def qualifier_label(self) -> str:
        return qualifier_label(self.qualifier)

    @property
    def kind_info(self) -> RegisterKind:
        return get_kind(self.kind)


# The author of an entry no person made (a notice the system sends, its escalation): hashed in
# ``actor`` like a login, with no account (``actor_user`` empty). The brackets are refused in a
# login, so no person can sign as the system; the integrity check pairs the marker with no account.
SYSTEM_ACTOR = "[système]"
SYSTEM_ROLE = "systeme"


class EntryKind(models.TextChoices):
    OPENING = "opening", _("Acte d'ouverture")
    RECORD = "record", _("Inscription")
    CORRECTION = "correction", _("Correction")
    VISA = "visa", _("Visa")
    CLOSING = "closing", _("Acte de clôture")


class Entry(models.Model):
    """An append-only, hash-chained register entry. Database triggers refuse UPDATE and DELETE."""

    # No index of its own: the unique (register, seq) serves every lookup by register.
    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="entries", db_index=False)
    seq = models.PositiveBigIntegerField(_("n°"))
    recorded_at = models.DateTimeField(_("inscrit le"))
    # No index of its own either: entry_actor_recent_idx leads with it.
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ledger_entries", null=True, db_index=False
    )
    actor = models.CharField(_("auteur"), max_length=150)
    role = models.CharField(_("rôle"), max_length=30)
    kind = models.CharField(_("nature"), max_length=12, choices=EntryKind.choices)
    payload = models.JSONField(_("contenu"))
    corrects = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="corrections",
        verbose_name=_("corrige l'entrée"),
    )
    prev_hash = models.CharField(_("empreinte précédente"), max_length=64)
    entry_hash = models.CharField(_("empreinte"), max_length=64)
    # Format 2: {model label: [pk, …]} of the objects whose history rows the entry's transaction
    # wrote before it (ledgers/registers/written.py), hashed; NULL for an entry of format 1.
    written = models.JSONField(_("objets écrits"), null=True, blank=True, editable=False)
    # Format 3: {model label: {history id: digest}} of the history rows of those objects that the
    # transaction wrote before it (ledgers/registers/digests.py), hashed; NULL before format 3.
    digests = models.JSONField(_("empreintes des historiques"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("entrée")
        verbose_name_plural = _("entrées")
        ordering = ["register", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["register", "seq"], name="entry_seq_unique"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="entry_seq_positive"),
        ]
        indexes = [
            # The visas of a register (the last one starts the next visa's range): a few rows
            # among millions, found without walking the register.
            models.Index(fields=["register", "seq"], condition=models.Q(kind="visa"), name="entry_visa_idx"),
            # A user's latest entries (the home's "my recent entries"): read from the newest end
            # rather than sorting every entry the user ever wrote.
            models.Index(fields=["actor_user", "-recorded_at", "-id"], name="entry_actor_recent_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.register.number} n° {self.seq}"

    # The payload keys in which the kinds write what an entry records ("Avance initiale",
    # "Fin de partie"…), in the order they are looked for.
    ACT_KEYS = ("event", "subject", "operation", "movement", "item")

    @property
    def act(self) -> str:
        """What the entry records, in its kind's words; its nature (opening act, visa…) when its
        payload names no act."""
        return self.written_act or str(self.get_kind_display())

    @property
    def written_act(self) -> str:
        """The act as the entry's payload names it, in the register's language ("" when none)."""
        if self.kind == EntryKind.RECORD and isinstance(self.payload, dict):
            for key in self.ACT_KEYS:
                value = self.payload.get(key)
                if isinstance(value, str) and value.strip():
                    return value
        return ""

    def hashed_fields(self, register_number: str | None = None) -> dict:
        fields = {
            "register": register_number or self.register.number,
            "seq": self.seq,
            "recorded_at": format_timestamp(self.recorded_at),
            "actor": self.actor,
            "role": self.role,
            "kind": self.kind,
            "payload": self.payload,
            "corrects": self.corrects.seq if self.corrects_id else None,
            "prev_hash": self.prev_hash,
        }
        if self.written is not None:  # format 2
            fields["written"] = self.written
        if self.digests is not None:  # format 3
            fields["digests"] = self.digests
        return fields


class Checkpoint(models.Model):
    """A sealed copy of a register's chain at one point: the seq and hash of its last entry when
    sealed, with an Ed25519 signature by a key the database does not hold (``key_id`` names it,
    see signing.py); checkpoints sealed before signatures carry an HMAC in ``mac`` instead
    (``LEDGERS_CHECKPOINT_KEY``, checkpoints.py). Append-only. The head kept in the register row
    moves with every append, so whoever can write the database can move it; a checkpoint it cannot
    forge. Verification
    requires the chain to still hold every checkpointed seq with that same hash."""

    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="checkpoints")
    seq = models.PositiveBigIntegerField(_("n°"))
    entry_hash = models.CharField(_("empreinte"), max_length=64)
    created_at = models.DateTimeField(_("scellé le"))
    mac = models.CharField(_("sceau HMAC"), max_length=64, blank=True)
    key_id = models.CharField(_("clé"), max_length=16, blank=True)
    signature = models.CharField(_("signature"), max_length=128, blank=True)

    class Meta:
        verbose_name = _("point de contrôle scellé")
        verbose_name_plural = _("points de contrôle scellés")
        ordering = ["register", "seq"]
        constraints = [models.UniqueConstraint(fields=["register", "seq"], name="checkpoint_seq_unique")]

    def __str__(self) -> str:
        return f"{self.register.number} n° {self.seq}"


class TreeHead(models.Model):
    """A signed tree head of one establishment: the Merkle root (RFC 6962) over the last sealed
    checkpoint of each of its registers, the counts of the append-only tables, the time, and the
    hash of the establishment's previous tree head, signed with Ed25519 and, when a time-stamping
    authority is configured, dated by its RFC 3161 token. Append-only; tree heads form their own
    chain (docs/ledger-format.md §11)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="tree_heads")
    number = models.PositiveBigIntegerField(_("n°"))
    created_at = models.DateTimeField(_("scellé le"))
    leaves = models.JSONField(_("têtes des registres"))  # {register number: [seq, entry hash]}
    tables = models.JSONField(_("tables en ajout seul"))  # {table: [max id, rows up to it]}
    root_hash = models.CharField(_("racine"), max_length=64)
    prev_hash = models.CharField(_("tête d'arbre précédente"), max_length=64)
    tree_hash = models.CharField(_("empreinte"), max_length=64)
    key_id = models.CharField(_("clé"), max_length=16)
    signature = models.CharField(_("signature"), max_length=128)
    timestamp_token = models.TextField(_("jeton d'horodatage RFC 3161"), blank=True)
    # {register number: base64(key ID ‖ signature)} of its checkpoint (docs/ledger-format.md §14),
    # signed with the head so that a proof carries the register's head alone; {} before these
    notes = models.JSONField(_("signatures des points de contrôle"), default=dict, blank=True)

    class Meta:
        verbose_name = _("tête d'arbre signée")
        verbose_name_plural = _("têtes d'arbre signées")
        ordering = ["establishment", "number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="tree_head_number_unique")]

    def __str__(self) -> str:
        return f"{self.establishment.code} n° {self.number}"


class MerkleNode(models.Model):
    """A stored subtree of a register's Merkle tree over its entries (RFC 9162 hashing, leaf data
    the entry's hash as 32 bytes): the hash of the 2**level leaves from index * 2**level on, written
    once the subtree is complete, from level ``trees.BOTTOM`` up (ledgers/registers/trees.py).
    Proofs are computed from these and the few entries below them, never from the whole register; a
    node changed by whoever can write the database gives a proof that does not check against the
    signed root, not a false one."""

    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="merkle_nodes")
    level = models.PositiveSmallIntegerField()
    index = models.BigIntegerField()
    hash = models.BinaryField(max_length=32)

    class Meta:
        verbose_name = _("nœud de l'arbre de Merkle")
        verbose_name_plural = _("nœuds de l'arbre de Merkle")
        constraints = [
            models.UniqueConstraint(fields=["register", "level", "index"], name="merkle_node_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.register_id} {self.level}/{self.index}"


class Cosignature(models.Model):
    """A witness's cosignature (c2sp.org/tlog-cosignature, Ed25519 ``cosignature/v1``) of a
    register's sealed head as a checkpoint: the witness checked the casino's signature and that the
    head extends the last one it cosigned for the register (ledgers/registers/cosign.py).
    Append-only. The witness keeps its own copy; this one lets the casino and its auditors show it."""

    checkpoint = models.ForeignKey(Checkpoint, on_delete=models.PROTECT, related_name="cosignatures")
    witness = models.CharField(_("témoin"), max_length=200)  # the witness's key name
    key_id = models.CharField(_("clé"), max_length=8)  # hex of the note key ID
    root = models.CharField(_("racine cosignée"), max_length=64)  # hex of the checkpoint's root hash
    signed_at = models.DateTimeField(_("cosigné le"))  # the cosignature's own timestamp
    signature = models.CharField(_("cosignature"), max_length=200)  # base64, as in the note's signature line
    received_at = models.DateTimeField(_("cosignature reçue le"))

    class Meta:
        verbose_name = _("cosignature d'un témoin")
        verbose_name_plural = _("cosignatures des témoins")
        ordering = ["checkpoint", "witness"]
        constraints = [
            models.UniqueConstraint(fields=["checkpoint", "witness", "key_id"], name="cosignature_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.checkpoint} {self.witness}"
