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


def test_dice_04_transfer_and_day_close_offered_to_the_stocks_keepers(client, mc_org):
    links = [f'href="{reverse(f"dice:{name}")}"' for name in ("transfer", "day_close")]
    client.force_login(mc_org["croupier"])
    stock = client.get(reverse("dice:stock")).content.decode()
    assert not any(link in stock for link in links) and stock.count('aria-disabled="true"') == 5
    for name in ("transfer", "day_close"):
        response = client.get(reverse(f"dice:{name}"))
        assert response.status_code == 403 and '<form method="post"' not in response.content.decode(), name
    client.force_login(mc_org["cartier"])
    stock = client.get(reverse("dice:stock")).content.decode()
    assert all(link in stock for link in links)
    assert client.get(reverse("dice:transfer")).status_code == 200


def test_dice_05_verification_offered_to_the_scj_alone(client, mc_org):
    link = f'href="{reverse("dice:verification")}"'
    client.force_login(mc_org["cartier"])
    assert link not in client.get(reverse("dice:stock")).content.decode()
    assert client.get(reverse("dice:verification")).status_code == 403
    client.force_login(mc_org["scj"])
    assert link in client.get(reverse("dice:stock")).content.decode()
    assert client.get(reverse("dice:verification")).status_code == 200


def test_dice_11_the_day_table_links_allocation_and_check_for_whom_may_do_them(client, mc_org):
    seance = mc_org.seance()
    waiting, allocated = mc_org.session(seance), mc_org.session(seance, table=mc_org.other_table)
    allocate_mc(mc_org, allocated)
    allocate_link = f'href="{reverse("dice:allocate", kwargs={"pk": waiting.pk})}"'
    check_link = f'href="{reverse("dice:end_check", kwargs={"pk": allocated.pk})}"'
    client.force_login(mc_org["croupier"])
    day = client.get(reverse("dice:day")).content.decode()
    assert allocate_link not in day and check_link not in day and "À doter" in day and "À faire" in day
    client.force_login(mc_org["cartier"])
    day = client.get(reverse("dice:day")).content.decode()
    assert allocate_link in day and check_link not in day
    client.force_login(mc_org["sous_directeur"])
    assert check_link in client.get(reverse("dice:day")).content.decode()
