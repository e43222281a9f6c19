"""Roulette and boule launchers (WHEEL-09, AM 88-384 art. 8.1, 10.1): the ordre de roulement set by
the Direction des Jeux, the launch and relief log kept by the chef de table, and its flags."""

import datetime
import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.equipment import selectors, services
from ledgers.equipment.models import LaunchRoster, LaunchRosterPlace, LaunchTurn, WheelKind
from ledgers.registers.printing.register import render_register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name
from tests.factories import EstablishmentFactory, make_user

from .conftest import open_wheel_table, seance, session, wheel


def records(est):
    return [
        e.payload for e in current_register(est, "roulement_lanceurs").entries.filter(kind="record").order_by("seq")
    ]


@pytest.fixture
def crew(mco):
    """Four croupiers of the establishment, first names A to D."""
    return [
        make_user(mco.est, Role.CROUPIER, username=f"croupier-{n}", first_name=n, last_name="Croupier") for n in "ABCD"
    ]


@pytest.fixture
def r1(mco):
    return open_wheel_table(mco, "R1", WheelKind.ROULETTE_EUROPEENNE)


def roster(org, table_session, croupiers, actor=None):
    return services.launch_roster_set(
        session=table_session, croupiers=croupiers, actor=actor or org.users[Role.SOUS_DIRECTEUR]
    )


def turns(org, table_session, *launchers):
    return [
        services.launch_turn_record(session=table_session, launcher=launcher, actor=org.users[Role.CHEF_TABLE])
        for launcher in launchers
    ]


def texts(turn):
    return [flag["text"] for flag in turn.flags]


def test_wheel_09_roster_refused_for_non_direction_roles(mco, crew, r1):
    for role in (Role.CHEF_TABLE, Role.CROUPIER, Role.INSPECTEUR, Role.ENTRETIEN):
        with pytest.raises(RuleViolation) as exc:
            roster(mco, r1, crew[:3], actor=mco.users[role])
        assert exc.value.code == "WHEEL-09"
    assert not LaunchRoster.objects.exists() and not LaunchRosterPlace.objects.exists() and records(mco.est) == []
    first = roster(mco, r1, crew[:3], actor=mco.users[Role.SOUS_DIRECTEUR])
    second = roster(mco, r1, crew[1:], actor=mco.users[Role.DIRECTEUR_JEUX])
    assert (first.set_by_role, second.set_by_role) == (Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX)
    assert [p.croupier for p in second.places.all()] == crew[1:]
    assert selectors.roster_in_force(r1) == second  # the latest replaces the earlier, which stays
    first_entry, second_entry = records(mco.est)
    assert first_entry["event"] == "Ordre de roulement" and second_entry["event"] == "Nouvel ordre de roulement"
    assert second_entry["order"] == ["1. B Croupier", "2. C Croupier", "3. D Croupier"]
    entry = current_register(mco.est, "roulement_lanceurs").entries.filter(kind="record").last()
    assert (entry.actor, entry.role) == (mco.director.username, Role.DIRECTEUR_JEUX)


def test_wheel_09_roster_holds_at_least_two_croupiers_and_croupiers_only(mco, crew, r1):
    for order in ([crew[0]], [crew[0], mco.users[Role.CHEF_TABLE]]):
        with pytest.raises(RuleViolation) as exc:
            roster(mco, r1, order)
        assert exc.value.code == "WHEEL-09"
    with pytest.raises(ValidationError):
        roster(mco, r1, [crew[0], crew[1], crew[0]])
    assert not LaunchRoster.objects.exists()


def test_wheel_09_roster_only_at_mc_roulette_and_boule(mco, fro, crew):
    s = seance(mco)
    boule = session(mco, "B1", s)
    assert roster(mco, boule, crew[:2]).table_session == boule
    for number in ("RA1", "BJ1"):  # American roulette (art. 4.2) and blackjack: no rotation rule
        with pytest.raises(ValidationError):
            roster(mco, session(mco, number, s), crew[:2])
    fr_croupiers = [make_user(fro.est, Role.CROUPIER) for _ in range(2)]
    with pytest.raises(ValidationError):
        services.launch_roster_set(session=session(fro, "RA1"), croupiers=fr_croupiers, actor=fro.director)


