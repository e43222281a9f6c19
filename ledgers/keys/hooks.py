"""A roulette partie ends only once the lid key issued for it is back in custody (KEY-08): the
equipment app already requires the lid locked (WHEEL-02); this adds the key's return when the key
went out through the register of keys."""

from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import on_table_closing
from ledgers.core.models import TableSession

from .models import KeyIssue
from .policy import LockType
from .purposes import TABLE_PARTIE


@on_table_closing
def lid_key_returned(session: TableSession) -> None:
    out = KeyIssue.objects.filter(purpose_type=TABLE_PARTIE.code, purpose_id=session.pk,
                                  key__lock_type=LockType.CYLINDER_LID, returned_at__isnull=True).first()
    if out is not None:
        raise RuleViolation("KEY-08", _("Fin de partie impossible : la clé du couvercle %(key)s doit être rendue à sa "
                                        "garde.") % {"key": out.key.code})
