"""The dice pages: every flow answers, a refusal shows the requirement ID and article and keeps
what was typed, countersignatures are authenticated."""

import pytest
from django.urls import reverse
from django.utils import timezone

from ledgers.core.models import TableSession
from ledgers.core.services import seance_close
from ledgers.custody.models import DestructionSession
from ledgers.dice.models import DiceAllocation, DiceCheck, DiceSwap, Die
from ledgers.dice.rules import CHECKLIST
from tests.dice.conftest import allocate_fr, allocate_mc, open_table, receive_fr, receive_mc
from tests.factories import DEFAULT_PASSWORD, notice_aged

CHECKS = {f"check_{key}": "on" for key in CHECKLIST}


def login(client, user):
    client.force_login(user)
    return client


def test_pages_answer_for_both_jurisdictions(client, mc_org, fr_org):
    mc_session = mc_org.session()
    allocate_mc(mc_org, mc_session)
    fr_session = fr_org.session()
    allocate_fr(fr_org, fr_session)
    for org, session, user in ((mc_org, mc_session, "sous_directeur"), (fr_org, fr_session, "directeur_responsable")):
        login(client, org[user])
        die = Die.objects.filter(establishment=org.est).first()
        for name, kwargs in [
            ("day", {}),
            ("stock", {}),
            ("list", {}),
            ("die", {"pk": die.pk}),
            ("receive", {}),
            ("withdraw", {}),
            ("suppliers", {}),
            ("supplier_create", {}),
            ("orders", {}),
            ("order_create", {}),
            ("destructions", {}),
            ("destruction_plan", {}),
            ("session", {"pk": session.pk}),
            ("swap", {"pk": session.pk}),
            ("end_check", {"pk": session.pk}),
            ("allocate", {"pk": session.pk}),
        ]:
            response = client.get(reverse(f"dice:{name}", kwargs=kwargs))
            assert response.status_code == 200, name
    for org, authority in ((mc_org, "scj"), (fr_org, "police")):  # the stock's verification is theirs (DICE-05)
        login(client, org[authority])
        assert client.get(reverse("dice:verification")).status_code == 200
    login(client, mc_org["cartier"])
    assert client.get(reverse("dice:transfer")).status_code == 200
    assert client.get(reverse("dice:day_close")).status_code == 200
    day = client.get(reverse("dice:day"), headers={"HX-Request": "true"})
    assert b"CR1" in day.content and b"<h1>" not in day.content  # the HTMX refresh is the tables' partial


def test_receipt_refused_shows_id_and_article_and_keeps_input(client, mc_org):
    login(client, mc_org["cartier"])
    data = {
        "location": mc_org.depot.pk,
        "sigle": "SBM",
        "lines": "A-0001\nA-0002",
        "delivery_note": "BL 77",
        **{k: v for k, v in CHECKS.items() if k != "check_flush_spots"},
    }
    response = client.post(reverse("dice:receive"), data)
    assert response.status_code == 409
    text = response.content.decode()
    assert "DICE-01" in text and "AM 88-384 art. 2" in text and "points marqués à ras" in text
    assert "A-0001\nA-0002" in text and "BL 77" in text
    assert not Die.objects.exists()
    response = client.post(reverse("dice:receive"), {**data, **CHECKS})
    assert response.status_code == 302
    assert list(Die.objects.values_list("serial", flat=True)) == ["A-0001", "A-0002"]


def test_fr_receipt_in_pairs(client, fr_org):
    from tests.dice.conftest import fr_order

    order = fr_order(fr_org, 1)
    login(client, fr_org["employe_responsable"])
    response = client.post(
        reverse("dice:receive"),
        {
            "location": fr_org.depot.pk,
            "order": order.pk,
            "sigle": "CNI",
            "lines": "R-1 ; rouge ; 22\nR-2 ; rouge ; 22",
            **CHECKS,
        },
    )
    assert response.status_code == 409 and "DICE-13" in response.content.decode()
    response = client.post(
        reverse("dice:receive"),
        {
            "location": fr_org.depot.pk,
            "order": order.pk,
            "sigle": "CNI",
            "lines": "R-1 ; rouge ; 22\nR-2 ; vert ; 22,5",
            **CHECKS,
        },
    )
    assert response.status_code == 302
    assert Die.objects.get(serial="R-2").side_mm == 22.5