def test_wheel_09_launcher_outside_roster_flagged(mco, crew, r1):
    a, b, c, _d = crew
    (before,) = turns(mco, r1, a)  # no order set yet
    assert [f["code"] for f in before.flags] == ["WHEEL-09"] and "Aucun ordre de roulement" in texts(before)[0]
    order = roster(mco, r1, [a, b])
    outsider, chef = turns(mco, r1, c, mco.users[Role.CHEF_TABLE])  # allowed, and reported
    assert outsider.roster == order and "C Croupier n'est pas inscrit à l'ordre de roulement" in texts(outsider)[0]
    assert "n'est pas inscrit" in texts(chef)[0]
    (inside,) = turns(mco, r1, a)
    assert inside.flags == []
    assert LaunchTurn.objects.filter(table_session=r1).count() == 4
    entries = records(mco.est)
    chef_name = display_name(mco.users[Role.CHEF_TABLE])
    assert [e["event"] for e in entries] == [
        "Premier lanceur de la partie",
        "Ordre de roulement",
        "Relève de A Croupier",
        "Relève de C Croupier",
        f"Relève de {chef_name}",
    ]
    assert entries[2]["launcher"] == "C Croupier" and entries[2]["flags"][0].startswith("WHEEL-09 : C Croupier")
    assert entries[4]["flags"] == []
    flagged = selectors.exceptions(mco.est)
    assert [(f.code, f.subject) for f in flagged] == [
        ("WHEEL-09", chef_name),
        ("WHEEL-09", "C Croupier"),
        ("WHEEL-09", "A Croupier"),
    ]
    assert flagged[0].article == "AM 88-384 art. 8.1, 10.1"
    printed = render_register(current_register(mco.est, "roulement_lanceurs"), io.BytesIO())  # its columns print
    assert printed.pages >= 1 and printed.head_seq == 6


def test_wheel_09_specialisation_flagged(mco, crew, r1):
    a, b, c, _d = crew
    roster(mco, r1, [a, b, c])
    first, second, third = turns(mco, r1, a, a, a)
    assert first.flags == second.flags == []  # SET "WHEEL-09": up to 2 turns in a row
    assert texts(third) == [
        "A Croupier lance pour le 3e tour consécutif (plus de 2 de suite) : spécialisation dans le lancement."
    ]
    relief, fifth = turns(mco, r1, b, a)  # 4 of the 5 turns for A: more than 50 % of the partie
    assert relief.flags == []
    assert texts(fifth) == [
        "A Croupier a lancé 4 des 5 tours de la partie (plus de 50 %) : spécialisation dans le lancement."
    ]
    # The establishment sets its own thresholds, the others keep their default; one set to None is
    # not checked.
    mco.est.options = {"WHEEL-09": {"max_consecutive": 5, "max_share_percent": None}}
    mco.est.save()
    (sixth,) = turns(mco, r1, a)
    assert sixth.flags == []


def test_wheel_09_rotation_followed_raises_nothing(mco, crew, r1):
    a, b, c, _d = crew
    roster(mco, r1, [a, b, c])
    assert selectors.next_launcher(r1) == a
    for expected in (a, b, c, a, b, c, a):
        assert selectors.next_launcher(r1) == expected
        (turn,) = turns(mco, r1, expected)
        assert turn.flags == []
    assert selectors.launch_counts(r1) == [(a, 3), (b, 2), (c, 2)]
    assert selectors.exceptions(mco.est) == []


def test_wheel_09_log_kept_by_the_chef_de_table_in_order_during_the_partie(mco, crew):
    a, b, *_ = crew
    wheel(mco, WheelKind.BOULE, table="B1")
    boule = session(mco, "B1")
    roster(mco, boule, [a, b])
    with pytest.raises(ValidationError):  # the table is not open yet
        turns(mco, boule, a)
    r1 = open_wheel_table(mco, "R1", WheelKind.ROULETTE_EUROPEENNE, boule.seance)
    with pytest.raises(PermissionDenied):
        services.launch_turn_record(session=r1, launcher=a, actor=a)
    with pytest.raises(ValidationError):  # not table staff
        services.launch_turn_record(session=r1, launcher=mco.users[Role.CARTIER], actor=mco.users[Role.CHEF_TABLE])
    now = timezone.now()
    chef = mco.users[Role.CHEF_TABLE]
    with pytest.raises(ValidationError):
        services.launch_turn_record(session=r1, launcher=a, actor=chef, started_at=now + datetime.timedelta(hours=1))
    with pytest.raises(ValidationError):
        services.launch_turn_record(
            session=r1, launcher=a, actor=chef, started_at=r1.opened_at - datetime.timedelta(minutes=1)
        )
    services.launch_turn_record(session=r1, launcher=a, actor=chef)
    with pytest.raises(ValidationError):  # before the previous turn
        services.launch_turn_record(session=r1, launcher=b, actor=chef, started_at=now)
    assert LaunchTurn.objects.count() == 1


