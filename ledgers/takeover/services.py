"""The take-over from paper: an opening inventory is prepared (every line checked by the domain's
own rules, nothing written if one line is refused), signed by the directorate, visaed by the
authority where the texts give it a role, then posted. Each act is a line of the take-over
register; the posting writes each object in its real state through its domain, with an entry that
cites the paper register and page it comes from. Once the house has recorded its first ordinary
act in a domain, that domain is no longer taken over (REG-20: what the registers hold is never
written again as if it came before)."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.custody.services import AUTHORITY, DIRECTION
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import entry_append, register_language

from .domains import Problem, get_domain, pages_of
from .models import Inventory
from .registers import PREPARERS, TAKEOVER
from .selectors import domain_started

Status = Inventory.Status


def problems_refusal(problems: Sequence[Problem]) -> ValidationError:
    return ValidationError({"rows": [str(problem) for problem in problems]})


def _refuse_started(est: Establishment, domain: str) -> None:
    if domain_started(est, domain):
        raise RuleViolation(
            "REG-20",
            _(
                "Le domaine « %(d)s » a déjà son premier acte ordinaire inscrit : l'existant ne se reprend "
                "plus, il entre par les actes ordinaires (réception, correction)."
            )
            % {"d": get_domain(domain).label},
        )


def _lines(inventory: Inventory) -> list:
    lines, problems = get_domain(inventory.domain).check(inventory.establishment, [dict(r) for r in inventory.rows])
    if problems:
        raise problems_refusal(problems)
    return lines


def _write(
    inventory: Inventory, *, actor: AbstractBaseUser, role: str, operation, summary: str = "", statement: str = ""
) -> Entry:
    est = inventory.establishment
    with register_language():
        payload = {
            "at": est.localtime(timezone.now()).strftime("%d/%m/%Y %H:%M"),
            "operation": str(operation),
            "inventory": inventory.pk,
            "domain": str(get_domain(inventory.domain).label),
            "paper_register": inventory.paper_register,
            "pages": _pages(inventory),
            "summary": summary,
            "statement": statement,
        }
    return entry_append(register=current_register(est, TAKEOVER.code), actor=actor, role=role, payload=payload)


def _pages(inventory: Inventory) -> str:
    numbers = []
    for row in inventory.rows:
        try:
            numbers.append(int(float(str(row.get("page")))))
        except (TypeError, ValueError):
            continue
    return pages_of(numbers)


def _locked(inventory: Inventory) -> Inventory:
    return Inventory.objects.select_for_update().select_related("establishment").get(pk=inventory.pk)


@transaction.atomic
def takeover_prepare(
    *,
    establishment: Establishment,
    domain: str,
    paper_register: str,
    rows: Sequence[dict],
    actor: AbstractBaseUser,
) -> Inventory:
    """Prepare an opening inventory of ``domain`` from the lines of ``paper_register``; refused as a
    whole, naming each line and column, when one line is refused."""
    est = establishment
    role = require_role(actor, est, PREPARERS)
    info = get_domain(domain)
    if est.jurisdiction not in info.jurisdictions:
        raise ValidationError({"domain": _("Ce domaine ne se reprend pas dans cette juridiction.")})
    paper_register = paper_register.strip()
    if not paper_register:
        raise ValidationError({"paper_register": _("Indiquez le registre papier repris (intitulé et volume).")})
    if not rows:
        raise ValidationError({"rows": _("L'inventaire compte au moins une ligne.")})
    _refuse_started(est, domain)
    _lines_read, problems = info.check(est, [dict(row) for row in rows])
    if problems:
        raise problems_refusal(problems)
    columns = [name for name, _label, _help in info.columns]
    kept = [{name: ("" if row.get(name) is None else str(row.get(name)).strip()) for name in columns} for row in rows]
    inventory = save_audited(
        Inventory(
            establishment=est,
            domain=domain,
            paper_register=paper_register,
            rows=kept,
            prepared_by=actor,
            prepared_at=timezone.now(),
        ),
        actor=actor,
        reason="inventaire de reprise",
    )
    _write(
        inventory,
        actor=actor,
        role=role,
        operation=_("Inventaire de reprise établi"),
        summary=str(_("%(n)s ligne(s)")) % {"n": len(kept)},
    )
    return inventory


@transaction.atomic
def takeover_sign(*, inventory: Inventory, actor: AbstractBaseUser) -> Inventory:
    """The directorate signs the inventory it has reviewed (its signature: re-authenticated by the
    page or the API)."""
    inventory = _locked(inventory)
    est = inventory.establishment
    role = require_role(actor, est, DIRECTION[est.jurisdiction])
    if inventory.status != Status.DRAFT:
        raise ValidationError(_("Cet inventaire est déjà signé."))
    _lines(inventory)  # still what the rules accept
    inventory.status, inventory.signed_by, inventory.signed_role = Status.SIGNED, actor, role
    inventory.signed_at = timezone.now()
    save_audited(inventory, actor=actor, reason="signature de la direction")
    _write(inventory, actor=actor, role=role, operation=_("Inventaire signé par la direction"))
    return inventory


@transaction.atomic
def takeover_visa(*, inventory: Inventory, actor: AbstractBaseUser, statement: str) -> Inventory:
    """The authority visas a signed inventory where the texts give it a role over the domain's
    registers (FR police: CARD-27; MC SCJ: CARD-06)."""
    inventory = _locked(inventory)
    est = inventory.establishment
    visa = get_domain(inventory.domain).visa.get(est.jurisdiction)
    if visa is None:
        raise ValidationError(_("Aucun texte ne donne à l'autorité de visa sur la reprise de ce domaine."))
    role = require_role(actor, est, AUTHORITY[est.jurisdiction])
    if inventory.status != Status.SIGNED:
        raise ValidationError(_("L'autorité vise un inventaire signé par la direction et non encore reporté."))
    statement = statement.strip() or str(_("Vu"))
    inventory.status, inventory.visa_by, inventory.visa_role = Status.VISAED, actor, role
    inventory.visa_at, inventory.visa_statement = timezone.now(), statement
    save_audited(inventory, actor=actor, reason="visa de l'autorité")
    _write(inventory, actor=actor, role=role, operation=_("Inventaire visé par l'autorité"), statement=statement)
    return inventory


@transaction.atomic
def takeover_post(*, inventory: Inventory, actor: AbstractBaseUser) -> Inventory:
    """Post a signed (and, where required, visaed) inventory: every object enters its domain in
    its real state, its entry citing the paper register and page."""
    inventory = _locked(inventory)
    est = inventory.establishment
    info = get_domain(inventory.domain)
    role = require_role(actor, est, DIRECTION[est.jurisdiction])
    if inventory.status == Status.DRAFT:
        raise ValidationError(_("L'inventaire doit d'abord être signé par la direction."))
    if inventory.status == Status.POSTED:
        raise RuleViolation("REG-20", _("Cet inventaire est déjà reporté aux registres."))
    visa = info.visa.get(est.jurisdiction)
    if visa is not None and visa[1] and inventory.status != Status.VISAED:
        raise RuleViolation(
            visa[0],
            _("L'inventaire doit être visé par %(who)s avant son report aux registres.")
            % {"who": " / ".join(str(est.profile.authority_names.get(r) or r) for r in AUTHORITY[est.jurisdiction])},
        )
    _refuse_started(est, inventory.domain)
    lines = _lines(inventory)
    posted = info.post(est, inventory, lines, actor, role)
    for text in posted.lines:
        _write(inventory, actor=actor, role=role, operation=_("Registre poursuivi"), summary=text)
    inventory.status, inventory.posted_by, inventory.posted_at = Status.POSTED, actor, timezone.now()
    inventory.objects_created = posted.objects
    save_audited(inventory, actor=actor, reason="report aux registres")
    _write(inventory, actor=actor, role=role, operation=_("Inventaire reporté aux registres"), summary=posted.summary)
    return inventory
