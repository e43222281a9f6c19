"""Passwords that belong to their owner: nobody but the person knows the secret their signature
rests on.

- An outside official (and anyone with an address) is invited by a link mailed to them, valid a
  limited time (``LEDGERS_INVITATION_HOURS``), and chooses their password through it; the
  directorate that invites never sees the link nor the password.
- The directorate may give a person of the house a provisional password (no address, no mail);
  never to an outside official. An account whose password someone else set (a provisional one) or
  that has none yet must choose its own at its next sign-in before it can do anything else
  (``OwnPasswordMiddleware``).
- Anyone changes their own password from the profile, the current one required (checked through
  ``authenticate``, so that wrong guesses count towards the sign-in throttle), or resets it by
  e-mail through Django's own views.

Each of these is a line of the register of authorisations (hooks.STAFF_ACT), never with the secret.
"""

import datetime

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_encode
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token

from . import hooks
from .accounts import _from_directory
from .authz import save_audited
from .models import Establishment, Membership, StaffAccount
from .roles import REGULATOR_ROLES
from .services import person_name, setup_role
from .signin import MUST_SET_PASSWORD  # noqa: F401 (the session key the pages clear)


class InvitationTokenGenerator(PasswordResetTokenGenerator):
    """Django's reset token under its own salt, valid ``LEDGERS_INVITATION_HOURS``: it is spent
    once the password is chosen (the token hashes the password), and a new invitation spends the
    older ones (the account gets a new unusable password)."""

    key_salt = "ledgers.core.passwords.InvitationTokenGenerator"

    def check_token(self, user, token) -> bool:
        if not (user and token):
            return False
        try:
            stamp, _hash = token.split("-")
            timestamp = base36_to_int(stamp)
        except ValueError:
            return False
        if self._num_seconds(self._now()) - timestamp > settings.LEDGERS_INVITATION_HOURS * 3600:
            return False
        return any(
            constant_time_compare(self._make_token_with_timestamp(user, timestamp, secret), token)
            for secret in (self.secret, *self.secret_fallbacks)
        )


invitation_tokens = InvitationTokenGenerator()


def _account(user: AbstractBaseUser, establishment: Establishment) -> StaffAccount:
    return StaffAccount.objects.select_for_update().filter(user=user).first() or StaffAccount(
        user=user, establishment=establishment
    )


def _owner_lines(user: AbstractBaseUser, *, subject, text, **facts) -> None:
    """The owner's own act on their secret, a line in each establishment they belong to (where
    they hold a role, and where their account was created). No role writes it in the person's name
    but the directorate's: it is recorded by the system, naming the person who acted."""
    ids = set(Membership.objects.filter(user=user).values_list("establishment_id", flat=True))
    ids |= set(StaffAccount.objects.filter(user=user).values_list("establishment_id", flat=True))
    for establishment in Establishment.objects.filter(pk__in=ids).order_by("pk"):
        hooks.record(
            hooks.STAFF_ACT,
            establishment=establishment,
            actor=None,
            role="",
            subject=subject,
            text=text,
            person=user.get_username(),
            name=person_name(user),
            **facts,
        )


def _check_new(password: str, user: AbstractBaseUser, field: str = "new_password") -> None:
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({field: exc.messages}) from exc


def _set(user: AbstractBaseUser, password: str) -> None:
    """The password saved, the account's API token revoked (a token outlives no change of secret)."""
    user.set_password(password)
    user.save(update_fields=["password"])
    Token.objects.filter(user=user).delete()


@transaction.atomic
def account_invite(
    *, establishment: Establishment, user: AbstractBaseUser, actor: AbstractBaseUser | None
) -> datetime.datetime:
    """Mail the person a link to choose their own password (the directorate): the link itself is
    made and sent after the transaction commits, and shown to nobody. Any link sent before is
    spent. Refused for an account whose owner has already chosen their password (they reset it by
    e-mail themselves); an account set up before, whose password someone else may know, is invited
    too, its password spent. The moment the link expires."""
    acting = setup_role(actor, establishment)
    _from_directory(user)
    if not user.is_active:
        raise ValidationError(_("Ce compte est désactivé."))
    if not user.email:
        raise ValidationError(_("Ce compte n'a pas d'adresse électronique : l'invitation ne peut lui être envoyée."))
    account = _account(user, establishment)
    if account.pk is not None and not account.must_set_password:
        raise ValidationError(
            _(
                "%(name)s a déjà choisi son mot de passe : pour le changer, il demande lui-même un lien de "
                "réinitialisation."
            )
            % {"name": person_name(user)}
        )
    user.set_unusable_password()
    user.save(update_fields=["password"])
    account.must_set_password = True
    save_audited(account, actor=actor, reason="invitation")
    expires = timezone.now() + datetime.timedelta(hours=settings.LEDGERS_INVITATION_HOURS)
    name, login, address = person_name(user), user.get_username(), user.email
    until = establishment.localtime(expires).strftime("%d/%m/%Y %H:%M")
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=acting,
        subject=_("Invitation à choisir son mot de passe"),
        text=lambda: str(
            _("Lien envoyé à %(name)s à l'adresse %(address)s, valable jusqu'au %(until)s.")
            % {"name": name, "login": login, "address": address, "until": until}
        ),
        person=login,
        name=name,
        email=address,
        valid_until=until,
    )
    from .tasks import invitation_mail_task

    transaction.on_commit(lambda: invitation_mail_task.delay(user.pk, establishment.pk))
    return expires


