"""A roulette partie ends only once the lid key issued for it is back in custody (KEY-08): the
equipment app already requires the lid locked (WHEEL-02); this adds the key's return when the key
went out through the register of keys. A séance's closing flags the machine keys still out with
the mechanics (KEY-05: a flag, the closing goes on)."""

from collections.abc import Iterator

from django.db.models import OuterRef, Subquery
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import Missing, on_seance_closing, on_table_closing, party_fact, party_facts
from ledgers.core.models import Seance, TableSession
from ledgers.registers.services import display_name

from . import selectors
from .models import KeyIssue
from .policy import LockType
from .purposes import TABLE_PARTIE

# The code of the first cylinder lid key still out for each table-partie, read with the séances' parties.
party_facts(
    lid_key_out=lambda: Subquery(
        KeyIssue.objects.filter(
            purpose_type=TABLE_PARTIE.code,
            purpose_id=OuterRef("pk"),
            key__lock_type=LockType.CYLINDER_LID,
            returned_at__isnull=True,
        )
        .order_by("pk")
        .values("key__code")[:1]
    )
)


@on_table_closing
def lid_key_returned(session: TableSession) -> None:
    code = party_fact(session, "lid_key_out")
    if code is not None:
        raise RuleViolation(
            "KEY-08",
            _("Fin de partie impossible : la clé du couvercle %(key)s doit être rendue à sa garde.") % {"key": code},
        )


@on_seance_closing(flags_only=True)
def machine_keys_out(seance: Seance) -> Iterator[Missing]:
    for issue in selectors.out_at_closing(seance.establishment):
        yield Missing(
            _("Clé %(key)s encore sortie chez %(holder)s (%(purpose)s)")
            % {"key": issue.key.code, "holder": display_name(issue.holder), "purpose": issue.purpose_label},
            "KEY-05",
            reverse("keys:return", args=[issue.pk]),
            flag=True,
        )
