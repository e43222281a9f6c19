"""The slot side of key custody: the locks a machine needs before it goes in service,
and a socle taken out of operation. A key serves the assets its ``asset_ref`` lists (comma
separated): a machine by its number (SBM number in Monaco, casino number in France), a socle by
its number; the lock type tells a socle key from a machine key of the same number."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.keys.models import Key
from ledgers.keys.policy import LockType
from ledgers.keys.selectors import holder_now, lock_keys, socle_surrendered
from ledgers.keys.services import socle_key_surrender

from .models import Machine, Medium, Socle
from .registers import INVENTORY_KIND


def required_locks(machine: Machine) -> list[tuple[str, str]]:
    """(lock type, catalogue row) of every lock the machine's keys must be registered for: MC, the
    bill box's security lock (KEY-09); FR, the upper and lower parts and one lock for the bill or
    ticket device fitted (KEY-12)."""
    devices = {Medium.BANKNOTES, Medium.TITO} & set(machine.media)
    if machine.establishment.jurisdiction == "MC":
        return [(LockType.BILL_CONTENT, "KEY-09")] if Medium.BANKNOTES in devices else []
    locks = [(LockType.UPPER, "KEY-12"), (LockType.LOWER, "KEY-12")]
    return locks + ([(LockType.BILL_CONTENT, "KEY-12")] if devices else [])


def check_lock_keys(machine: Machine) -> None:
    """Refuse a machine in service while a lock it needs has no key in the register of keys."""
    found = lock_keys(machine.establishment, machine.number)
    for lock_type, code in required_locks(machine):
        if not found.get(lock_type):
            raise RuleViolation(
                code,
                _("La machine %(m)s n'a pas de serrure « %(lock)s » inscrite au registre des clés.")
                % {"m": machine.number, "lock": LockType(lock_type).label},
            )


def check_reset_key(machine: Machine, reset_key: str, actor: AbstractBaseUser) -> None:
    """FR: the reset key named on a RAM clear is a reset key of the register of keys serving the
    machine, and the comité member recording the reset holds it (KEY-15)."""
    if machine.establishment.jurisdiction != "FR":
        return
    key = next(
        (
            k
            for k in lock_keys(machine.establishment, machine.number).get(LockType.RESET, [])
            if k.code == reset_key.strip()
        ),
        None,
    )
    if key is None:
        raise RuleViolation(
            "KEY-15",
            _("La clé de réinitialisation %(k)s n'est pas inscrite au registre des clés pour la machine %(m)s.")
            % {"k": reset_key.strip(), "m": machine.number},
        )
    holder = holder_now(key)
    if holder is None or holder.pk != actor.pk:
        raise RuleViolation(
            "KEY-15",
            _(
                "La clé de réinitialisation %(k)s est détenue par un autre membre du comité de "
                "direction : c'est lui qui l'utilise."
            )
            % {"k": key.code},
        )


@transaction.atomic
def socle_withdraw(*, socle: Socle, actor: AbstractBaseUser, reason: str) -> Socle:
    """Take a socle out of operation for technical reasons: only once its lock and key went to the
    caissier principal of the caisse centrale (KEY-07, ``ledgers.keys.services.socle_key_surrender``)."""
    from .services.common import INVENTORY_ROLES, _append

    est = socle.establishment
    role = require_role(actor, est, INVENTORY_ROLES[est.jurisdiction])
    socle = Socle.objects.select_for_update().get(pk=socle.pk)
    if not reason.strip():
        raise ValidationError({"reason": _("Le motif technique est obligatoire.")})
    if not socle.active:
        raise ValidationError(_("Ce socle est déjà hors exploitation."))
    if Machine.objects.filter(socle=socle).exists():
        raise ValidationError(_("Une machine est installée sur ce socle : déplacez-la d'abord."))
    if est.jurisdiction == "MC" and not socle_surrendered(est, socle.number):
        raise RuleViolation(
            "KEY-07",
            _(
                "La serrure et la clé du socle %(n)s doivent d'abord être remises au caissier "
                "principal de la caisse centrale."
            )
            % {"n": socle.number},
        )
    socle.active = False
    save_audited(socle, actor=actor, reason="KEY-07")
    _append(
        INVENTORY_KIND,
        None,
        est,
        actor=actor,
        role=role,
        event=_("Socle sorti de l'exploitation"),
        at=timezone.now(),
        detail=f"{socle} — {reason.strip()}",
    )
    return socle


@transaction.atomic
def socle_withdraw_handing_over(
    *,
    socle: Socle,
    actor: AbstractBaseUser,
    reason: str,
    key: Key | None = None,
    receiver: AbstractBaseUser | None = None,
    lock_ref: str = "",
) -> Socle:
    """The socle withdrawal page and API: the socle's lock and key handed to the caissier principal
    (``receiver``, authenticated by the caller) and the socle out of operation, both or neither
    (KEY-07). Without a key, only a socle whose key was surrendered before goes out in Monaco."""
    if key is not None:
        if key.establishment_id != socle.establishment_id or (key.assets and socle.number not in key.assets):
            raise ValidationError({"key": _("Cette clé n'est pas celle du socle %(n)s.") % {"n": socle.number}})
        socle_key_surrender(
            key=key, actor=actor, receiver=receiver, socle_ref=socle.number, lock_ref=lock_ref, reason=reason
        )
    return socle_withdraw(socle=socle, actor=actor, reason=reason)
