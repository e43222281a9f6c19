"""The dice panel of the dashboard, with the Django client."""

from django.urls import reverse

from ledgers.dice.services import dice_withdraw
from tests.dice.conftest import allocate_fr, allocate_mc, receive_fr, receive_mc


def dashboard(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("dashboard")).content.decode()


def test_dice_panel_lists_allocation_and_end_check_due_today_and_the_destruction_queue(client, mc_org):
    to_allocate = mc_org.session()
    allocated = mc_org.session(table=mc_org.other_table)
    allocate_mc(mc_org, allocated)
    dice_withdraw(dice=receive_mc(mc_org, 2), reason="damaged", actor=mc_org["cartier"])
    for role in ("cartier", "sous_directeur"):
        page = dashboard(client, mc_org[role])
        assert "Journée des dés" in page and reverse("dice:day") in page
        assert f'{reverse("dice:allocate", args=[to_allocate.pk])}">{to_allocate.table}</a> — Dotation à signer' in page
        assert (
            f'{reverse("dice:end_check", args=[allocated.pk])}">{allocated.table}</a> — '
            "Contrôle de fin de séance à faire"
        ) in page
        assert "Dés en attente de destruction : 2." in page
    assert "Journée des dés" not in dashboard(client, mc_org["inspecteur"])


def test_dice_panel_for_the_directeur_responsable_in_france(client, fr_org):
    session = fr_org.session()
    allocate_fr(fr_org, session)
    page = dashboard(client, fr_org["comite"])
    assert reverse("dice:end_check", args=[session.pk]) in page and "Dotation à signer" not in page
    assert "Dés en attente de destruction" not in page
    pairs = receive_fr(fr_org, 1)
    dice_withdraw(dice=list(pairs[0].dice.all()), reason="used", actor=fr_org["employe_responsable"])
    assert "Dés en attente de destruction : 2." in dashboard(client, fr_org["directeur_responsable"])
    assert "Journée des dés" not in dashboard(client, fr_org["employe_responsable"])
