"""Sign-in against a real OpenLDAP server (slapd started by the session fixture): roles and
establishments from directory groups, re-authentication for a visa, leavers disabled."""

import ldap3
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from ledgers.core.authz import roles_of
from ledgers.core.models import DirectoryAccount
from ledgers.registers.models import EntryKind
from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import main_courante, monaco_cast
from tests.servers import ADMIN_DN, ADMIN_PASSWORD, SLAPD, SUFFIX, Slapd

pytestmark = pytest.mark.skipif(not SLAPD.exists(), reason="OpenLDAP's slapd is not installed (/usr/sbin/slapd)")

PEOPLE, GROUPS = f"ou=people,{SUFFIX}", f"ou=groups,{SUFFIX}"


def person(uid: str, given: str, sn: str) -> str:
    return f"""dn: uid={uid},{PEOPLE}
objectClass: inetOrgPerson
uid: {uid}
cn: {given} {sn}
givenName: {given}
sn: {sn}
mail: {uid}@casino.test
userPassword: {uid}-pw

"""


def group(cn: str, *members: str) -> str:
    lines = "".join(f"member: uid={uid},{PEOPLE}\n" for uid in members)
    return f"dn: cn={cn},{GROUPS}\nobjectClass: groupOfNames\ncn: {cn}\n{lines}\n"


LDIF = (
    f"dn: {SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: casino\no: Casino\n\n"
    f"dn: {PEOPLE}\nobjectClass: organizationalUnit\nou: people\n\n"
    f"dn: {GROUPS}\nobjectClass: organizationalUnit\nou: groups\n\n"
    + person("alice", "Alice", "Martin")
    + person("bruno", "Bruno", "Rossi")
    + person("chloe", "Chloé", "Durand")
    + person("sync", "Service", "Sync")
    + group("scj-mc", "alice", "chloe")
    + group("inspecteurs-mc", "bruno")
    + group("police-nice", "bruno")
    + group("cafeteria", "chloe", "bruno")
)


@pytest.fixture(scope="session")
def slapd(tmp_path_factory):
    server = Slapd(tmp_path_factory.mktemp("slapd"))
    server.start(LDIF)
    yield server
    server.stop()


@pytest.fixture
def directory(settings, slapd, mc, fr):
    settings.LDAP_AUTH_URL = [slapd.url]
    settings.LDAP_AUTH_SEARCH_BASE = PEOPLE
    settings.LDAP_AUTH_CONNECTION_USERNAME = "sync"
    settings.LDAP_AUTH_CONNECTION_PASSWORD = "sync-pw"
    settings.LEDGERS_DIRECTORY_GROUP_BASE = GROUPS
    settings.LEDGERS_DIRECTORY_GROUPS = {
        f"cn=scj-mc,{GROUPS}": [mc.code, "scj"],
        f"CN=Inspecteurs-MC,{GROUPS}": [mc.code, "inspecteur"],  # DNs compare without case
        f"cn=police-nice,{GROUPS}": [fr.code, "police"],
    }
    return slapd


def admin_connection(slapd) -> ldap3.Connection:
    return ldap3.Connection(slapd.url, user=ADMIN_DN, password=ADMIN_PASSWORD, auto_bind=True)


def test_directory_sign_in_maps_groups_to_roles_and_establishments(client, directory, mc, fr):
    response = client.post(reverse("login"), {"username": "bruno", "password": "bruno-pw"})
    assert response.status_code == 302
    bruno = get_user_model().objects.get(username="bruno")
    assert (bruno.first_name, bruno.last_name, bruno.email) == ("Bruno", "Rossi", "bruno@casino.test")
    assert not bruno.has_usable_password()  # the password stays in the directory
    assert set(roles_of(bruno, mc)) == {"inspecteur"} and set(roles_of(bruno, fr)) == {"police"}
    assert bruno.directory_account.dn == f"uid=bruno,{PEOPLE}"
    assert client.get(reverse("dashboard")).status_code == 200


def test_directory_wrong_password_and_unmapped_groups_refused(client, directory):
    assert client.post(reverse("login"), {"username": "alice", "password": "wrong"}).status_code == 200
    assert client.post(reverse("login"), {"username": "sync", "password": "sync-pw"}).status_code == 200
    sync = get_user_model().objects.get(username="sync")  # read from the directory, in no mapped group
    assert not sync.is_active and not sync.memberships.exists()


def test_local_accounts_still_sign_in_with_a_directory(client, directory, mc, user_in):
    local = user_in(mc, "directeur_jeux", username="local-director")
    assert client.post(reverse("login"), {"username": local.username, "password": DEFAULT_PASSWORD}).status_code == 302
    assert not DirectoryAccount.objects.filter(user=local).exists()


def test_reg_04_directory_user_signs_a_visa_with_the_directory_password(client, directory, mc, user_in):
    register = main_courante(mc, monaco_cast(mc, user_in))
    assert client.post(reverse("login"), {"username": "alice", "password": "alice-pw"}).status_code == 302
    url = reverse("registers:visa", args=[register.number])
    refused = client.post(url, {"up_to_seq": 4, "statement": "Vu", "password": "not-hers"})
    assert "Mot de passe incorrect" in refused.content.decode()
    signed = client.post(url, {"up_to_seq": 4, "statement": "Vu", "password": "alice-pw"})
    assert signed.status_code == 302
    visa = register.entries.get(kind=EntryKind.VISA)
    assert visa.actor_user.username == "alice" and visa.role == "scj"


def test_leaver_disabled_by_the_sync_and_cannot_sign_in(client, directory, mc):
    assert client.post(reverse("login"), {"username": "chloe", "password": "chloe-pw"}).status_code == 302
    chloe = get_user_model().objects.get(username="chloe")
    assert set(roles_of(chloe, mc)) == {"scj"}
    connection = admin_connection(directory)
    connection.delete(f"uid=chloe,{PEOPLE}")
    try:
        call_command("sync_directory")
        chloe.refresh_from_db()
        assert not chloe.is_active and not chloe.memberships.exists()
        assert chloe.directory_account.left_at is not None
        # Her open session ends, and she can no longer sign in.
        assert client.get(reverse("dashboard")).status_code == 302
        assert client.post(reverse("login"), {"username": "chloe", "password": "chloe-pw"}).status_code == 200
    finally:
        connection.add(
            f"uid=chloe,{PEOPLE}",
            "inetOrgPerson",
            {"uid": "chloe", "cn": "Chloé Durand", "sn": "Durand", "givenName": "Chloé", "userPassword": "chloe-pw"},
        )
        connection.unbind()


def test_sync_follows_group_changes(client, directory, mc):
    assert client.post(reverse("login"), {"username": "alice", "password": "alice-pw"}).status_code == 302
    alice = get_user_model().objects.get(username="alice")
    connection = admin_connection(directory)
    group_dn = f"cn=inspecteurs-mc,{GROUPS}"
    connection.modify(group_dn, {"member": [(ldap3.MODIFY_ADD, [f"uid=alice,{PEOPLE}"])]})
    try:
        call_command("sync_directory")
        assert set(roles_of(alice, mc)) == {"scj", "inspecteur"}
    finally:
        connection.modify(group_dn, {"member": [(ldap3.MODIFY_DELETE, [f"uid=alice,{PEOPLE}"])]})
        connection.unbind()
    call_command("sync_directory")
    assert set(roles_of(alice, mc)) == {"scj"}
