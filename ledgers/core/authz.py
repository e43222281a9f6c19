"""Who acts, in which role."""

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection
from django.db.models import CharField, Model, TextField, UniqueConstraint
from django.http import HttpRequest
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django_otp import match_token, user_has_device

from .catalogue import REQUIREMENTS
from .errors import RuleViolation
from .models import Establishment, Membership
from .roles import Role


@cache
def _roles_sql() -> str:
    """The roles of a user in an establishment, as one plain statement: every act checks them,
    and composing the ORM query each time costs several times the query itself."""
    q, meta = connection.ops.quote_name, Membership._meta
    column = {name: q(meta.get_field(name).column) for name in ("role", "establishment", "user")}
    return (
        f"SELECT {column['role']} FROM {q(meta.db_table)} "
        f"WHERE {column['establishment']} = %s AND {column['user']} = %s"
    )


def roles_of(user: AbstractBaseUser, establishment: Establishment) -> set[str]:
    if not user.is_authenticated:
        return set()
    remembered = getattr(user, "_remembered_roles", None)
    if remembered is not None and establishment.pk in remembered:
        return set(remembered[establishment.pk])
    with connection.cursor() as cursor:
        cursor.execute(_roles_sql(), [establishment.pk, user.pk])
        held = {role for (role,) in cursor.fetchall()}
    if remembered is not None:
        remembered[establishment.pk] = frozenset(held)
    return held


@contextmanager
def roles_remembered(user: AbstractBaseUser) -> Iterator[None]:
    """Within the block, ``roles_of(user, …)`` reads the memberships once per establishment: for a
    page that asks many times and changes none (every read-only request, the dashboard's panels).
    Nested blocks share the outer one's memory."""
    if getattr(user, "_remembered_roles", None) is not None:
        yield
        return
    user._remembered_roles = {}
    try:
        yield
    finally:
        del user._remembered_roles


def require_role(user: AbstractBaseUser, establishment: Establishment, allowed: Iterable[str]) -> str:
    """Return the first of ``allowed`` that ``user`` holds here, else refuse (PermissionDenied)."""
    return _first_held(roles_of(user, establishment), allowed)


def require_roles(establishment: Establishment, checks: Iterable[tuple[AbstractBaseUser, Iterable[str]]]) -> list[str]:
    """``require_role`` for several users of one act (who acts, who countersigns), their
    memberships read in one query: the role each acts in, in the order of ``checks``."""
    checks = list(checks)
    held: dict[int, set[str]] = {user.pk: set() for user, _allowed in checks if user.is_authenticated}
    rows = Membership.objects.filter(establishment=establishment, user_id__in=list(held))
    for user_id, role in rows.values_list("user_id", "role"):
        held[user_id].add(role)
    return [_first_held(held.get(user.pk, set()), allowed) for user, allowed in checks]


def holds_one_of(held: Iterable[str], allowed: Iterable[str]) -> bool:
    """Whether roles ``held`` let their holder do an act reserved to ``allowed``: what
    ``require_role`` refuses, so that a page offers only the acts its person may do."""
    held = set(held)
    return any(role in held for role in allowed)


def refusal_of(check: Callable[[], object]) -> RuleViolation | PermissionDenied | None:
    """What ``check`` (the check a service runs before its act) refuses, None when it lets the
    act through: a page asks the service's own check before offering the act."""
    try:
        check()
    except (RuleViolation, PermissionDenied) as exc:
        return exc
    return None


def role_refusal(user: AbstractBaseUser, establishment: Establishment, roles: Iterable[str]) -> PermissionDenied | None:
    """What ``require_role`` refuses ``user`` for an act reserved to ``roles``, None when they hold one."""
    return refusal_of(lambda: require_role(user, establishment, roles))


def _first_held(held: set[str], allowed: Iterable[str]) -> str:
    allowed = tuple(allowed)
    if holds_one_of(held, allowed):
        return str(next(role for role in allowed if role in held))
    labels = ", ".join(dict.fromkeys(str(Role(r).label) for r in allowed))  # two roles may read alike
    raise PermissionDenied(_("Cette opération est réservée aux rôles : %(roles)s.") % {"roles": labels})


def reserved_to(roles: Iterable[str], requirement: str = "", establishment: Establishment | None = None) -> str:
    """The refusal a page shows to whom may not act: the roles that may, and the row and article
    that say so (when a row does)."""
    names = establishment.profile.authority_names if establishment is not None else {}
    labels = ", ".join(sorted(str(names.get(r) or Role(r).label) for r in roles)) or "—"
    message = _("Cet acte est réservé aux rôles : %(roles)s.") % {"roles": labels}
    if requirement:
        message = f"{message} {requirement} — {REQUIREMENTS[requirement].article}"
    return message


def save_audited(obj: Model, *, actor: AbstractBaseUser | None, reason: str = "") -> Model:
    """Save ``obj`` with its history row attributed to ``actor`` (never to a thread-local)."""
    obj._history_user = actor  # read by django-simple-history
    if reason:
        obj._change_reason = reason
    check_text_lengths(obj)
    try:
        obj.save()
    except IntegrityError as exc:
        violation = unique_violation(obj, exc)
        if violation is None:
            raise
        raise violation from exc
    return obj


