"""Writes on the organisation: establishments, staff roles, séances and table sessions."""

import datetime

from django.contrib.auth.models import AbstractBaseUser, Group
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import hooks
from .authz import require_role, save_audited
from .models import Establishment, GamingTable, Membership, Seance, TableSession
from .roles import Role

SEANCE_MANAGERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.INSPECTEUR)
TABLE_MANAGERS = (*SEANCE_MANAGERS, Role.CHEF_TABLE, Role.CHEF_PARTIE)


@transaction.atomic
def membership_grant(
    *, user: AbstractBaseUser, establishment: Establishment, role: str, actor: AbstractBaseUser | None
) -> Membership:
    """Give ``user`` a role here; the role's group carries its Django permissions."""
    membership = Membership.objects.filter(user=user, establishment=establishment, role=role).first()
    if membership is None:
        membership = save_audited(Membership(user=user, establishment=establishment, role=role), actor=actor)
    user.groups.add(Group.objects.get(name=role))
    return membership


@transaction.atomic
def seance_open(
    *, establishment: Establishment, date: datetime.date, period: str, actor: AbstractBaseUser
) -> Seance:
    require_role(actor, establishment, SEANCE_MANAGERS)
    seance = Seance(establishment=establishment, date=date, period=period, opened_at=timezone.now())
    return save_audited(seance, actor=actor, reason="ouverture de séance")


@transaction.atomic
def seance_close(*, seance: Seance, actor: AbstractBaseUser) -> Seance:
    seance = Seance.objects.select_for_update().get(pk=seance.pk)
    require_role(actor, seance.establishment, SEANCE_MANAGERS)
    for session in seance.table_sessions.exclude(status=TableSession.Status.CLOSED):
        table_session_close(session=session, actor=actor)
    seance.status, seance.closed_at = Seance.Status.CLOSED, timezone.now()
    return save_audited(seance, actor=actor, reason="clôture de séance")


@transaction.atomic
def table_session_prepare(*, seance: Seance, table: GamingTable, actor: AbstractBaseUser) -> TableSession:
    """Create the table-partie so that equipment can be issued to it before it opens."""
    require_role(actor, seance.establishment, TABLE_MANAGERS)
    if seance.status != Seance.Status.OPEN:
        raise ValueError(_("La séance est clôturée."))
    if table.establishment_id != seance.establishment_id:
        raise ValueError("table and séance belong to different establishments")
    existing = TableSession.objects.filter(seance=seance, table=table).first()
    if existing is not None:
        return existing
    return save_audited(TableSession(seance=seance, table=table), actor=actor, reason="préparation")


@transaction.atomic
def table_session_open(*, session: TableSession, actor: AbstractBaseUser) -> TableSession:
    """Open the table for play; every domain's opening checks must pass (hooks)."""
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    require_role(actor, session.seance.establishment, TABLE_MANAGERS)
    if session.status != TableSession.Status.PREPARING:
        raise ValueError(_("Cette table est déjà ouverte ou fermée."))
    hooks.run_opening_checks(session)
    session.status, session.opened_at = TableSession.Status.OPEN, timezone.now()
    return save_audited(session, actor=actor, reason="ouverture de la table")


@transaction.atomic
def table_session_close(*, session: TableSession, actor: AbstractBaseUser) -> TableSession:
    """Fin de partie; every domain's closing checks must pass (hooks)."""
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    require_role(actor, session.seance.establishment, TABLE_MANAGERS)
    if session.status == TableSession.Status.CLOSED:
        return session
    hooks.run_closing_checks(session)
    session.status, session.closed_at = TableSession.Status.CLOSED, timezone.now()
    return save_audited(session, actor=actor, reason="fin de partie")
