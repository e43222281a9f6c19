"""The roles' history in the data: each grant opens a dated period, each revocation ends it (never
deleted), so "who held role R on day D" and "which roles did X hold, when" are read from the
periods, in Monaco and in France; the roles held now are still the memberships."""

import datetime

import pytest
from django.utils import timezone

from ledgers.core.authz import roles_of
from ledgers.core.models import Membership, RolePeriod
from ledgers.core.roles import Role
from ledgers.core.selectors import role_holders, roles_held_by, staff_of
from ledgers.core.services import membership_grant, membership_revoke

pytestmark = pytest.mark.django_db


@pytest.fixture(params=("mc", "fr"))
def house(request):
    return request.getfixturevalue(request.param)


def test_revoked_role_is_ended_not_deleted_and_answers_both_questions(house, user_in):
    director = user_in(house, Role.DIRECTEUR_JEUX)
    person = user_in(house, Role.INSPECTEUR, first_name="Inès", last_name="Pecteur")
    period = RolePeriod.objects.get(user=person, role=Role.INSPECTEUR)
    assert period.valid_until is None
    RolePeriod.objects.filter(pk=period.pk).update(valid_from=timezone.now() - datetime.timedelta(days=3))

    membership_revoke(
        membership=Membership.objects.get(user=person, role=Role.INSPECTEUR), actor=director, reason="mutation"
    )

    period.refresh_from_db()
    assert period.valid_until is not None and period.ended_by == director and period.end_reason == "mutation"
    assert roles_of(person, house) == set()
    today = house.localtime().date()
    held_on = lambda day: [p.user for p in role_holders(house, Role.INSPECTEUR, day)]  # noqa: E731
    assert person in held_on(today - datetime.timedelta(days=2))
    assert person in held_on(today)
    assert person not in held_on(today + datetime.timedelta(days=1))
    assert person not in held_on(today - datetime.timedelta(days=5))
    assert person in staff_of(house)

    membership_grant(user=person, establishment=house, role=Role.INSPECTEUR, actor=director)
    periods = list(roles_held_by(house, person))
    assert [(p.role, p.valid_until is None) for p in periods] == [("inspecteur", False), ("inspecteur", True)]
    assert periods[1].granted_by == director


def test_a_role_held_now_has_one_open_period(house, user_in):
    person = user_in(house, Role.CROUPIER)
    membership_grant(user=person, establishment=house, role=Role.CROUPIER, actor=None)
    assert RolePeriod.objects.filter(user=person, valid_until=None).count() == 1


def test_the_day_is_the_establishments(house, user_in):
    """A period that ended at 23:30 on the establishment's clock was held that day, not the next."""
    person = user_in(house, Role.CARTIER)
    period = RolePeriod.objects.get(user=person)
    day = house.localtime().date() - datetime.timedelta(days=10)
    evening = house.localtime().replace(year=day.year, month=day.month, day=day.day, hour=23, minute=30)
    RolePeriod.objects.filter(pk=period.pk).update(valid_from=evening - datetime.timedelta(days=2), valid_until=evening)
    assert person in [p.user for p in role_holders(house, Role.CARTIER, day)]
    assert person not in [p.user for p in role_holders(house, Role.CARTIER, day + datetime.timedelta(days=1))]
