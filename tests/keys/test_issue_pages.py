"""The hand-over and return pages ask only for the people a key's rules need: one holder for a
single-control key, a second releaser (and the same two people back) for a dual-control one, a
witness for a French upper-part opening. The key is chosen first."""

from django.urls import reverse

from ledgers.keys.services import key_issue
from tests.factories import DEFAULT_PASSWORD

from .conftest import due

SIGNERS = ("holder", "co1", "co2", "witness")


def _signers(page: str) -> set[str]:
    return {prefix for prefix in SIGNERS if f'name="{prefix}_username"' in page}


def test_the_key_is_chosen_before_the_signers(client, mc_org, django_assert_max_num_queries):
    machine = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    client.force_login(mc_org["superviseur"])
    with django_assert_max_num_queries(12):
        page = client.get(reverse("keys:issue")).content.decode()
    assert 'method="get"' in page and f'value="{machine.pk}"' in page
    assert not _signers(page) and 'name="password"' not in page


def test_single_control_key_asks_for_the_holder_only(client, mc_org, django_assert_max_num_queries):
    machine = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    client.force_login(mc_org["superviseur"])
    with django_assert_max_num_queries(24):
        page = client.get(reverse("keys:issue"), {"key": machine.pk}).content.decode()
    assert _signers(page) == {"holder"} and "M-1" in page


def test_dual_control_key_asks_for_the_second_releaser_and_takes_it_back_from_both(client, mc_org):
    bill = mc_org.key("B-1", "bill_content", home=mc_org.homes["comptabilite"])
    second = mc_org.user("comptabilite")
    client.force_login(mc_org["comptabilite"])
    page = client.get(reverse("keys:issue"), {"key": bill.pk}).content.decode()
    assert _signers(page) == {"holder", "co1"}

    count = mc_org.operation()
    data = {
        "key": bill.pk,
        "purpose": f"test.count:{count.pk}",
        "due_at": due().strftime("%Y-%m-%dT%H:%M"),
        "password": DEFAULT_PASSWORD,
        "holder_username": mc_org["caissier"].username,
        "holder_password": DEFAULT_PASSWORD,
    }
    # The second releaser is asked for: the form refuses without it, and nothing leaves.
    assert client.post(reverse("keys:issue"), data).status_code == 200
    assert not bill.issues.exists()
    signed = {**data, "co1_username": second.username, "co1_password": DEFAULT_PASSWORD}
    assert client.post(reverse("keys:issue"), signed).status_code == 302
    issue = bill.issues.get()
    page = client.get(reverse("keys:return", args=[issue.pk])).content.decode()
    assert _signers(page) == {"holder", "co1"}

    single = key_issue(
        key=mc_org.key("M-2", "machine_door", home=mc_org.homes["coffre"]),
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=count.pk,
        due_at=due(),
    )
    client.force_login(mc_org["superviseur"])
    assert _signers(client.get(reverse("keys:return", args=[single.pk])).content.decode()) == {"holder"}


def test_fr_upper_part_key_asks_for_the_witness(client, fr_org):
    upper = fr_org.key("U-1", "upper", custodian=fr_org["directeur_responsable"])
    lower = fr_org.key("L-1", "lower", custodian=fr_org["comite"])
    client.force_login(fr_org["directeur_responsable"])
    assert _signers(client.get(reverse("keys:issue"), {"key": upper.pk}).content.decode()) == {"holder", "witness"}
    assert _signers(client.get(reverse("keys:issue"), {"key": lower.pk}).content.decode()) == {"holder"}
