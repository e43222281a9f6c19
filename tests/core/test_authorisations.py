"""The register of authorisations: the establishment's creation and every role granted or revoked
are lines of it, signed by who decided, in the role they acted in; its first volume is opened by
the system."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied

from ledgers.core.models import Membership
from ledgers.core.roles import ADMINISTRATOR_ROLE, Role
from ledgers.core.services import establishment_create, membership_grant, membership_revoke
from ledgers.registers.kinds import AUTHORISATIONS
from ledgers.registers.models import SYSTEM_ACTOR, EntryKind, Register
from ledgers.registers.verification import verify_register
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def lines(establishment):
    register = Register.objects.get(establishment=establishment, kind=AUTHORISATIONS.code)
    return register, list(register.entries.order_by("seq"))


def test_the_establishment_created_opens_the_register_with_its_creation_line():
    admin = get_user_model().objects.create_superuser("admin", password="x", first_name="Ada", last_name="Admin")
    est = establishment_create(code="nice", name="Casino de Nice", jurisdiction="FR", actor=admin)
    register, entries = lines(est)
    assert register.status == Register.Status.OPEN
    assert [entry.kind for entry in entries] == [EntryKind.OPENING, EntryKind.RECORD]
    assert entries[0].actor == SYSTEM_ACTOR
    assert (entries[1].actor, entries[1].role) == ("admin", ADMINISTRATOR_ROLE)
    assert "Casino de Nice" in entries[1].payload["text"] and "Ada Admin" in entries[1].payload["text"]
    assert not verify_register(register)


def test_a_grant_and_a_revocation_are_lines_signed_by_the_director(fr):
    director = make_user(fr, Role.DIRECTEUR_RESPONSABLE)
    person = make_user(fr, first_name="Paul", last_name="Martin")
    membership = membership_grant(user=person, establishment=fr, role=Role.INSPECTEUR, actor=director)
    membership_revoke(membership=membership, actor=director, reason="mutation")
    register, entries = lines(fr)
    grant, revoke = entries[-2:]
    assert (grant.actor, grant.role, grant.payload["granted"]) == (
        director.username,
        Role.DIRECTEUR_RESPONSABLE,
        Role.INSPECTEUR,
    )
    assert grant.payload["person"] == person.username and "Inspecteur" in grant.payload["text"]
    assert revoke.payload["revoked"] == Role.INSPECTEUR and "mutation" in revoke.payload["text"]
    assert not Membership.objects.filter(user=person, establishment=fr).exists()
    assert not verify_register(register)


def test_a_role_granted_by_the_system_is_signed_with_its_marker(mc):
    person = make_user(mc, Role.CARTIER)
    _register, entries = lines(mc)
    assert entries[-1].actor == SYSTEM_ACTOR and entries[-1].payload["person"] == person.username


def test_granting_again_a_role_held_writes_nothing(mc):
    director = make_user(mc, Role.DIRECTEUR_JEUX)
    person = make_user(mc, Role.CARTIER)
    _register, before = lines(mc)
    membership_grant(user=person, establishment=mc, role=Role.CARTIER, actor=director)
    assert len(lines(mc)[1]) == len(before)


def test_only_the_directorate_or_an_administrator_grants_a_role(mc):
    inspector = make_user(mc, Role.INSPECTEUR)
    person = make_user(mc)
    with pytest.raises(PermissionDenied):
        membership_grant(user=person, establishment=mc, role=Role.CARTIER, actor=inspector)
    assert not Membership.objects.filter(user=person).exists()
