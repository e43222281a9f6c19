"""Sign-in against the casino's directory (OpenLDAP or Active Directory) with django-python3-ldap.

The directory is the authority for its users: at each sign-in (and each re-authentication for a
visa or a countersignature, which go through ``authenticate`` too) and at each ``sync_directory``
the user's memberships are set from their directory groups through ``LEDGERS_DIRECTORY_GROUPS``
(group DN → establishment code and role). Someone in no mapped group, or no longer in the
directory, is disabled. Accounts created in the application keep signing in with their own
password (the model backend comes first in ``AUTHENTICATION_BACKENDS``).
"""

from dataclasses import dataclass

import ldap3
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django_python3_ldap import ldap
from django_python3_ldap.auth import LDAPBackend
from ldap3.utils.conv import escape_filter_chars

from . import services
from .models import DirectoryAccount, Establishment


def directory_configured() -> bool:
    return bool(settings.LDAP_AUTH_URL)


class DirectoryBackend(LDAPBackend):
    """django-python3-ldap's backend, off when no directory is configured, and refusing a user
    whom the sync has just disabled (the library's backend does not check ``is_active``)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if not directory_configured() or not username or not password:
            return None
        user = super().authenticate(request, username=username, password=password)
        return user if user is not None and self.user_can_authenticate(user) else None


def _group_dns(connection: ldap3.Connection, dn: str, attributes: dict) -> set[str]:
    """The user's groups: ``memberOf`` (Active Directory, OpenLDAP's memberof overlay) and the
    groupOfNames / groupOfUniqueNames under ``LDAP_GROUP_BASE`` that list the user."""
    groups = {str(group) for group in attributes.get("memberOf", [])}
    if settings.LEDGERS_DIRECTORY_GROUP_BASE:
        escaped = escape_filter_chars(dn)
        connection.search(
            search_base=settings.LEDGERS_DIRECTORY_GROUP_BASE,
            search_filter=f"(|(member={escaped})(uniqueMember={escaped}))",
            search_scope=ldap3.SUBTREE,
            attributes=[],
        )
        groups |= {entry["dn"] for entry in connection.response if entry.get("type") == "searchResEntry"}
    return groups


def _grants(groups: set[str]) -> set[tuple[Establishment, str]]:
    mapping = {dn.lower(): tuple(target) for dn, target in settings.LEDGERS_DIRECTORY_GROUPS.items()}
    wanted = {mapping[group.lower()] for group in groups if group.lower() in mapping}
    establishments = Establishment.objects.in_bulk({code for code, _role in wanted}, field_name="code")
    return {(establishments[code], role) for code, role in wanted if code in establishments}


def sync_user_relations(user: AbstractBaseUser, ldap_attributes: dict, *, connection, dn) -> None:
    """``LDAP_AUTH_SYNC_USER_RELATIONS``: called by django-python3-ldap for each directory user it
    reads (at sign-in and during ``sync_directory``)."""
    services.directory_account_sync(user=user, dn=dn, grants=_grants(_group_dns(connection, dn, ldap_attributes)))


@dataclass
class SyncResult:
    checked: int = 0
    disabled: int = 0


class DirectoryUnreachable(RuntimeError):
    pass


def sync_directory() -> SyncResult:
    """Check every directory account against the directory, with the service account
    (``LDAP_BIND_USERNAME``): memberships follow the groups; those the directory no longer has are
    disabled. An unreachable directory disables no one."""
    result = SyncResult()
    if not directory_configured():
        return result
    with ldap.connection() as connection:
        if connection is None:
            raise DirectoryUnreachable(f"directory unreachable: {settings.LDAP_AUTH_URL}")
        for account in DirectoryAccount.objects.filter(left_at=None).select_related("user"):
            result.checked += 1
            if connection.get_user(username=account.user.get_username()) is None:
                services.directory_account_leave(account=account)
                result.disabled += 1
    return result
