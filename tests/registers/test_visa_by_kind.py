"""An authority visas every volume of one kind awaiting it in one act (REG-04, REG-22), each
volume's visa its own entry signed once with the password; the internal visas the FR texts name
(arts. 70-1, 72, 73) are refused together and given volume by volume."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.registers.models import EntryKind
from ledgers.registers.services import visa_role_for_kind, visa_sign_kind
from tests.factories import DEFAULT_PASSWORD
from tests.registers.conftest import opened_register
from tests.registers.test_authority_home import write


def test_reg_22_an_authority_visas_a_kind_in_one_act_each_volume_its_own_visa(mc, mc_staff):
    first, second = opened_register(mc, mc_staff, qualifier="a"), opened_register(mc, mc_staff, qualifier="b")
    write(first, mc_staff, 2)
    write(second, mc_staff, 3)
    visas = visa_sign_kind(
        establishment=mc,
        kind="main_courante",
        actor=mc_staff.visa,
        up_to={first.number: 3, second.number: 4},
        statement="Vu.",
    )
    assert [(v.register.number, v.kind, v.payload["covers_seq"]) for v in visas] == [
        (first.number, EntryKind.VISA, 3),
        (second.number, EntryKind.VISA, 4),
    ]


def test_reg_04_a_refused_volume_keeps_no_visa_of_the_act(mc, mc_staff):
    first, second = opened_register(mc, mc_staff, qualifier="a"), opened_register(mc, mc_staff, qualifier="b")
    write(first, mc_staff, 1)
    write(second, mc_staff, 1)
    with pytest.raises(RuleViolation) as refused:
        visa_sign_kind(
            establishment=mc,
            kind="main_courante",
            actor=mc_staff.visa,
            up_to={first.number: 2, second.number: 9},
            statement="Vu.",
        )
    assert refused.value.code == "REG-04" and not first.entries.filter(kind=EntryKind.VISA).exists()


def test_reg_22_internal_visas_are_given_volume_by_volume(fr, user_in):
    comite = user_in(fr, "comite")
    with pytest.raises(RuleViolation) as refused:
        visa_role_for_kind(comite, fr, "registre_controle")
    assert refused.value.code == "REG-22"
    with pytest.raises(RuleViolation):
        visa_sign_kind(establishment=fr, kind="registre_controle", actor=comite, up_to={"x": 1}, statement="")


def test_reg_22_the_home_offers_the_kind_visa_and_its_page_signs_every_volume(client, mc, mc_staff):
    first, second = opened_register(mc, mc_staff, qualifier="a"), opened_register(mc, mc_staff, qualifier="b")
    write(first, mc_staff, 2)
    write(second, mc_staff, 1)
    client.force_login(mc_staff.visa)
    url = reverse("registers:visa_kind", args=["main_courante"])
    assert f'href="{url}"' in client.get(reverse("dashboard")).content.decode()
    page = client.get(url).content.decode()
    assert first.number in page and second.number in page and 'name="password"' in page
    response = client.post(url, {"statement": "Vu.", "password": DEFAULT_PASSWORD, f"{first.number}-head": "3"})
    assert response.status_code == 302
    assert first.entries.filter(kind=EntryKind.VISA).get().payload["covers_seq"] == 3
    assert second.entries.filter(kind=EntryKind.VISA).get().payload["covers_seq"] == 2


def test_reg_22_the_api_visas_a_kind_in_one_act_and_refuses_a_wrong_password(mc, mc_staff):
    first, second = opened_register(mc, mc_staff, qualifier="a"), opened_register(mc, mc_staff, qualifier="b")
    write(first, mc_staff, 2)
    write(second, mc_staff, 1)
    api = APIClient()
    api.force_authenticate(mc_staff.visa)
    body = {"kind": "main_courante", "up_to": {first.number: 3, second.number: 2}, "statement": "Vu."}
    url = f"/api/v1/registers/visas-by-kind/?establishment={mc.code}"

    assert api.post(url, {**body, "password": "wrong"}, format="json").status_code == 400
    assert not first.entries.filter(kind=EntryKind.VISA).exists()
    assert (
        api.post(url, {**body, "kind": "no_such_kind", "password": DEFAULT_PASSWORD}, format="json").status_code == 400
    )

    made = api.post(url, {**body, "password": DEFAULT_PASSWORD}, format="json")
    assert made.status_code == 201, made.content
    assert [(v["kind"], v["payload"]["covers_seq"]) for v in made.json()] == [("visa", 3), ("visa", 2)]
