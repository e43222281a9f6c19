"""FR baccara à deux tableaux (art. 71, COUNT-54): the table's carnet modèle 11 bears the mention
"Baccara à banque limitée" or "Baccara à banque ouverte"; the banker's name is written at the start
of each séance and each successive banker's operations are described separately, headed by his
name (column 3 the bankers, column 3 bis the croupiers and changeurs). The cagnotte of such a
table is not computed while its partie has no banker segment. Each banker's somme en banque is
written with its nomenclature, chips or plaques only (art. 37, COUNT-27)."""

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import GamingTable, TableSession
from ledgers.core.services import table_session_locked
from ledgers.registers.services import register_language

from .. import breakdowns
from ..models import BaccaraBank, BankerSegment
from ..registers import CARNET_CAGNOTTES
from .cagnottes import _cagnotte_entry
from .common import _cagnotte_write

DEUX_TABLEAUX = "baccara_deux_tableaux"


def _french_deux_tableaux(table: GamingTable) -> None:
    if table.establishment.jurisdiction != "FR" or table.game != DEUX_TABLEAUX:
        raise ValidationError(_("Ceci concerne les tables françaises de baccara à deux tableaux."))


@transaction.atomic
def baccara_bank_record(*, table: GamingTable, kind: str, actor: AbstractBaseUser) -> BaccaraBank:
    """The bank-type mention on the table's carnet modèle 11 (COUNT-54)."""
    _french_deux_tableaux(table)
    role = require_role(actor, table.establishment, CARNET_CAGNOTTES.record_roles)
    if kind not in BaccaraBank.Kind.values:
        raise RuleViolation(
            "COUNT-54", _("Le carnet porte la mention « Baccara à banque limitée » ou « Baccara à banque ouverte ».")
        )
    if BaccaraBank.objects.filter(table=table).exists():
        raise impossible(_("La mention de la banque de la table %(table)s est déjà portée.") % {"table": table.number})
    bank = BaccaraBank.objects.create(table=table, kind=kind, recorded_by=actor, recorded_at=timezone.now())
    with register_language():
        payload = {
            "date": timezone.localdate().isoformat(),
            "table": table.number,
            "event": str(_("Mention du carnet")),
            "certification": str(bank.get_kind_display()),
        }
    _cagnotte_write(table, actor=actor, role=role, payload=payload)
    return bank


@transaction.atomic
def banker_segment_start(
    *, session: TableSession, banker: str, bank: Iterable[dict], actor: AbstractBaseUser
) -> BankerSegment:
    """A banker takes the bank: at the start of the séance, then at each change, his name heads
    the description of his operations (col. 3, COUNT-54), with the nomenclature of his somme en
    banque, which holds only chips or plaques (art. 37, COUNT-27)."""
    session = table_session_locked(session)
    table = session.table
    _french_deux_tableaux(table)
    role = require_role(actor, session.seance.establishment, CARNET_CAGNOTTES.record_roles)
    if not BaccaraBank.objects.filter(table=table).exists():
        raise RuleViolation(
            "COUNT-54",
            _(
                "Le carnet de la table %(table)s ne porte pas encore la mention « Baccara "
                "à banque limitée » ou « Baccara à banque ouverte »."
            )
            % {"table": table.number},
        )
    if not banker.strip():
        raise RuleViolation("COUNT-54", _("Le nom du banquier est inscrit en tête de ses opérations."))
    if session.status == TableSession.Status.CLOSED:
        # The first banker is written at the start of the séance, possibly before the table opens.
        raise ValidationError(_("La partie de cette table est terminée."))
    lines = breakdowns.clean_breakdown(bank)
    if not lines:
        raise ValidationError({"bank": _("Inscrivez la somme en banque du banquier, valeur par valeur.")})
    if breakdowns.has_banknotes(lines):
        raise RuleViolation(
            "COUNT-27",
            _(
                "Aux jeux de cercle, la somme en banque ne doit comprendre que des jetons "
                "ou plaques : pas de billets de banque."
            ),
        )
    segment = BankerSegment.objects.create(
        table_session=session,
        banker=banker.strip(),
        bank=lines,
        bank_amount=amounts.within_money_limit(breakdowns.breakdown_total(lines)),
        started_at=timezone.now(),
        recorded_by=actor,
    )
    with register_language():
        payload = {
            "line": "banker",
            "event": str(_("Banquier")),
            "col3": {"bankers": segment.banker},
            "certification": str(
                _("Banquier %(banker)s dès %(time)s ; somme en banque %(amount)s € : %(lines)s")
                % {
                    "banker": segment.banker,
                    "time": session.seance.establishment.localtime().strftime("%H:%M"),
                    "amount": segment.bank_amount,
                    "lines": breakdowns.breakdown_text(lines),
                }
            ),
        }
    _cagnotte_entry(session, actor=actor, role=role, payload=payload)
    return segment