@pytest.mark.postgresql
def test_wheel_09_rosters_and_turns_are_append_only(mco, crew, r1):
    roster(mco, r1, crew[:2])
    turns(mco, r1, crew[0])
    for model in (LaunchRoster, LaunchRosterPlace, LaunchTurn):
        with pytest.raises(DatabaseError), transaction.atomic():
            model.objects.all().delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        LaunchTurn.objects.update(flags=[])


def test_wheel_09_launcher_outside_roster_flagged_through_the_api(mco, crew, r1):
    a, b, c, _d = crew
    api = APIClient()
    api.force_authenticate(mco.users[Role.CHEF_TABLE])
    body = {"table_session": r1.pk, "croupiers": [b.pk, a.pk]}
    refused = api.post("/api/v1/equipment/launch-rosters/set/", body, format="json")
    assert refused.status_code == 409
    assert refused.json() == {
        "code": "WHEEL-09",
        "article": REQUIREMENTS["WHEEL-09"].article,
        "detail": refused.json()["detail"],
    }
    assert not LaunchRoster.objects.exists()
    api.force_authenticate(mco.users[Role.SOUS_DIRECTEUR])
    response = api.post("/api/v1/equipment/launch-rosters/set/", body, format="json")
    assert response.status_code == 201
    assert [(p["position"], p["id"]) for p in response.json()["croupiers"]] == [(1, b.pk), (2, a.pk)]
    api.force_authenticate(mco.users[Role.CHEF_TABLE])
    response = api.post(
        "/api/v1/equipment/launch-turns/record/", {"table_session": r1.pk, "launcher": c.pk}, format="json"
    )
    assert response.status_code == 201
    turn = response.json()
    assert turn["launcher_name"] == "C Croupier" and [f["code"] for f in turn["flags"]] == ["WHEEL-09"]
    assert api.get("/api/v1/equipment/launch-turns/").json()["results"][0]["id"] == turn["id"]
    (flag,) = api.get("/api/v1/equipment/exceptions/").json()
    assert flag["code"] == "WHEEL-09" and flag["table"] == "R1" and flag["subject"] == "C Croupier"
    # A user of another establishment is not a launcher here (400, nothing written).
    stranger = make_user(EstablishmentFactory(code="other", jurisdiction="MC"), Role.CROUPIER)
    response = api.post(
        "/api/v1/equipment/launch-turns/record/", {"table_session": r1.pk, "launcher": stranger.pk}, format="json"
    )
    assert response.status_code == 400 and LaunchTurn.objects.count() == 1


def test_wheel_09_roster_and_launcher_forms(client, mco, crew, r1):
    a, b, c, _d = crew
    client.force_login(mco.users[Role.CHEF_TABLE])
    data = {"session": r1.pk, "place_1": a.pk, "place_2": b.pk, "place_3": c.pk, "note": "Séance du soir"}
    response = client.post(reverse("equipment:launch_roster"), data)
    page = response.content.decode()
    assert response.status_code == 409 and "WHEEL-09" in page and REQUIREMENTS["WHEEL-09"].article in page
    assert "Séance du soir" in page  # the input is kept
    client.force_login(mco.director)
    response = client.post(reverse("equipment:launch_roster"), data)
    assert response.status_code == 302 and response.url == reverse("equipment:table", args=[r1.table_id])
    # The table page shows the order and offers the next launcher in it to the chef de table.
    client.force_login(mco.users[Role.CHEF_TABLE])
    page = client.get(reverse("equipment:table", args=[r1.table_id])).content.decode()
    assert "1. A Croupier → 2. B Croupier → 3. C Croupier" in page
    assert f'<option value="{a.pk}" selected>' in page
    response = client.post(reverse("equipment:launch_turn"), {"session": r1.pk, "launcher": a.pk}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("equipment:table", args=[r1.table_id])
    assert f'<option value="{b.pk}" selected>' in response.content.decode()
    for _turn in range(2):  # A again, twice: a third turn in a row
        response = client.post(reverse("equipment:launch_turn"), {"session": r1.pk, "launcher": a.pk}, follow=True)
    assert "WHEEL-09 — A Croupier lance pour le 3e tour consécutif" in response.content.decode()
    page = client.get(reverse("equipment:exceptions")).content.decode()
    assert "WHEEL-09" in page and "spécialisation dans le lancement" in page
    # The roster form starts from the order in force.
    client.force_login(mco.director)
    page = client.get(reverse("equipment:launch_roster"), {"session": r1.pk}).content.decode()
    assert f'<option value="{c.pk}" selected>' in page
