"""FR electronic games: registre de comptabilité modèle 10 bis per contrepartie device, the product
formula, the daily visa of a comité member and the carry to modèle 12 (COUNT-51); the modèle 7
daily statement and carnet 11 quater of cercle devices, certified before the carry (COUNT-55)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import ElectronicDevice
from ledgers.cash.registers import (
    CARNET_11_QUATER,
    ETAT_JOURNALIER_7,
    ETAT_MENSUEL_33,
    REGISTRE_10_BIS,
    REGISTRE_CONTROLE,
)
from ledgers.cash.services import electronic
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from tests.cash.test_e2e import printed
from tests.factories import DEFAULT_PASSWORD


def device(org, number="ER1"):
    made = electronic.device_register(
        establishment=org.est, number=number, game="Roulette électronique", stations=8, actor=org.director
    )
    org.open_register(REGISTRE_10_BIS.code, number)
    return made


def station(org, made, number=1, **kwargs):
    fields = {
        "avances": Decimal(1000),
        "physical_count": Decimal(1500),
        "units_in": 400,
        "units_out": 100,
        "unit_stake": Decimal(2),
        "tickets_issued": Decimal(300),
        **kwargs,
    }
    return electronic.station_result_record(
        device=made, date=org.day, station=number, actor=org[Role.CAISSIER], **fields
    )


def test_count_51_station_product_follows_the_formula(fro):
    made = device(fro)
    with pytest.raises(RuleViolation) as wrong:
        station(fro, made, product=Decimal(900))
    assert wrong.value.code == "COUNT-51"
    line = station(fro, made, product=Decimal(800))  # 1500 + (400 − 100) × 2 − 1000 − 300
    assert (line.electronic_count, line.product) == (Decimal("600.00"), Decimal("800.00"))
    entry = current_register(fro.est, REGISTRE_10_BIS.code, "ER1").entries.filter(kind="record").get()
    assert entry.payload["product"] == "800.00" and entry.payload["station"] == 1
    assert REGISTRE_10_BIS.paraph_roles_for("FR") == (Role.CONTROLE_INTERIEUR,)  # REG-26


def test_count_51_not_carried_to_modele_12_before_the_daily_visa_of_a_comite_member(fro):
    made = device(fro)
    station(fro, made, 1)
    station(fro, made, 2, physical_count=Decimal(900), units_in=0, units_out=0, tickets_issued=Decimal(0))  # −100
    with pytest.raises(RuleViolation) as early:
        services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert early.value.code == "COUNT-51"
    with pytest.raises(RuleViolation) as director:
        electronic.device_day_visa(device=made, date=fro.day, actor=fro.director)
    assert director.value.code == "COUNT-51"
    day = electronic.device_day_visa(device=made, date=fro.day, actor=fro[Role.COMITE])
    assert day.product == Decimal("700.00")
    with pytest.raises(RuleViolation) as late:  # a visaed day takes no new station line
        station(fro, made, 3)
    assert late.value.code == "REG-20"
    control = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert (control.contrepartie_total, control.total) == (Decimal("700.00"), Decimal("700.00"))
    line = current_register(fro.est, REGISTRE_CONTROLE.code).entries.filter(kind="record").first()
    assert (line.payload["table"], line.payload["result"]) == ("ER1", "700.00")


def test_count_51_through_the_api_and_pages(client, fro):
    api = APIClient()
    api.force_authenticate(fro.director)
    made = api.post(
        "/api/v1/cash/electronic-devices/",
        {"number": "ER2", "game": "Black-jack électronique", "stations": 4},
        format="json",
    )
    assert made.status_code == 201
    fro.open_register(REGISTRE_10_BIS.code, "ER2")
    api.force_authenticate(fro[Role.CAISSIER])
    line = {
        "device": made.json()["id"],
        "date": str(fro.day),
        "station": 1,
        "avances": "100",
        "physical_count": "50",
        "units_in": 10,
        "units_out": 0,
        "unit_stake": "5",
        "tickets_issued": "0",
        "product": "1",
    }
    refused = api.post("/api/v1/cash/station-results/", line, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-51"
    assert api.post("/api/v1/cash/station-results/", {**line, "product": "0"}, format="json").status_code == 201
    api.force_authenticate(fro[Role.COMITE])
    visa = api.post(
        f"/api/v1/cash/electronic-devices/{made.json()['id']}/visa/",
        {"date": str(fro.day), "password": DEFAULT_PASSWORD},
        format="json",
    )
    assert visa.status_code == 201 and visa.json()["product"] == "0.00"
    client.force_login(fro[Role.CAISSIER])
    page = client.get("/caisses/jeux-electroniques/")
    assert page.status_code == 200 and "Black-jack électronique" in page.content.decode()
    posted = client.post(
        f"/caisses/jeux-electroniques/{made.json()['id']}/poste/",
        {
            "date": "2026-03-03",
            "station": 2,
            "avances": "0",
            "physical_count": "10",
            "units_in": "0",
            "units_out": "0",
            "unit_stake": "1",
            "tickets_issued": "0",
        },
    )
    assert posted.status_code == 302


def cercle_device(org, number="EP1"):
    made = electronic.device_register(
        establishment=org.est,
        number=number,
        game="Texas hold'em électronique",
        stations=10,
        family=ElectronicDevice.Family.CERCLE,
        actor=org.director,
    )
    org.open_register(ETAT_JOURNALIER_7.code, number)
    org.open_register(CARNET_11_QUATER.code, number)
    return made


def test_count_55_modele_7_and_11_quater_certified_before_the_carry_to_modele_12(fro):
    made = cercle_device(fro)
    with pytest.raises(ValidationError):  # no modèle 10 bis for a cercle device
        station(fro, made)
    day = electronic.cercle_day_record(
        device=made, date=fro.day, parties=42, levies=Decimal(630), actor=fro[Role.CAISSIER]
    )
    statement = current_register(fro.est, ETAT_JOURNALIER_7.code, "EP1").entries.filter(kind="record").get()
    assert (statement.payload["parties"], statement.payload["levies"]) == (42, "630.00")
    with pytest.raises(RuleViolation) as early:
        services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert early.value.code == "COUNT-55"
    with pytest.raises(RuleViolation) as director:
        electronic.cercle_day_certify(day=day, words="certifié exact", actor=fro.director)
    assert director.value.code == "COUNT-55"
    with pytest.raises(RuleViolation) as words:
        electronic.cercle_day_certify(day=day, words="vu", actor=fro[Role.COMITE])
    assert words.value.code == "COUNT-55"
    electronic.cercle_day_certify(day=day, words="Certifié  exact", actor=fro[Role.COMITE])
    carnet = [e.payload for e in current_register(fro.est, CARNET_11_QUATER.code, "EP1").entries.filter(kind="record")]
    assert carnet[0]["game"] == "Texas hold'em électronique" and carnet[1]["certification"].startswith("certifié exact")
    control = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert (control.cercle_total, control.total) == (Decimal("630.00"), Decimal("630.00"))
    assert CARNET_11_QUATER.paraph_roles_for("FR") == (Role.CONTROLE_INTERIEUR,)  # REG-26
    assert ETAT_JOURNALIER_7.paraph_roles_for("FR") == (Role.DIRECTEUR_RESPONSABLE,)  # modèle 7 not in art. 69


def test_count_55_through_the_api_and_pages(client, fro):
    made = cercle_device(fro)
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER])
    day = api.post(
        "/api/v1/cash/cercle-device-days/",
        {"device": made.pk, "date": str(fro.day), "parties": 3, "levies": "45"},
        format="json",
    )
    assert day.status_code == 201
    api.force_authenticate(fro[Role.COMITE])
    wrong = api.post(
        f"/api/v1/cash/cercle-device-days/{day.json()['id']}/certify/",
        {"words": "ok", "password": DEFAULT_PASSWORD},
        format="json",
    )
    assert wrong.status_code == 409 and wrong.json()["code"] == "COUNT-55"
    client.force_login(fro[Role.COMITE])
    page = client.get("/caisses/jeux-electroniques/")
    assert page.status_code == 200 and "45,00" in page.content.decode()
    assert client.get(f"/caisses/jeux-electroniques/journees/{day.json()['id']}/certification/").status_code == 200
    client.force_login(fro[Role.CAISSIER])
    assert (
        client.post(
            f"/caisses/jeux-electroniques/{made.pk}/journee/", {"date": "2026-03-03", "parties": "5", "levies": "75"}
        ).status_code
        == 302
    )


def test_count_51_modele_33_monthly_meter_statement_only_from_visaed_days(client, fro):
    made = device(fro)
    fro.open_register(ETAT_MENSUEL_33.code)
    station(fro, made, 1)  # 400 − 100 units × 2 € → product 800
    station(
        fro,
        made,
        2,
        units_in=50,
        units_out=10,
        physical_count=Decimal(0),
        avances=Decimal(0),
        tickets_issued=Decimal(0),
    )  # 80
    electronic.device_day_visa(device=made, date=fro.day, actor=fro[Role.COMITE])
    later = fro.day + datetime.timedelta(days=1)
    electronic.station_result_record(
        device=made,
        date=later,
        station=1,
        avances=Decimal(0),
        units_in=10,
        units_out=0,
        unit_stake=Decimal(2),
        physical_count=Decimal(0),
        tickets_issued=Decimal(0),
        actor=fro[Role.CAISSIER],
    )  # 20
    month = {"establishment": fro.est, "year": 2026, "month": 3}
    with pytest.raises(RuleViolation) as alone:  # certified with a comité member, another person
        electronic.meter_statement_certify(**month, comite=None, actor=fro[Role.CAISSIER])
    assert alone.value.code == "COUNT-51"
    with pytest.raises(RuleViolation) as unvisaed:
        electronic.meter_statement_certify(**month, comite=fro[Role.COMITE], actor=fro[Role.CAISSIER])
    assert (unvisaed.value.code, unvisaed.value.article) == ("COUNT-51", "Arrêté du 14 mai 2007 art. 70-1")
    assert "ER1 03/03/2026" in unvisaed.value.message
    electronic.device_day_visa(device=made, date=later, actor=fro["comite2"])
    statement = electronic.meter_statement_certify(**month, comite=fro[Role.COMITE], actor=fro[Role.CAISSIER])
    assert statement.total == Decimal("900.00") and statement.entry.payload["product"] == "900.00"
    (line,) = statement.lines
    assert (line["device"], line["days"], line["product"]) == ("ER1", 2, "900.00")
    assert line["stations"][0] == {
        "station": 1,
        "units_in": 410,
        "units_out": 100,
        "unit_stake": "2.00",
        "electronic": "620.00",
    }
    register = current_register(fro.est, ETAT_MENSUEL_33.code)
    assert [e.payload["product"] for e in register.entries.filter(kind="record")] == ["900.00", "900.00"]
    assert ETAT_MENSUEL_33.paraph_roles_for("FR") == (Role.CONTROLE_INTERIEUR,)  # REG-26
    with pytest.raises(RuleViolation):  # once per month
        electronic.meter_statement_certify(**month, comite=fro[Role.COMITE], actor=fro[Role.CAISSIER])
    text = printed(register)
    assert "poste 1 : 410 / 100 × 2,00 €" in text and "Total du mois" in text
    client.force_login(fro[Role.CAISSIER])
    assert "900,00" in client.get("/caisses/jeux-electroniques/").content.decode()
    assert client.get("/caisses/jeux-electroniques/etat-mensuel/").status_code == 200


def test_count_51_modele_33_through_the_api(fro):
    made = device(fro)
    fro.open_register(ETAT_MENSUEL_33.code)
    station(fro, made, 1)
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER])
    body = {
        "year": 2026,
        "month": 3,
        "password": DEFAULT_PASSWORD,
        "comite_username": fro[Role.COMITE].username,
        "comite_password": DEFAULT_PASSWORD,
    }
    refused = api.post("/api/v1/cash/electronic-meter-statements/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-51"
    electronic.device_day_visa(device=made, date=fro.day, actor=fro[Role.COMITE])
    made_statement = api.post("/api/v1/cash/electronic-meter-statements/", body, format="json")
    assert made_statement.status_code == 201 and made_statement.json()["total"] == "800.00"
