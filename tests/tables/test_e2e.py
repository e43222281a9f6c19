"""One séance per jurisdiction through the pages: open the séance, prepare the table with its staff
and limits, open it, play (a relief), see what the closing still misses (REG-25), complete it,
close."""

import html
import re
from decimal import Decimal

from django.urls import reverse
from django.utils import timezone

from ledgers.core.models import Seance, TableSession
from ledgers.dice.models import Die
from ledgers.dice.services import DieResult, dice_end_check
from ledgers.registers.selectors import current_register
from ledgers.tables.models import StaffAssignment
from tests.dice.conftest import allocate_fr, allocate_mc
from tests.factories import make_user, open_seance_registers


def text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


def ok(response, status=302):
    assert response.status_code == status, text(response)[:2000]
    return response


def run_seance(client, org, director, staff: list[tuple[str, str]], limits: dict, missing_code: str, complete):
    open_seance_registers(org.est)
    client.force_login(director)
    ok(client.post(reverse("seances"), {"date": timezone.localdate().isoformat(), "period": "soiree"}))
    seance = Seance.objects.get(establishment=org.est)
    response = ok(client.post(reverse("seance-prepare", kwargs={"pk": seance.pk}), {"table": org.table.pk}))
    session = TableSession.objects.get(seance=seance, table=org.table)
    assert response.url == reverse("seance-table", kwargs={"pk": session.pk})

    people = {}
    for position, username in staff:
        people[username] = make_user(org.est, "croupier" if position == "croupier" else position, username=username)
        ok(
            client.post(
                reverse("tables:assign", kwargs={"pk": session.pk}),
                {"assign-position": position, "assign-person": people[username].pk},
            )
        )
    ok(client.post(reverse("tables:limits", kwargs={"pk": session.pk}), {f"limits-{k}": v for k, v in limits.items()}))
    (allocate_mc if org.est.jurisdiction == "MC" else allocate_fr)(org, session)
    ok(client.post(reverse("seance-table-open", kwargs={"pk": session.pk})))

    # Play: the croupier is relieved.
    dealer = StaffAssignment.objects.get(table_session=session, person=people["croupier-a"])
    relief = make_user(org.est, "croupier", username="croupier-relief")
    ok(
        client.post(
            reverse("tables:relieve", kwargs={"pk": session.pk}),
            {"relief-assignment": dealer.pk, "relief-person": relief.pk, "relief-at_break": "on"},
        )
    )

    page = text(client.get(reverse("seance", kwargs={"pk": seance.pk})))
    assert "REG-25" in page and missing_code in page
    refused = ok(client.post(reverse("seance-close", kwargs={"pk": seance.pk})), 409)
    assert "REG-25" in text(refused) and f"({missing_code})" in text(refused)

    complete(session)
    assert "Rien ne manque" in text(client.get(reverse("seance", kwargs={"pk": seance.pk})))
    ok(client.post(reverse("seance-close", kwargs={"pk": seance.pk})))
    seance.refresh_from_db()
    session.refresh_from_db()
    assert seance.status == Seance.Status.CLOSED and session.status == TableSession.Status.CLOSED
    assert session.minimum_stake == Decimal(limits["minimum_stake"])
    log = current_register(org.est, "parties_de_table").entries.filter(kind="record").order_by("seq")
    assert [entry.payload["event"] for entry in log] == [
        "Préparation de la partie",
        *["Prise de poste"] * len(staff),
        "Limites à l'ouverture",
        "Début de partie",
        "Relève",
        "Fin de partie",
    ]


def test_reg_25_monaco_craps_seance_end_to_end(client, mc_org):
    org = mc_org
    staff = [
        ("chef_table", "chef-a"),
        ("croupier", "croupier-a"),
        ("croupier", "croupier-b"),
        ("croupier", "croupier-c"),
    ]

    def end_check(session):
        dice = list(Die.objects.filter(table_session=session))
        dice_end_check(
            session=session, results=[DieResult(die=d) for d in dice], actor=org["sous_directeur"], return_to=org.depot
        )

    run_seance(
        client,
        org,
        org["sous_directeur"],
        staff,
        {"seats": 12, "minimum_stake": "10", "maximum_stake": "2000"},
        "DICE-11",
        end_check,
    )


def test_reg_25_france_rampo_seance_end_to_end(client, fr_org):
    from tests.dice.test_rules_fr import end_check

    org = fr_org
    staff = [("chef_table", "chef-a"), ("croupier", "croupier-a")]
    run_seance(
        client,
        org,
        org["directeur_responsable"],
        staff,
        {"seats": 8, "minimum_stake": "2", "maximum_stake": "80", "bet_numbers": "80", "bet_colours": "400"},
        "DICE-25",
        lambda session: end_check(org, session),
    )