def check_text_lengths(obj: Model) -> None:
    """Refuse texts longer than their column (or than ``LEDGERS_TEXT_MAX_LENGTH`` for free texts):
    a clear 400 rather than the database's error, whatever form or API field brought them."""
    errors = {}
    for field in obj._meta.concrete_fields:
        if not isinstance(field, CharField | TextField):
            continue
        limit = field.max_length or settings.LEDGERS_TEXT_MAX_LENGTH
        value = getattr(obj, field.attname)
        if isinstance(value, str) and len(value) > limit:
            errors[field.name] = _("%(field)s : %(limit)s caractères au plus (%(length)s reçus).") % {
                "field": capfirst(field.verbose_name),
                "limit": limit,
                "length": len(value),
            }
    if errors:
        raise ValidationError(errors)


# Characters that change how a printed text reads without showing themselves: the bidirectional
# overrides and isolates, and the zero-width ones (a name or a number must print as it is typed).
INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff"
)


SECRETS = ("password", "_otp", "otp_token")


def check_typed(data: Mapping[str, Any]) -> None:
    """Refuse what a person typed that no paper register could hold (a text longer than
    ``LEDGERS_TEXT_MAX_LENGTH``) or that would print otherwise than it reads (INVISIBLE), naming the
    field, before any service is called."""
    errors = {}
    for name, value in data.items():
        if name.endswith(SECRETS):  # a secret is checked by its own validators, never printed
            continue
        for text in _texts(value):
            if len(text) > settings.LEDGERS_TEXT_MAX_LENGTH:
                errors[name] = _("%(limit)s caractères au plus (%(length)s reçus).") % {
                    "limit": settings.LEDGERS_TEXT_MAX_LENGTH,
                    "length": len(text),
                }
            elif not INVISIBLE.isdisjoint(text):
                errors[name] = _("Caractère invisible ou d'inversion du sens d'écriture non admis.")
    if errors:
        raise ValidationError(errors)


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


def unique_violation(obj: Model, exc: IntegrityError) -> ValidationError | None:
    """The clear refusal of a save that broke one of the model's unique constraints ("a supplier
    with this name already exists"), else None. The transaction is aborted: the caller's service
    is refused as a whole."""
    constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
    meta = obj._meta
    for unique in meta.constraints:
        if isinstance(unique, UniqueConstraint) and unique.name == constraint and unique.fields:
            return obj.unique_error_message(type(obj), unique.fields)
    for field in meta.fields:
        if field.unique and not field.primary_key and constraint == f"{meta.db_table}_{field.column}_key":
            return obj.unique_error_message(type(obj), (field.name,))
    return None


def secret_refused(request: HttpRequest | None, username: str) -> None:
    """A wrong secret other than a password (an authenticator code, a link's token) counts as a
    failed sign-in of ``username`` at this address (django-axes), as a wrong password does."""
    from django.contrib.auth.signals import user_login_failed

    user_login_failed.send(sender=__name__, credentials={"username": username}, request=request)


def locked_out(request: HttpRequest | None, username: str) -> bool:
    """Whether ``username`` is locked out at this address after too many wrong secrets."""
    from axes.handlers.proxy import AxesProxyHandler

    return not AxesProxyHandler.is_allowed(request, {"username": username})


def code_checked(request: HttpRequest | None, user: AbstractBaseUser, otp_token: str) -> bool:
    """Whether ``otp_token`` is a current code of ``user``'s confirmed authenticator (True when
    they have none); a wrong one counts towards the lockout (``secret_refused``)."""
    if not user_has_device(user, confirmed=True) or match_token(user, otp_token.strip()) is not None:
        return True
    secret_refused(request, user.get_username())
    return False


def reauthenticate(request: HttpRequest, *, user: AbstractBaseUser, password: str, otp_token: str = "") -> None:
    """Confirm that the person signing is ``user``: their password again, and a current code of
    their authenticator when they have a confirmed TOTP device. Goes through ``authenticate`` so
    that failures count towards the login throttle (django-axes), and a locked-out signer is
    refused whatever they type."""
    confirmed = authenticate(request, username=user.get_username(), password=password)
    if confirmed is None or confirmed.pk != user.pk:
        raise ValidationError({"password": _("Mot de passe incorrect : signature refusée.")})
    if not code_checked(request, user, otp_token):
        raise ValidationError({"otp_token": _("Code d'authentification incorrect ou expiré : signature refusée.")})


def role_named_by_text(
    user: AbstractBaseUser | None, establishment: Establishment, allowed: Iterable[str], code: str, message
) -> str:
    """The role of ``user`` among those a text names for an act, else the text's refusal
    (RuleViolation ``code``, not a mere 403): who acts is itself the rule. A missing user (a
    countersigner not given) is refused the same way."""
    held = roles_of(user, establishment) if user is not None else set()
    for role in allowed:
        if role in held:
            return str(role)
    raise RuleViolation(code, message)