def test_allocation_countersigned_by_the_sous_directeur(client, mc_org):
    session = mc_org.session()
    serials = " ".join(d.serial for d in receive_mc(mc_org, 5))
    login(client, mc_org["cartier"])
    url = reverse("dice:allocate", kwargs={"pk": session.pk})
    # The signer is picked among the sous-directeurs (SET-15): a chef de table is not offered, and
    # one named anyway is refused before the service (which refuses him too, DICE-10, via the API).
    form = client.get(url).content.decode()
    assert mc_org["sous_directeur"].username in form and mc_org["chef_table"].username not in form
    wrong_role = client.post(
        url, {"dice": serials, "signer_username": mc_org["chef_table"].username, "signer_password": DEFAULT_PASSWORD}
    )
    assert wrong_role.status_code == 200 and serials in wrong_role.content.decode()
    bad_password = client.post(
        url, {"dice": serials, "signer_username": mc_org["sous_directeur"].username, "signer_password": "faux"}
    )
    assert bad_password.status_code == 200 and "signature refusée" in bad_password.content.decode()
    unknown = client.post(
        url, {"dice": "NOPE", "signer_username": mc_org["sous_directeur"].username, "signer_password": DEFAULT_PASSWORD}
    )
    assert "Numéro d&#x27;ordre inconnu" in unknown.content.decode()
    assert not DiceAllocation.objects.exists()
    ok = client.post(
        url,
        {"dice": serials, "signer_username": mc_org["sous_directeur"].username, "signer_password": DEFAULT_PASSWORD},
    )
    assert ok.status_code == 302
    allocation = DiceAllocation.objects.get()
    assert allocation.signed_by == mc_org["sous_directeur"] and allocation.recorded_by == mc_org["cartier"]


def test_table_opening_refused_on_the_table_page(client, mc_org):
    session = mc_org.session()
    login(client, mc_org["chef_table"])
    response = client.post(reverse("dice:session_open", kwargs={"pk": session.pk}))
    assert response.status_code == 409 and "DICE-10" in response.content.decode()
    assert TableSession.objects.get(pk=session.pk).status == TableSession.Status.PREPARING


def test_prepare_a_dice_table_from_the_day(client, mc_org):
    seance = mc_org.seance()
    login(client, mc_org["sous_directeur"])
    day = client.get(reverse("dice:day")).content.decode()
    assert reverse("dice:prepare", kwargs={"seance": seance.pk, "table": mc_org.table.pk}) in day
    response = client.post(reverse("dice:prepare", kwargs={"seance": seance.pk, "table": mc_org.table.pk}))
    session = TableSession.objects.get(seance=seance, table=mc_org.table)
    assert response.status_code == 302 and response["Location"] == reverse("dice:allocate", kwargs={"pk": session.pk})


def test_preparing_a_table_of_a_closed_seance_shows_the_refusal(client, mc_org):
    seance = mc_org.seance()
    seance_close(seance=seance, actor=mc_org["sous_directeur"])
    login(client, mc_org["sous_directeur"])
    response = client.post(reverse("dice:prepare", kwargs={"seance": seance.pk, "table": mc_org.table.pk}), follow=True)
    assert response.redirect_chain == [(reverse("dice:day"), 302)]
    assert "La séance est clôturée." in response.content.decode()
    assert not TableSession.objects.filter(seance=seance, table=mc_org.table).exists()


def test_mc_swap_and_end_check_pages(client, mc_org):
    session = mc_org.session()
    dice = [line.die for line in allocate_mc(mc_org, session).lines.order_by("die__serial")]
    open_table(mc_org, session)
    login(client, mc_org["chef_table"])
    outsider = receive_mc(mc_org, 1)[0]
    refused = client.post(
        reverse("dice:swap", kwargs={"pk": session.pk}),
        {"withdrawn": dice[0].serial, "brought_in": outsider.serial, "reason": "fell"},
    )
    assert refused.status_code == 409 and "DICE-12" in refused.content.decode()
    ok = client.post(
        reverse("dice:swap", kwargs={"pk": session.pk}),
        {"withdrawn": dice[0].serial, "brought_in": dice[1].serial, "reason": "shooter"},
    )
    assert ok.status_code == 302 and DiceSwap.objects.count() == 1
    login(client, mc_org["sous_directeur"])
    data = {"return_to": mc_org.depot.pk, "observations": "RAS", **{f"result_{d.pk}": "ok" for d in dice}}
    assert client.post(reverse("dice:end_check", kwargs={"pk": session.pk}), data).status_code == 302
    assert DiceCheck.objects.get().checker == mc_org["sous_directeur"]
    assert client.post(reverse("dice:session_close", kwargs={"pk": session.pk})).status_code == 302
    page = client.get(reverse("dice:session", kwargs={"pk": session.pk})).content.decode()
    assert "Contrôle de fin de séance" in page and "RAS" in page
    assert reverse("dice:end_check", kwargs={"pk": session.pk}) not in page and "Fin de partie" not in page
    # The check is signed once: its form is no longer offered, the partie's page shows the check.
    again = client.get(reverse("dice:end_check", kwargs={"pk": session.pk}), follow=True)
    assert again.redirect_chain == [(reverse("dice:session", kwargs={"pk": session.pk}), 302)]
    assert "déjà signé" in again.content.decode()