@transaction.atomic
def account_password_provisional(
    *, establishment: Establishment, user: AbstractBaseUser, password: str, actor: AbstractBaseUser | None
) -> AbstractBaseUser:
    """A provisional password given by the directorate to a person of the house who has no
    address: its owner must replace it at their next sign-in before doing anything else. Never to
    an outside official (they are invited: nobody else may know the secret of their signature)."""
    acting = setup_role(actor, establishment)
    _from_directory(user)
    if not user.is_active:
        raise ValidationError(_("Ce compte est désactivé."))
    if actor is not None and user.pk == actor.pk:
        raise ValidationError(_("Votre propre mot de passe se change depuis votre profil."))
    if Membership.objects.filter(user=user, role__in=REGULATOR_ROLES).exists():
        raise ValidationError(
            _(
                "Un fonctionnaire de l'autorité n'a jamais de mot de passe donné par l'établissement : "
                "envoyez-lui une invitation."
            )
        )
    _check_new(password, user, field="password")
    _set(user, password)
    account = _account(user, establishment)
    account.must_set_password = True
    save_audited(account, actor=actor, reason="mot de passe provisoire")
    name, login = person_name(user), user.get_username()
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=acting,
        subject=_("Mot de passe provisoire"),
        text=lambda: str(
            _("Mot de passe provisoire donné à %(name)s, à remplacer par son titulaire à sa prochaine connexion.")
            % {"name": name, "login": login}
        ),
        person=login,
        name=name,
    )
    return user


def _owner_chose(user: AbstractBaseUser, password: str, *, how: str) -> None:
    _set(user, password)
    account = StaffAccount.objects.select_for_update().filter(user=user).first()
    if account is not None and account.must_set_password:
        account.must_set_password = False
        save_audited(account, actor=user, reason=how)
    texts = {
        "change": _("%(name)s a changé son mot de passe (l'ancien donné)."),
        "link": _("%(name)s a choisi son mot de passe par le lien qui lui a été envoyé."),
    }
    name = person_name(user)
    _owner_lines(
        user,
        subject=_("Mot de passe choisi par son titulaire"),
        text=lambda: str(texts[how] % {"name": name}),
        means=how,
    )


def password_change(
    *, user: AbstractBaseUser, old_password: str, new_password: str, request: HttpRequest | None = None
) -> AbstractBaseUser:
    """The person changes their own password, giving the current one (checked through
    ``authenticate``: wrong guesses count towards the sign-in throttle, and a locked account is
    refused). Django's password validators apply. The current password is checked outside the
    change's transaction: a refusal rolls that back, and must not take the failed attempt with it."""
    if not user.is_authenticated or not user.has_usable_password():
        raise ValidationError({"old_password": _("Ce compte n'a pas de mot de passe à changer.")})
    confirmed = authenticate(request, username=user.get_username(), password=old_password)
    if confirmed is None or confirmed.pk != user.pk:
        raise ValidationError(
            {
                "old_password": _(
                    "Mot de passe actuel incorrect (ou trop d'essais : réessayez plus tard). Rien n'a été changé."
                )
            }
        )
    if old_password == new_password:
        raise ValidationError({"new_password": _("Le nouveau mot de passe doit différer de l'actuel.")})
    _check_new(new_password, user)
    with transaction.atomic():
        _owner_chose(user, new_password, how="change")
    return user


@transaction.atomic
def password_set_by_link(*, user: AbstractBaseUser, new_password: str) -> AbstractBaseUser:
    """The person chooses their password through the link mailed to them (an invitation, or a
    reset they asked for); the caller checked the link's token."""
    if not user.is_active:
        raise ValidationError(_("Ce compte est désactivé."))
    _check_new(new_password, user)
    _owner_chose(user, new_password, how="link")
    return user


def invitation_link(user: AbstractBaseUser) -> str:
    """The path of the page where ``user`` chooses their password, with a token made now."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("invitation", kwargs={"uidb64": uid, "token": invitation_tokens.make_token(user)})


def invitation_mail_send(*, user_id: int, establishment_id: int) -> bool:
    """Mail the invitation's link to the person's own address (the link is made here and kept
    nowhere else); False when there is nothing to send any more (the password was chosen, the
    account deactivated)."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).exclude(email="").first()
    if user is None or not StaffAccount.objects.filter(user=user, must_set_password=True).exists():
        return False
    establishment = Establishment.objects.get(pk=establishment_id)
    expires = establishment.localtime(timezone.now() + datetime.timedelta(hours=settings.LEDGERS_INVITATION_HOURS))
    with translation.override(settings.LANGUAGE_CODE):
        body = _(
            "Bonjour %(name)s,\n\n%(establishment)s vous a ouvert un compte (identifiant : %(login)s). "
            "Choisissez vous-même votre mot de passe par ce lien, valable jusqu'au %(until)s :\n\n%(link)s\n\n"
            "Personne d'autre ne le connaîtra : il est votre signature dans les registres."
        ) % {
            "name": person_name(user),
            "establishment": establishment.name,
            "login": user.get_username(),
            "until": expires.strftime("%d/%m/%Y %H:%M"),
            "link": settings.NOTIFICATIONS_SITE_URL + invitation_link(user),
        }
        subject = f"{settings.EMAIL_SUBJECT_PREFIX}{_('Votre compte : choisissez votre mot de passe')}"
    EmailMessage(subject=subject, body=str(body), to=[user.email]).send()
    return True
