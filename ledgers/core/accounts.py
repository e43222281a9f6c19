"""The people of an establishment: accounts created by its directorate with the person's name,
their roles granted and revoked, their deactivation. Each act is a line of the register of
authorisations (hooks.STAFF_ACT), written in the act's transaction."""

import datetime
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token

from . import hooks
from .authz import save_audited
from .models import DirectoryAccount, Establishment, Membership, StaffAccount
from .roles import DIRECTORATE, REGULATOR_ROLES, Role, role_label
from .services import membership_grant, membership_revoke, person_name, setup_role

REQUIRED = _("Ce champ est obligatoire.")
# Who reads the roles' history: the directorate, and the authorities that check who signed what.
HISTORY_READERS = (*DIRECTORATE, *sorted(REGULATOR_ROLES))


def _from_directory(user: AbstractBaseUser) -> None:
    """An account of the casino's directory has its roles and its secret there: the directory's
    next synchronisation would undo what a page did."""
    if DirectoryAccount.objects.filter(user=user).exists():
        raise ValidationError(_("Ce compte vient de l'annuaire : ses rôles et son mot de passe y sont gérés."))


def _roles_given(roles: Iterable[str]) -> list[str]:
    given = []
    for role in roles:
        if role not in Role.values:
            raise ValidationError({"roles": _("Rôle inconnu : %(role)s.") % {"role": role}})
        if role not in given:
            given.append(str(role))
    return given


@transaction.atomic
def account_create(
    *,
    establishment: Establishment,
    username: str,
    first_name: str,
    last_name: str,
    email: str = "",
    roles: Iterable[str] = (),
    since: datetime.date | None = None,
    actor: AbstractBaseUser | None,
) -> AbstractBaseUser:
    """An account for a person of the establishment, created by its directorate: login, first
    name and last name (the registers print the name, never a bare login), an address where the
    person receives their invitation; no password (the person sets their own). Its roles are
    granted with it, each a line of its own; ``since``: the day a person already in post has held
    them from (never a day to come: a role is granted on the day it starts)."""
    acting = setup_role(actor, establishment)
    username, first_name, last_name, email = (
        (username or "").strip(),
        (first_name or "").strip(),
        (last_name or "").strip(),
        (email or "").strip(),
    )
    errors: dict[str, list] = {}
    users = get_user_model().objects
    if not username:
        errors["username"] = [REQUIRED]
    else:
        try:
            UnicodeUsernameValidator()(username)
        except ValidationError as exc:
            errors["username"] = exc.messages
        else:
            if users.filter(username__iexact=username).exists():
                errors["username"] = [_("Cet identifiant est déjà pris.")]
    if not first_name:
        errors["first_name"] = [REQUIRED]
    if not last_name:
        errors["last_name"] = [REQUIRED]
    if email:
        try:
            validate_email(email)
        except ValidationError as exc:
            errors["email"] = exc.messages
    if since is not None and since > establishment.localtime().date():
        errors["since"] = [_("Un rôle s'attribue le jour où il commence : pas de date à venir.")]
    if errors:
        raise ValidationError(errors)
    granted = _roles_given(roles)
    user = users.model(username=username, first_name=first_name, last_name=last_name, email=email)
    user.set_unusable_password()
    for name, limit in (("username", 150), ("first_name", 150), ("last_name", 150), ("email", 254)):
        if len(getattr(user, name)) > limit:
            raise ValidationError({name: _("%(limit)s caractères au plus.") % {"limit": limit}})
    user.save()
    save_audited(StaffAccount(user=user, establishment=establishment), actor=actor, reason="création")
    name = person_name(user)
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=acting,
        subject=_("Création d'un compte"),
        text=lambda: str(_("Compte de %(name)s créé.") % {"name": name, "login": username}),
        person=username,
        name=name,
        email=email,
    )
    for role in granted:
        membership_grant(user=user, establishment=establishment, role=role, actor=actor, since=since)
    return user


@transaction.atomic
def role_grant(
    *, establishment: Establishment, user: AbstractBaseUser, role: str, actor: AbstractBaseUser | None
) -> Membership:
    """The directorate gives a person of the establishment a role (a line of the register of
    authorisations); a role the person already holds is refused, not granted twice."""
    setup_role(actor, establishment)
    _from_directory(user)
    (role,) = _roles_given([role])
    if not user.is_active:
        raise ValidationError(_("Ce compte est désactivé : il ne reçoit plus de rôle."))
    if Membership.objects.filter(user=user, establishment=establishment, role=role).exists():
        raise ValidationError(_("%(name)s est déjà %(role)s.") % {"name": person_name(user), "role": role_label(role)})
    return membership_grant(user=user, establishment=establishment, role=role, actor=actor)


@transaction.atomic
def role_revoke(
    *, establishment: Establishment, user: AbstractBaseUser, role: str, actor: AbstractBaseUser | None, reason: str = ""
) -> None:
    """The directorate takes a role away from a person (a line of the register of
    authorisations); the period during which they held it stays, ended."""
    setup_role(actor, establishment)
    _from_directory(user)
    membership = Membership.objects.filter(user=user, establishment=establishment, role=role).first()
    if membership is None:
        raise ValidationError(
            _("%(name)s n'est pas %(role)s ici.") % {"name": person_name(user), "role": role_label(role)}
        )
    membership_revoke(membership=membership, actor=actor, reason=(reason or "").strip())


@transaction.atomic
def account_deactivate(
    *, establishment: Establishment, user: AbstractBaseUser, actor: AbstractBaseUser | None, reason: str = ""
) -> AbstractBaseUser:
    """A person who leaves: every role they hold here revoked (a line each), the account closed
    to sign-in and to the API, and so off every staffing list. A person who still holds roles in
    another establishment is refused: its directorate revokes them first."""
    acting = setup_role(actor, establishment)
    _from_directory(user)
    if actor is not None and user.pk == actor.pk:
        raise ValidationError(_("Vous ne pouvez pas désactiver votre propre compte."))
    if not user.is_active:
        raise ValidationError(_("Ce compte est déjà désactivé."))
    elsewhere = sorted(
        {
            m.establishment.name
            for m in Membership.objects.filter(user=user)
            .exclude(establishment=establishment)
            .select_related("establishment")
        }
    )
    if elsewhere:
        raise ValidationError(
            _("%(name)s a encore des rôles dans : %(places)s ; leur direction les retire d'abord.")
            % {"name": person_name(user), "places": ", ".join(elsewhere)}
        )
    reason = (reason or "").strip()
    for membership in Membership.objects.filter(user=user, establishment=establishment).order_by("role"):
        membership_revoke(membership=membership, actor=actor, reason=reason or "désactivation du compte")
    user.is_active = False
    user.save(update_fields=["is_active"])
    Token.objects.filter(user=user).delete()
    name, login = person_name(user), user.get_username()
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=acting,
        subject=_("Désactivation d'un compte"),
        text=lambda: str(
            _("Compte de %(name)s désactivé%(reason)s.")
            % {"name": name, "login": login, "reason": f" : {reason}" if reason else ""}
        ),
        person=login,
        name=name,
        reason=reason,
    )
    return user