def test_fr_end_check_needs_the_chef_de_tables_signature(client, fr_org):
    session = fr_org.session()
    allocate_fr(fr_org, session)
    open_table(fr_org, session)
    dice = list(Die.objects.filter(table_session=session))
    login(client, fr_org["directeur_responsable"])
    data = {"return_to": fr_org.depot.pk, "micrometer": "MIC-1", "square": "EQ-1", "balance": "BC-1"}
    for die in dice:
        data |= {
            f"result_{die.pk}": "ok",
            f"micrometer_{die.pk}": "22.0",
            f"square_{die.pk}": "yes",
            f"balance_{die.pk}": "yes",
        }
    url = reverse("dice:end_check", kwargs={"pk": session.pk})
    refused = client.post(url, data)
    assert refused.status_code == 409 and "DICE-25" in refused.content.decode()
    assert 'value="MIC-1"' in refused.content.decode()
    ok = client.post(
        url, {**data, "cosigner_username": fr_org["chef_table"].username, "cosigner_password": DEFAULT_PASSWORD}
    )
    assert ok.status_code == 302
    assert DiceCheck.objects.get().cosigner == fr_org["chef_table"]


def test_fr_allocation_swap_and_pairs_cap_pages(client, fr_org):
    pairs = receive_fr(fr_org, 2)
    session = fr_org.session()
    login(client, fr_org["chef_table"])
    response = client.post(
        reverse("dice:allocate", kwargs={"pk": session.pk}),
        {
            "pair_in_play": pairs[0].pk,
            "pair_reserve": pairs[1].pk,
            "signer_username": fr_org["comite"].username,
            "signer_password": DEFAULT_PASSWORD,
        },
    )
    assert response.status_code == 302
    open_table(fr_org, session)
    response = client.post(
        reverse("dice:swap", kwargs={"pk": session.pk}), {"pair_in": pairs[0].pk, "reason": "shooter"}
    )
    assert response.status_code == 409 and "DICE-26" in response.content.decode()
    response = client.post(
        reverse("dice:swap", kwargs={"pk": session.pk}),
        {"pair_in": pairs[1].pk, "reason": "shooter", "during_rampo_attempt": "on"},
    )
    assert response.status_code == 302
    login(client, fr_org["directeur_responsable"])
    response = client.post(reverse("dice:pairs_cap"), {"max_pairs": 12, "reference": "DM du 1er mars 2026"})
    assert response.status_code == 302
    fr_org.est.refresh_from_db()
    assert fr_org.est.setting("SET-14") == {"max_pairs": 12, "reference": "DM du 1er mars 2026"}


def test_mc_destruction_pages_need_scj_notice_and_the_inspecteur(client, mc_org):
    dice = receive_mc(mc_org, 2)
    login(client, mc_org["cartier"])
    client.post(reverse("dice:withdraw"), {"dice": " ".join(d.serial for d in dice), "reason": "damaged"})
    login(client, mc_org["directeur_jeux"])
    response = client.post(
        reverse("dice:destruction_plan"),
        {
            "dice": [d.pk for d in dice],
            "method": "destruction",
            "planned_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
        },
    )
    destruction = DestructionSession.objects.get()
    assert response.status_code == 302
    complete = reverse("dice:destruction_complete", kwargs={"pk": destruction.pk})
    inspector = {"inspector_username": mc_org["inspecteur"].username, "inspector_password": DEFAULT_PASSWORD}
    refused = client.post(complete, inspector)
    assert refused.status_code == 409 and "DICE-07" in refused.content.decode()
    response = client.post(
        reverse("dice:destruction_notify", kwargs={"pk": destruction.pk}),
        {"channel": "email", "reference": "courriel n° 12"},
    )
    assert response.status_code == 302
    notice_aged(destruction)
    refused = client.post(complete, {})
    assert refused.status_code == 409 and "inspecteur" in refused.content.decode()
    assert client.post(complete, inspector).status_code == 302
    destruction.refresh_from_db()
    assert destruction.status == DestructionSession.Status.COMPLETED
    assert destruction.inspector == mc_org["inspecteur"]


