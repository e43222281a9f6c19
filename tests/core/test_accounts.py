"""Accounts and roles of the people, by the directorate, in Monaco and in France: an account has a
name, each grant and revocation is a dated line of the register of authorisations, a revoked
role's period ends and stays, and "who held role R on day D" / "which roles did X hold, when" are
answered from the data."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ledgers.core import accounts
from ledgers.core.authz import roles_of
from ledgers.core.forms import staff_choices
from ledgers.core.models import Membership, RolePeriod, StaffAccount
from ledgers.core.roles import Role
from ledgers.core.selectors import role_holders, roles_held_by
from tests.core.staff import authorisation_lines, director_of

pytestmark = pytest.mark.django_db

JURISDICTIONS = ("mc", "fr")


@pytest.fixture(params=JURISDICTIONS)
def house(request):
    return request.getfixturevalue(request.param)


def test_account_create_names_the_person_grants_roles_and_writes_lines(house):
    director = director_of(house)
    user = accounts.account_create(
        establishment=house,
        username="mdupont",
        first_name="Marie",
        last_name="Dupont",
        email="marie.dupont@example.org",
        roles=[Role.INSPECTEUR, Role.CROUPIER],
        actor=director,
    )
    assert user.get_full_name() == "Marie Dupont" and not user.has_usable_password()
    assert roles_of(user, house) == {"inspecteur", "croupier"}
    assert StaffAccount.objects.get(user=user).must_set_password
    texts = authorisation_lines(house)
    assert any("Marie Dupont" in line and "mdupont" in line for line in texts)
    assert sum("Marie Dupont" in line for line in texts) == 3  # the account, then each role
    assert all("motdepasse" not in line for line in texts)


@pytest.mark.parametrize("missing", ["first_name", "last_name", "username"])
def test_account_without_a_name_is_refused_and_nothing_is_written(house, missing):
    director = director_of(house)
    before = len(authorisation_lines(house))
    given = {"username": "anon", "first_name": "Jean", "last_name": "Martin", missing: "  "}
    with pytest.raises(ValidationError) as refused:
        accounts.account_create(establishment=house, actor=director, **given)
    assert missing in refused.value.message_dict
    assert not get_user_model().objects.filter(username="anon").exists()
    assert len(authorisation_lines(house)) == before


def test_account_create_refuses_a_login_already_taken_whatever_its_case(house):
    director = director_of(house)
    accounts.account_create(establishment=house, username="jmartin", first_name="J", last_name="Martin", actor=director)
    with pytest.raises(ValidationError) as refused:
        accounts.account_create(
            establishment=house, username="JMartin", first_name="Jean", last_name="Martin", actor=director
        )
    assert "username" in refused.value.message_dict


def test_account_create_is_the_directorates(house, user_in):
    with pytest.raises(PermissionDenied):
        accounts.account_create(
            establishment=house,
            username="x1",
            first_name="X",
            last_name="Y",
            actor=user_in(house, Role.INSPECTEUR),
        )


def test_revoked_role_is_ended_not_deleted_and_history_answers_both_questions(house, user_in):
    director = director_of(house)
    person = accounts.account_create(
        establishment=house, username="pinspect", first_name="Paul", last_name="Inspect", actor=director
    )
    accounts.role_grant(establishment=house, user=person, role=Role.INSPECTEUR, actor=director)
    period = RolePeriod.objects.get(user=person, role=Role.INSPECTEUR)
    # The grant dated three days ago, the revocation now: read the history on each day.
    RolePeriod.objects.filter(pk=period.pk).update(valid_from=timezone.now() - datetime.timedelta(days=3))
    accounts.role_revoke(establishment=house, user=person, role=Role.INSPECTEUR, reason="mutation", actor=director)

    period.refresh_from_db()
    assert period.valid_until is not None and period.ended_by == director and period.end_reason == "mutation"
    assert not Membership.objects.filter(user=person, establishment=house).exists()
    assert roles_of(person, house) == set()

    today = house.localtime().date()
    two_days_ago = today - datetime.timedelta(days=2)
    assert person in [p.user for p in role_holders(house, Role.INSPECTEUR, two_days_ago)]
    assert person in [p.user for p in role_holders(house, Role.INSPECTEUR, today)]
    assert person not in [p.user for p in role_holders(house, Role.INSPECTEUR, today + datetime.timedelta(days=1))]
    assert person not in [p.user for p in role_holders(house, Role.INSPECTEUR, today - datetime.timedelta(days=5))]
    assert [(p.role, p.valid_until is not None) for p in roles_held_by(house, person)] == [("inspecteur", True)]

    # Granted again: a second period, the first one kept as it was.
    accounts.role_grant(establishment=house, user=person, role=Role.INSPECTEUR, actor=director)
    assert [p.valid_until is None for p in roles_held_by(house, person)] == [False, True]
    lines = authorisation_lines(house)
    assert sum("Paul Inspect" in line for line in lines) >= 4  # account, grant, revocation, grant


def test_grant_of_a_role_already_held_and_revocation_of_one_not_held_are_refused(house):
    director = director_of(house)
    person = accounts.account_create(
        establishment=house, username="cc", first_name="C", last_name="C", roles=[Role.CROUPIER], actor=director
    )
    with pytest.raises(ValidationError):
        accounts.role_grant(establishment=house, user=person, role=Role.CROUPIER, actor=director)
    with pytest.raises(ValidationError):
        accounts.role_revoke(establishment=house, user=person, role=Role.CARTIER, actor=director)
    assert RolePeriod.objects.filter(user=person).count() == 1


def test_deactivate_revokes_every_role_with_lines_and_leaves_staffing_lists(house):
    director = director_of(house)
    person = accounts.account_create(
        establishment=house,
        username="leaver",
        first_name="Luc",
        last_name="Depart",
        roles=[Role.CROUPIER, Role.CHEF_TABLE],
        actor=director,
    )
    person.set_password("un-mot-de-passe-long")
    person.save()
    Token.objects.create(user=person)
    assert any("Luc Depart" in label for _value, label in staff_choices(house, [Role.CROUPIER]))
    before = len(authorisation_lines(house))

    accounts.account_deactivate(establishment=house, user=person, reason="départ", actor=director)

    person.refresh_from_db()
    assert not person.is_active and not Token.objects.filter(user=person).exists()
    assert not Membership.objects.filter(user=person).exists()
    assert all(p.valid_until for p in RolePeriod.objects.filter(user=person))
    assert not any("Luc Depart" in label for _value, label in staff_choices(house, [Role.CROUPIER]))
    assert len(authorisation_lines(house)) == before + 3  # two revocations, the deactivation


def test_deactivate_refuses_a_person_still_holding_roles_elsewhere(mc, fr, user_in):
    person = user_in(mc, Role.CROUPIER)
    accounts.role_grant(establishment=fr, user=person, role=Role.CROUPIER, actor=director_of(fr))
    with pytest.raises(ValidationError):
        accounts.account_deactivate(establishment=mc, user=person, actor=director_of(mc))
    assert roles_of(person, mc) == {"croupier"}
