"""Core's acts written in the main courante: the kind says it is the chronological log of the
establishment's facts, "ouvertures, fermetures, observations", kept by the directorate in both
jurisdictions; no text names another register for them. The séance's opening and closing
(core.hooks.SEANCE_OPENED, SEANCE_CLOSED), and each change of the establishment's settings
(core.hooks.SETTING_CHANGED): the rules read them, so who changed which, when and from what is a
line the authority visas with the others. In Monaco, a gaming table put in or out of service or
given another game (core.hooks.TABLE_SET_UP): no text of AM 88-384 or AM 2006-371 names a register
of the tables (in France they go in the register of gaming authorisations, with the arrêté that
allows them: ledgers.authority). Acts on who may act as what, and on the set-up
(core.hooks.STAFF_ACT), go in the register of authorisations instead."""

import datetime
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.establishment_settings import SETTINGS
from ledgers.core.hooks import (
    SEANCE_CLOSED,
    SEANCE_OPENED,
    SETTING_CHANGED,
    STAFF_ACT,
    TABLE_SET_UP,
    records,
    set_up_act,
    set_up_detail,
)
from ledgers.core.models import Establishment, GamingTable, Seance

from .kinds import MAIN_COURANTE
from .services import EVENT_AT_FORMAT, authorisation_entry_write, entry_write, register_language


def _fact(
    establishment: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    at: datetime.datetime,
    subject,
    text: Callable[[], str],
    **about: Any,
) -> None:
    """The main courante's line of an act of core, in the registers' language (``text`` gives the
    relation of the facts there); ``about``: the object it concerns, by key."""
    with register_language():
        payload = {
            "event_at": establishment.localtime(at).strftime(EVENT_AT_FORMAT),
            "subject": str(subject),
            "text": text(),
            **about,
        }
    entry_write(establishment=establishment, kind=MAIN_COURANTE.code, actor=actor, role=role, payload=payload)


@records(SEANCE_OPENED)
def seance_opened(*, seance: Seance, actor: AbstractBaseUser, role: str) -> None:
    _fact(
        seance.establishment,
        actor=actor,
        role=role,
        at=seance.opened_at,
        subject=_("Ouverture de la séance"),
        text=lambda: str(_("Ouverture de la séance du %(seance)s.") % {"seance": seance}),
        seance=seance.pk,
    )


@records(SEANCE_CLOSED)
def seance_closed(*, seance: Seance, actor: AbstractBaseUser, role: str) -> None:
    parties = seance.table_sessions.count()
    _fact(
        seance.establishment,
        actor=actor,
        role=role,
        at=seance.closed_at,
        subject=_("Clôture de la séance"),
        text=lambda: str(
            _("Clôture de la séance du %(seance)s : %(parties)s partie(s) de table terminée(s).")
            % {"seance": seance, "parties": parties}
        ),
        seance=seance.pk,
    )
    if settings.LEDGERS_SEAL_ON_SEANCE_CLOSE:  # the séance's entries sealed once it is over
        transaction.on_commit(_seal, robust=True)


def _seal() -> None:
    from .tasks import checkpoints_seal_task

    checkpoints_seal_task.delay()


@records(SETTING_CHANGED)
def setting_changed(
    *, establishment: Establishment, code: str, before: Any, actor: AbstractBaseUser, role: str
) -> None:
    setting = SETTINGS[code]
    _fact(
        establishment,
        actor=actor,
        role=role,
        at=timezone.now(),
        subject=_("Réglage de l'établissement"),
        text=lambda: str(
            _("%(setting)s (%(code)s) : %(value)s. Auparavant : %(before)s.")
            % {
                "setting": setting.label,
                "code": code,
                "value": setting.describe(establishment.setting(code), establishment),
                "before": setting.describe(before, establishment),
            }
        ),
        setting=code,
    )


@records(TABLE_SET_UP)
def table_set_up(*, table: GamingTable, before: GamingTable | None, actor: AbstractBaseUser, role: str) -> None:
    """Monaco: the table's set-up, a fact of the main courante."""
    if table.establishment.jurisdiction != "MC":
        return
    _fact(
        table.establishment,
        actor=actor,
        role=role,
        at=timezone.now(),
        subject=set_up_act(table, before),
        text=lambda: str(
            _("Table %(number)s (%(detail)s) : %(state)s.")
            % {
                "number": table.number,
                "detail": set_up_detail(table, before),
                "state": _("en service") if table.active else _("hors service"),
            }
        ),
        table=table.number,
    )


@records(STAFF_ACT)
def staff_act(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser | None,
    role: str,
    subject,
    text: Callable[[], str],
    **about: Any,
) -> None:
    """An act on who may act as what, or on the set-up: a line of the register of authorisations."""
    with register_language():
        payload = {
            "event_at": establishment.localtime(timezone.now()).strftime(EVENT_AT_FORMAT),
            "subject": str(subject),
            "text": text(),
            **about,
        }
    authorisation_entry_write(establishment=establishment, actor=actor, role=role, payload=payload)
