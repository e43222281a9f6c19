"""The dice acts are offered only to whom their services let do them, asked of the services' own
checks: the others see the act disabled with the refusal, and its page refuses before any form."""

from django.urls import reverse

from tests.dice.conftest import allocate_mc, open_table


def test_dice_11_the_croupier_is_offered_no_dice_act_and_gets_no_form(client, mc_org):
    session = mc_org.session()
    allocate_mc(mc_org, session)
    open_table(mc_org, session)
    client.force_login(mc_org["croupier"])
    page = client.get(reverse("dice:session", kwargs={"pk": session.pk})).content.decode()
    for name in ("swap", "end_check", "allocate"):
        assert f'href="{reverse(f"dice:{name}", kwargs={"pk": session.pk})}' not in page, name
    assert "DICE-11" in page and 'aria-disabled="true"' in page
    for name, status in (("swap", 403), ("end_check", 409), ("allocate", 403)):
        response = client.get(reverse(f"dice:{name}", kwargs={"pk": session.pk}))
        assert response.status_code == status and '<form method="post"' not in response.content.decode(), name
    for name in ("receive", "withdraw"):
        assert client.get(reverse(f"dice:{name}")).status_code == 403
    stock = client.get(reverse("dice:stock")).content.decode()
    assert f'href="{reverse("dice:receive")}"' not in stock and f'href="{reverse("dice:withdraw")}"' not in stock


def test_dice_12_the_chef_de_table_swaps_and_the_sous_directeur_checks(client, mc_org):
    session = mc_org.session()
    allocate_mc(mc_org, session)
    open_table(mc_org, session)
    swap, check = (reverse(f"dice:{name}", kwargs={"pk": session.pk}) for name in ("swap", "end_check"))
    client.force_login(mc_org["chef_table"])
    page = client.get(reverse("dice:session", kwargs={"pk": session.pk})).content.decode()
    assert f'href="{swap}"' in page and f'href="{check}"' not in page
    assert client.get(swap).status_code == 200 and client.get(check).status_code == 409
    client.force_login(mc_org["sous_directeur"])
    assert f'href="{check}"' in client.get(reverse("dice:session", kwargs={"pk": session.pk})).content.decode()
    assert client.get(check).status_code == 200
    client.force_login(mc_org["cartier"])
    assert client.get(reverse("dice:receive")).status_code == 200