def test_fr_destruction_page_before_the_police(client, fr_org):
    pairs = receive_fr(fr_org, 1)
    login(client, fr_org["employe_responsable"])
    client.post(reverse("dice:withdraw"), {"dice": pairs[0].dice.first().serial, "reason": "used"})
    login(client, fr_org["directeur_responsable"])
    planned = timezone.localtime().strftime("%Y-%m-%dT%H:%M")
    refused = client.post(
        reverse("dice:destruction_plan"),
        {"dice": [d.pk for d in pairs[0].dice.all()], "method": "neutralisation", "planned_at": planned},
    )
    assert refused.status_code == 409 and "DICE-19" in refused.content.decode()
    client.post(
        reverse("dice:destruction_plan"),
        {"dice": [d.pk for d in pairs[0].dice.all()], "method": "destruction", "planned_at": planned},
    )
    destruction = DestructionSession.objects.get()
    response = client.post(
        reverse("dice:destruction_complete", kwargs={"pk": destruction.pk}),
        {
            "witness_username": fr_org["police"].username,
            "witness_password": DEFAULT_PASSWORD,
            "loaded": "no",
            "tampered": "no",
            "police_service": "SCCJ",
        },
    )
    assert response.status_code == 302
    destruction.refresh_from_db()
    assert destruction.status == DestructionSession.Status.COMPLETED and destruction.witness == fr_org["police"]


def test_verification_page_by_the_scj(client, mc_org):
    receive_mc(mc_org, 3)
    login(client, mc_org["scj"])
    form = client.get(reverse("dice:verification")).context["form"]
    data = {name: field.initial for name, field in form.fields.items() if name.startswith("counted_")}
    response = client.post(reverse("dice:verification"), {**data, "opened_by": "M. Rossi"})
    assert response.status_code == 302
    login(client, mc_org["cartier"])
    response = client.post(reverse("dice:verification"), {**data})
    assert response.status_code == 403  # only the authority verifies


@pytest.mark.parametrize("name", ["orders", "suppliers", "destructions"])
def test_lists_show_created_objects(client, fr_org, name):
    receive_fr(fr_org, 1)
    login(client, fr_org["directeur_responsable"])
    response = client.get(reverse(f"dice:{name}"))
    assert response.status_code == 200
    if name == "orders":
        assert "21-001/1" in response.content.decode()
    if name == "suppliers":
        assert "Fabrique de dés agréée" in response.content.decode()


def test_entries_are_written_in_french_when_the_user_reads_english(client, mc_org):
    session = mc_org.session()
    serials = " ".join(d.serial for d in receive_mc(mc_org, 5))
    login(client, mc_org["cartier"])
    client.cookies["django_language"] = "en"
    url = reverse("dice:allocate", kwargs={"pk": session.pk})
    assert "Deputy director" in client.get(url).content.decode()  # the signers offered in the user's language
    client.post(
        url,
        {"dice": serials, "signer_username": mc_org["sous_directeur"].username, "signer_password": DEFAULT_PASSWORD},
    )
    entry = mc_org.registers["des_en_service"].entries.filter(kind="record").get()
    assert entry.payload["event"] == "Dotation de la séance" and entry.payload["detail"] == "5 dés neufs"


def test_dice_15_a_suppliers_approval_recorded_on_its_page(client, fr_org):
    receive_fr(fr_org, 1)
    supplier = fr_org.est.suppliers.get(domain="dice")
    login(client, fr_org["directeur_responsable"])
    url = reverse("dice:supplier_approval", args=[supplier.pk])
    assert url in client.get(reverse("dice:suppliers")).content.decode()
    assert client.get(url).status_code == 200
    answer = client.post(url, {"approval_reference": "Agrément 2026-11", "approved_from": "2026-01-01"})
    assert answer.status_code == 302 and answer.url == reverse("dice:suppliers")
    supplier.refresh_from_db()
    assert (supplier.approval_reference, supplier.approved_from.isoformat()) == ("Agrément 2026-11", "2026-01-01")
    line = fr_org.registers["bons_commande"].entries.order_by("-seq").first()
    assert (line.payload["event"], line.payload["supplier"]) == ("Agrément du fournisseur", supplier.name)
