"""End to end through the web pages, on PostgreSQL: a craps séance at Monte-Carlo and a rampo
séance at Nice, from the purchase order to the destruction, each person signing with their own
password; at the end every register verifies and the book stock equals the dice located."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ledgers.core.models import TableSession
from ledgers.custody.models import DestructionSession, PurchaseOrder
from ledgers.dice.models import DiceAllocation, DiceCheck, Die
from ledgers.dice.rules import CHECKLIST
from ledgers.dice.selectors import stock_statement
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_close, incident_decide, incident_notify
from ledgers.registers.verification import verify_register
from tests.factories import countersignature, notice_aged

pytestmark = pytest.mark.postgresql
CHECKS = {f"check_{key}": "on" for key in CHECKLIST}


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ok(response, status=302):
    assert response.status_code == status, response.content.decode()[:3000]
    return response


def test_craps_seance_end_to_end(mc_org):
    director, cartier = as_user(mc_org["directeur_jeux"]), as_user(mc_org["cartier"])
    ok(director.post(reverse("dice:supplier_create"), {"name": "Manufacture de dés"}))
    supplier = mc_org.est.suppliers.get(domain="dice")
    ok(director.post(reverse("dice:order_create"), {"supplier": supplier.pk, "quantity": 6}))
    order = PurchaseOrder.objects.get()
    ok(director.post(reverse("dice:order_send", kwargs={"pk": order.pk}), {"confirm": "on"}))
    lines = "\n".join(f"CR-{n:03d}" for n in range(6))
    ok(
        cartier.post(
            reverse("dice:receive"),
            {"location": mc_org.depot.pk, "order": order.pk, "sigle": "SBM", "lines": lines, **CHECKS},
        )
    )
    ok(
        cartier.post(
            reverse("dice:transfer"),
            {
                "dice": "CR-000 CR-001 CR-002 CR-003 CR-004",
                "to_location": mc_org.annex.pk,
                "received_by": "Chef de table",
            },
        )
    )
    ok(cartier.post(reverse("dice:day_close"), {"date": timezone.localdate().isoformat()}))

    seance = mc_org.seance()
    sd = as_user(mc_org["sous_directeur"])
    ok(sd.post(reverse("dice:prepare", kwargs={"seance": seance.pk, "table": mc_org.table.pk})))
    session = TableSession.objects.get(seance=seance, table=mc_org.table)
    ok(as_user(mc_org["chef_table"]).post(reverse("dice:session_open", kwargs={"pk": session.pk})), 409)
    ok(
        cartier.post(
            reverse("dice:allocate", kwargs={"pk": session.pk}),
            {"dice": "CR-000 CR-001 CR-002 CR-003 CR-004", **countersignature("signer", mc_org["sous_directeur"])},
        )
    )
    chef = as_user(mc_org["chef_table"])
    ok(chef.post(reverse("dice:session_open", kwargs={"pk": session.pk}), {"confirm_missing": "1"}))
    ok(
        chef.post(
            reverse("dice:swap", kwargs={"pk": session.pk}),
            {
                "withdrawn": "CR-000",
                "brought_in": "CR-003",
                "reason": "damaged",
                "damaged": "CR-000",
                "observations": "Dé fêlé après être tombé",
            },
        )
    )
    ok(chef.post(reverse("dice:session_close", kwargs={"pk": session.pk})), 409)  # DICE-11
    dice = {d.serial: d for d in Die.objects.filter(table_session=session)}
    check = {
        "return_to": mc_org.depot.pk,
        "observations": "Dé CR-000 fêlé, retiré en cours de partie",
        **{f"result_{d.pk}": "ok" for d in dice.values()},
        f"result_{dice['CR-000'].pk}": "anomaly",
    }
    ok(sd.post(reverse("dice:end_check", kwargs={"pk": session.pk}), check))
    ok(chef.post(reverse("dice:session_close", kwargs={"pk": session.pk})))
    assert DiceCheck.objects.get().checker == mc_org["sous_directeur"]

    # The anomalies are closed by the direction, then the used dice are neutralised.
    for incident in Incident.objects.filter(status="open"):
        for role in ("sous_directeur", "scj"):
            incident_notify(
                incident=incident,
                recipient_role=role,
                recipient_name=role,
                notified_at=timezone.now(),
                channel="phone",
                actor=mc_org["directeur_jeux"],
            )
        incident_decide(incident=incident, decision="Dé détruit avec les dés usagés", actor=mc_org["directeur_jeux"])
        incident_close(incident=incident, actor=mc_org["directeur_jeux"])
    queue = list(Die.objects.filter(status__in=["out_of_use", "damaged"]).values_list("pk", flat=True))
    assert len(queue) == 5
    ok(
        director.post(
            reverse("dice:destruction_plan"),
            {"dice": queue, "method": "neutralisation", "planned_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M")},
        )
    )
    destruction = DestructionSession.objects.get()
    ok(
        director.post(
            reverse("dice:destruction_notify", kwargs={"pk": destruction.pk}),
            {"channel": "email", "reference": "courriel"},
        )
    )
    notice_aged(destruction)
    ok(
        director.post(
            reverse("dice:destruction_complete", kwargs={"pk": destruction.pk}),
            {**countersignature("inspector", mc_org["inspecteur"]), **countersignature("witness", mc_org["scj"])},
        )
    )

    scj = as_user(mc_org["scj"])
    form = scj.get(reverse("dice:verification")).context["form"]
    counted = {name: field.initial for name, field in form.fields.items() if name.startswith("counted_")}
    ok(scj.post(reverse("dice:verification"), {**counted, "orders_seen": [order.pk]}))
    order.refresh_from_db()
    assert order.visa_role == "scj"
    statement = stock_statement(mc_org.est)
    assert statement.book == statement.located == 1  # CR-005, still new in the main depot
    for register in mc_org.registers.values():
        assert verify_register(register) is None, register.number
    service = [e.payload["event"] for e in mc_org.registers["des_en_service"].entries.filter(kind="record")]
    assert service == ["Dotation de la séance", "Changement de dés", "Contrôle de fin de séance"]


def test_rampo_seance_end_to_end(fr_org):
    director, police = as_user(fr_org["directeur_responsable"]), as_user(fr_org["police"])
    ok(
        director.post(
            reverse("dice:supplier_create"),
            {
                "name": "Dés agréés SA",
                "approval_reference": "Agrément 2024-07",
                "approval_issuer": "Ministre de l'intérieur",
                "approved_from": "2024-01-01",
            },
        )
    )
    supplier = fr_org.est.suppliers.get(domain="dice")
    ok(director.post(reverse("dice:order_create"), {"supplier": supplier.pk, "carnet": "21-004", "quantity": 2}))
    order = PurchaseOrder.objects.get()
    assert order.lines == [{"category": "des", "quantity": 4}]
    ok(director.post(reverse("dice:order_send", kwargs={"pk": order.pk}), {"confirm": "on"}), 409)  # DICE-16
    ok(police.post(reverse("dice:order_visa", kwargs={"pk": order.pk}), {"statement": "Vu, commissaire Vidal"}))
    ok(director.post(reverse("dice:order_send", kwargs={"pk": order.pk}), {"confirm": "on"}))
    employee = as_user(fr_org["employe_responsable"])
    ok(
        employee.post(
            reverse("dice:receive"),
            {
                "location": fr_org.depot.pk,
                "order": order.pk,
                "sigle": "CNI",
                **CHECKS,
                "lines": "R-01 ; rouge ; 22\nR-02 ; vert ; 22\nR-03 ; jaune ; 21,5\nR-04 ; bleu ; 21,5",
            },
        )
    )
    pairs = sorted({d.pair for d in Die.objects.all()}, key=lambda p: p.number)

    seance = fr_org.seance()
    ok(director.post(reverse("dice:prepare", kwargs={"seance": seance.pk, "table": fr_org.table.pk})))
    session = TableSession.objects.get(seance=seance, table=fr_org.table)
    chef = as_user(fr_org["chef_table"])
    # The allocation is signed by the directeur responsable or a comité member: the signer is
    # picked among them, so the chef de table is not offered and the form answers at once.
    refused = chef.post(
        reverse("dice:allocate", kwargs={"pk": session.pk}),
        {"pair_in_play": pairs[0].pk, "pair_reserve": pairs[1].pk, **countersignature("signer", fr_org["chef_table"])},
    )
    assert refused.status_code == 200 and "signer_username" in refused.context["form"].errors
    ok(
        chef.post(
            reverse("dice:allocate", kwargs={"pk": session.pk}),
            {"pair_in_play": pairs[0].pk, "pair_reserve": pairs[1].pk, **countersignature("signer", fr_org["comite"])},
        )
    )
    assert DiceAllocation.objects.get().signed_role == "comite"
    ok(chef.post(reverse("dice:session_open", kwargs={"pk": session.pk}), {"confirm_missing": "1"}))
    ok(chef.post(reverse("dice:swap", kwargs={"pk": session.pk}), {"pair_in": pairs[1].pk, "reason": "shooter"}))
    dice = list(Die.objects.filter(table_session=session))
    check = {
        "return_to": fr_org.depot.pk,
        "micrometer": "MIC-7",
        "square": "EQ-2",
        "balance": "BC-1",
        **countersignature("cosigner", fr_org["chef_table"]),
    }
    for die in dice:
        check |= {
            f"result_{die.pk}": "ok",
            f"micrometer_{die.pk}": "22,0",
            f"square_{die.pk}": "yes",
            f"balance_{die.pk}": "yes" if die.serial != "R-04" else "no",
        }
    ok(director.post(reverse("dice:end_check", kwargs={"pk": session.pk}), check))
    ok(chef.post(reverse("dice:session_close", kwargs={"pk": session.pk})))
    assert Die.objects.get(serial="R-04").status == "damaged"

    # The anomaly is reported to the police and closed; the pair is destroyed before the police.
    incident = Incident.objects.get(status="open")
    incident_notify(
        incident=incident,
        recipient_role="police",
        recipient_name="Permanence",
        channel="phone",
        notified_at=timezone.now(),
        actor=fr_org["directeur_responsable"],
    )
    incident_close(incident=incident, actor=fr_org["directeur_responsable"])
    ok(employee.post(reverse("dice:withdraw"), {"dice": "R-03", "reason": "used"}))
    planned = timezone.localtime().strftime("%Y-%m-%dT%H:%M")
    ok(
        director.post(
            reverse("dice:destruction_plan"),
            {"dice": list(pairs[1].dice.values_list("pk", flat=True)), "method": "destruction", "planned_at": planned},
        )
    )
    destruction = DestructionSession.objects.get()
    ok(
        director.post(
            reverse("dice:destruction_complete", kwargs={"pk": destruction.pk}),
            {"loaded": "no", "tampered": "no", "police_service": "DTPJ Nice"},
        ),
        409,
    )  # no police officer
    ok(
        director.post(
            reverse("dice:destruction_complete", kwargs={"pk": destruction.pk}),
            {
                "loaded": "no",
                "tampered": "no",
                "police_service": "DTPJ Nice",
                **countersignature("witness", fr_org["police"]),
            },
        )
    )
    carnet = fr_org.registers["carnet_19"]
    assert carnet.entries.order_by("-seq").first().role == "police"  # the officer's visa on the OUT entry
    statement = stock_statement(fr_org.est)
    assert statement.book == statement.located == 2 and statement.pairs_held == 1
    for register in fr_org.registers.values():
        assert verify_register(register) is None, register.number
