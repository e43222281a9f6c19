"""End to end on PostgreSQL, through the pages: a French punto banco séance with its sabot and a
Monaco roulette séance with its pre-séance check and its lid locked."""

import pytest
from django.urls import reverse

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import seance_close, table_session_close, table_session_open
from ledgers.equipment.models import ApprovedModel, LidLock, Shoe, ShoeAllocation, Wheel, WheelCheck
from ledgers.registers.models import Register
from ledgers.registers.selectors import current_register
from ledgers.registers.verification import verify_register
from tests.factories import DEFAULT_PASSWORD

from .conftest import seance, session

pytestmark = pytest.mark.postgresql


def records(est, kind, qualifier=""):
    return [e.payload for e in current_register(est, kind, qualifier).entries.filter(kind="record").order_by("seq")]


def post(client, user, name, data, *args):
    client.force_login(user)
    return client.post(reverse(f"equipment:{name}", args=args), data)


def test_punto_banco_seance_with_its_sabot(client, fro):
    director, keeper = fro.users[Role.DIRECTEUR_RESPONSABLE], fro.users[Role.EMPLOYE_RESPONSABLE]
    assert (
        post(
            client,
            director,
            "model_create",
            {
                "kind": "shoe",
                "manufacturer": "Cartamundi",
                "name": "Sabot PB",
                "approval_reference": "NOR INTA1907123A",
                "approval_issuer": "Ministre de l'intérieur",
            },
        ).status_code
        == 302
    )
    model = ApprovedModel.objects.get(name="Sabot PB")
    assert (
        post(
            client,
            keeper,
            "shoe_receive",
            {"model": model.pk, "location": fro.locations["armoire-sabots"].pk, "numbers": "21; CM-1\n22; CM-2"},
        ).status_code
        == 302
    )
    first = Shoe.objects.get(serial="21")

    def play(day, expect_flag):
        s = seance(fro, day)
        pb = session(fro, "PB1", s)
        with pytest.raises(RuleViolation) as exc:
            table_session_open(session=pb, actor=director)
        assert exc.value.code == "SHOE-12"
        response = post(client, director, "shoe_allocate", {"session": pb.pk, "shoe": first.pk})
        assert response.status_code == 302
        table_session_open(session=pb, actor=director)
        with pytest.raises(RuleViolation) as exc:
            table_session_close(session=pb, actor=director)
        assert exc.value.code == "SHOE-09"
        assert (
            post(
                client, keeper, "shoe_return", {"shoes": [first.pk], "to_location": fro.locations["armoire-sabots"].pk}
            ).status_code
            == 302
        )
        seance_close(seance=s, actor=director)
        assert bool(ShoeAllocation.objects.get(table_session=pb).flags) is expect_flag

    play(0, expect_flag=False)
    play(1, expect_flag=True)  # same sabot, same table, previous séance (SET-20 = 1)
    carnet = records(fro.est, "carnet_avances", "PB1")
    assert [page["sabot"]["number"] for page in carnet] == ["21", "21"] and carnet[1]["flags"]
    assert [p["movement"] for p in records(fro.est, "sorties_tables", "shoes")] == ["ISSUE", "RETURN"] * 2
    assert records(fro.est, "carnet_19", "sabots")[0]["serials"] == ["21", "22"]
    client.force_login(director)
    report = client.get(
        reverse("equipment:repeated_pairs"), {"date_from": "2026-01-01", "date_to": "2026-12-31", "minimum": 2}
    ).content.decode()
    assert "<td>21</td><td>PB1</td><td>2</td><td>1</td>" in report
    for register in Register.objects.filter(establishment=fro.est):
        assert verify_register(register) is None, register.number


def test_roulette_seance_with_its_check_and_its_lid(client, mco):
    director = mco.director
    assert (
        post(
            client,
            director,
            "wheel_create",
            {"number": "C-7", "kind": "roulette_europeenne", "pockets": 37, "zeros": "0", "obstacles": 7},
        ).status_code
        == 302
    )
    cylinder = Wheel.objects.get(number="C-7")
    assert post(client, director, "wheel_commission", {"confirm": "on"}, cylinder.pk).status_code == 302
    assert post(client, director, "wheel_install", {"table": mco.tables["R1"].pk}, cylinder.pk).status_code == 302
    s = seance(mco)
    r1 = session(mco, "R1", s)
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=r1, actor=director)
    assert exc.value.code == "WHEEL-06"
    inspecteur = mco.users[Role.INSPECTEUR]
    assert (
        post(
            client,
            mco.users[Role.ENTRETIEN],
            "wheel_check",
            {
                "session": r1.pk,
                "points": "Pivot\nCloisons\n7 obstacles",
                "passed": "1",
                "cosigner_username": inspecteur.username,
                "cosigner_password": DEFAULT_PASSWORD,
            },
        ).status_code
        == 302
    )
    assert WheelCheck.objects.get().passed
    table_session_open(session=r1, actor=director)
    with pytest.raises(RuleViolation) as exc:
        seance_close(seance=s, actor=director)
    assert exc.value.code == "REG-25" and "(WHEEL-02)" in str(exc.value)  # the séance lists what is missing
    assert (
        post(
            client,
            mco.users[Role.CHEF_TABLE],
            "lid_lock",
            {"session": r1.pk, "key_holder_username": inspecteur.username, "key_holder_password": DEFAULT_PASSWORD},
        ).status_code
        == 302
    )
    assert LidLock.objects.get().key_holder == inspecteur
    seance_close(seance=s, actor=director)
    check, lid = records(mco.est, "verifications_materiel")
    assert check["technician"] == mco.users[Role.ENTRETIEN].get_full_name() and check["result"] == "conforme"
    assert lid["event"] == "Fermeture du cylindre"
    assert [p["event"] for p in records(mco.est, "materiel_jeu")][-2:] == [
        "Mise en service — caractéristiques conformes",
        "Installation à la table",
    ]
    for register in Register.objects.filter(establishment=mco.est):
        assert verify_register(register) is None, register.number
