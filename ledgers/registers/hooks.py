"""The séance's opening and closing, written in the main courante: the kind says it is the
chronological log of the séance's facts, "ouvertures, fermetures"; no text names another register
for them (core.hooks.SEANCE_OPENED, SEANCE_CLOSED)."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from ledgers.core.hooks import SEANCE_CLOSED, SEANCE_OPENED, records
from ledgers.core.models import Seance

from .kinds import MAIN_COURANTE
from .services import EVENT_AT_FORMAT, entry_write, register_language


def _fact(
    seance: Seance, *, actor: AbstractBaseUser, role: str, at: datetime.datetime, subject, text, **params: object
) -> None:
    """The main courante's line of a séance act, in the registers' language: ``text`` is given the
    séance (its date and period) and ``params``."""
    est = seance.establishment
    with register_language():
        payload = {
            "event_at": est.localtime(at).strftime(EVENT_AT_FORMAT),
            "subject": str(subject),
            "text": str(text % {"seance": seance, **params}),
            "seance": seance.pk,
        }
    entry_write(establishment=est, kind=MAIN_COURANTE.code, actor=actor, role=role, payload=payload)


@records(SEANCE_OPENED)
def seance_opened(*, seance: Seance, actor: AbstractBaseUser, role: str) -> None:
    _fact(
        seance,
        actor=actor,
        role=role,
        at=seance.opened_at,
        subject=_("Ouverture de la séance"),
        text=_("Ouverture de la séance du %(seance)s."),
    )


@records(SEANCE_CLOSED)
def seance_closed(*, seance: Seance, actor: AbstractBaseUser, role: str) -> None:
    _fact(
        seance,
        actor=actor,
        role=role,
        at=seance.closed_at,
        subject=_("Clôture de la séance"),
        text=_("Clôture de la séance du %(seance)s : %(parties)s partie(s) de table terminée(s)."),
        parties=seance.table_sessions.count(),
    )
