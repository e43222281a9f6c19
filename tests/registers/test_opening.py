"""The registers to open before the first séance: the list per jurisdiction and per table kind,
with each volume's state; the directorate's one act creating the missing volumes; a volume created
by mistake withdrawn before its opening act; a missing register refused citing the house's own
texts."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers import opening, services
from ledgers.registers.forms import RegisterCreateForm
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from tests.factories import LocationFactory, open_register, set_up_table
from tests.spreadsheets import csv_rows

DIRECTOR = {"MC": Role.DIRECTEUR_JEUX, "FR": Role.DIRECTEUR_RESPONSABLE}


def listed(establishment) -> dict[tuple[str, str], opening.ToOpen]:
    return {(row.need.kind, row.need.qualifier): row for row in opening.registers_to_open(establishment)}


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_reg_09_a_french_blackjack_house_lists_its_registers_and_each_tables(
    fr, user_in, django_assert_max_num_queries
):
    set_up_table(fr, "BJ1", "blackjack")
    set_up_table(fr, "CF1", "chemin_de_fer")
    LocationFactory(establishment=fr, code="caisse", name="Caisse des jeux", kind="caisse_centrale")
    with django_assert_max_num_queries(5):  # the tables, the desks, the machines, the volumes: not one per source
        rows = listed(fr)
    # The house's own, the cards' and the blackjack table's carnet d'avances (REG-09), the
    # chemin de fer table's carnet des cagnottes (REG-30), the desk's registre de change (REG-29).
    for pair in (
        ("main_courante", ""),
        ("parties_de_table", ""),
        ("incidents", ""),
        ("informations_autorites", ""),
        ("registre_cles", ""),
        ("cartes_service", ""),
        ("carnet_19", "cartes"),
        ("carnet_19", "sabots"),
        ("bons_commande", "cards"),
        ("registre_controle", ""),
        ("registre_change", "caisse"),
        ("reglement_interieur", ""),
        ("observations_police", ""),
    ):
        assert pair in rows, pair
    assert rows[("carnet_avances", "BJ1")].requirement == "REG-09" and rows[("carnet_avances", "BJ1")].table == "BJ1"
    assert rows[("carnet_cagnottes", "CF1")].requirement == "REG-30"
    assert ("carnet_avances", "CF1") not in rows
    assert rows[("registre_change", "caisse")].qualifier_label == "Caisse des jeux"
    assert not any(kind in {"prise_en_charge", "comptabilite_annexe", "des_en_service"} for kind, _q in rows)
    # The register of authorisations the arrêté was recorded in is open; the others are to create.
    assert rows[("autorisations_jeux", "")].state == opening.State.OPEN
    assert rows[("carnet_avances", "BJ1")].state == opening.State.TO_CREATE
    assert "Fonctionnaire du ministère de l'intérieur" in rows[("carnet_avances", "BJ1")].authority
    # The key register, kept in both jurisdictions, names only the authorities of the house's own.
    keys = rows[("registre_cles", "")].authority
    assert "police des jeux" in keys and "Commissaire" not in keys


def test_reg_01_a_monaco_house_lists_an_intake_register_per_category_of_cards(mc, user_in):
    set_up_table(mc, "BJ1", "blackjack")
    set_up_table(mc, "R1", "roulette")
    rows = listed(mc)
    for category in ("sixain", "huitain", "jeu"):
        assert rows[("prise_en_charge", f"cards-{category}")].requirement == "CARD-04"
    assert "Commissaire du Gouvernement" in rows[("prise_en_charge", "cards-sixain")].authority
    keys = rows[("registre_cles", "")].authority
    assert "Commissaire du Gouvernement" in keys and "police" not in keys
    for pair in (("comptabilite_annexe", "cards"), ("verifications_materiel", ""), ("roulement_lanceurs", "")):
        assert pair in rows, pair
    assert not any(kind in {"carnet_avances", "carnet_19", "informations_autorites"} for kind, _q in rows)


def test_reg_01_the_directorate_creates_every_missing_volume_in_one_act(fr, user_in):
    set_up_table(fr, "BJ1", "blackjack")
    director = user_in(fr, Role.DIRECTEUR_RESPONSABLE)
    missing = opening.missing(fr)
    created = services.registers_to_open_create(establishment=fr, actor=director)
    assert {(r.kind, r.qualifier) for r in created} == {(n.kind, n.qualifier) for n in missing}
    assert all(r.status == Register.Status.AWAITING_OPENING for r in created)
    assert opening.missing(fr) == []
    assert {row.state for row in opening.registers_to_open(fr)} == {opening.State.AWAITING, opening.State.OPEN}
    # Said in the register of authorisations, with the numbers of the volumes.
    line = Entry.objects.filter(register__establishment=fr, register__kind="habilitations").order_by("-pk").first()
    assert line.payload["registers"] == [r.number for r in created]
    # Nothing missing any more: the act creates nothing and writes nothing.
    assert services.registers_to_open_create(establishment=fr, actor=director) == []
    # Once coted and paraphed by its authority, a volume reads open.
    avances = next(r for r in created if r.kind == "carnet_avances")
    services.register_open(register=avances, actor=user_in(fr, Role.CONTROLE_INTERIEUR), paraphe="N.C.")
    assert listed(fr)[("carnet_avances", "BJ1")].state == opening.State.OPEN


def test_reg_01_only_the_directorate_creates_the_missing_volumes(fr, user_in):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.registers_to_open_create(establishment=fr, actor=user_in(fr, Role.POLICE))
    assert not fr.registers.exclude(kind="habilitations").exists()


def test_reg_20_a_volume_created_by_mistake_is_withdrawn_before_its_opening_act(mc, user_in):
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    wrong = services.register_create(establishment=mc, kind="main_courante", qualifier="erreur", actor=director)
    withdrawn = services.register_withdraw(register=wrong, actor=director, reason="Catégorie saisie par erreur")
    assert withdrawn.status == Register.Status.WITHDRAWN
    assert Register.objects.filter(pk=wrong.pk, status="withdrawn").exists()  # kept, never deleted
    line = Entry.objects.filter(register__establishment=mc, register__kind="habilitations").order_by("-pk").first()
    assert line.payload["register"] == wrong.number and "Catégorie saisie par erreur" in line.payload["text"]
    # Never opened afterwards, never written in.
    with pytest.raises(RuleViolation) as refused:
        services.register_open(register=wrong, actor=user_in(mc, Role.COMMISSAIRE), paraphe="C.O.")
    assert refused.value.code == "REG-20"
    # A withdrawn volume does not count as created: the house's main courante is still to create.
    assert listed(mc)[("main_courante", "")].state == opening.State.TO_CREATE


def test_reg_20_a_volume_coted_and_paraphed_is_never_withdrawn(mc, user_in):
    register = open_register(mc, "main_courante")
    with pytest.raises(RuleViolation) as refused:
        services.register_withdraw(register=register, actor=user_in(mc, Role.DIRECTEUR_JEUX), reason="Erreur")
    assert refused.value.code == "REG-20"
    register.refresh_from_db()
    assert register.status == Register.Status.OPEN


def test_reg_20_a_missing_register_cites_monaco_texts_in_monaco(mc, fr):
    # The purchase orders are REG-07 in France (a French row); Monaco's refusal cites its own text.
    with pytest.raises(RuleViolation) as monaco:
        current_register(mc, "bons_commande", "cards")
    assert monaco.value.code == "REG-20" and monaco.value.article == "AM 88-384 art. 19.4"
    with pytest.raises(RuleViolation) as france:
        current_register(fr, "bons_commande", "cards")
    assert france.value.code == "REG-07" and "Arrêté du 14 mai 2007 art. 39" in france.value.article
    with pytest.raises(RuleViolation) as main_courante:
        current_register(fr, "main_courante")
    assert main_courante.value.article == "Arrêté du 30 décembre 2014 art. 29 (56-3-1)"
    with pytest.raises(RuleViolation) as intake:
        current_register(mc, "prise_en_charge", "cards-sixain")
    assert intake.value.code == "REG-01" and "AM 88-384" in intake.value.article


@pytest.mark.parametrize("jurisdiction", ["MC", "FR"])
def test_reg_01_the_page_lists_exports_and_creates_the_missing_registers(jurisdiction, mc, fr, user_in, client):
    est = mc if jurisdiction == "MC" else fr
    set_up_table(est, "BJ1", "blackjack")
    director = user_in(est, DIRECTOR[jurisdiction])
    client.force_login(director)
    page = client.get(reverse("registers:to_open"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Registre des cartes en service" in html and reverse("registers:to_open_create") in html
    exported = client.get(reverse("registers:to_open"), {"_export": "csv"})
    headers, *rows = csv_rows(exported)
    assert headers[0] == "Registre" and len(rows) == len(opening.registers_to_open(est))
    # Nothing created yet: each is to create, or open where setting up the table opened it.
    assert {row[5] for row in rows} == {"À créer", "Ouvert"}
    assert all(row[6] == "" for row in rows if row[5] == "À créer")
    done = client.post(reverse("registers:to_open_create"))
    assert done.status_code == 302
    assert not opening.missing(est)
    home = client.get(reverse("dashboard"))
    assert reverse("registers:to_open") in home.content.decode()


def test_reg_01_the_authoritys_home_lists_the_volumes_awaiting_its_cote_et_paraphe(mc, user_in, client):
    set_up_table(mc, "BJ1", "blackjack")
    services.registers_to_open_create(establishment=mc, actor=user_in(mc, Role.DIRECTEUR_JEUX))
    client.force_login(user_in(mc, Role.COMMISSAIRE))
    html = client.get(reverse("dashboard")).content.decode()
    intake = mc.registers.get(kind="prise_en_charge", qualifier="cards-sixain")
    assert intake.number in html


def test_reg_20_withdrawal_page_and_api(fr, user_in, client):
    director = user_in(fr, Role.DIRECTEUR_RESPONSABLE)
    first = services.register_create(establishment=fr, kind="incidents", actor=director)
    client.force_login(director)
    assert (
        reverse("registers:withdraw", args=[first.number])
        in client.get(reverse("registers:detail", args=[first.number])).content.decode()
    )
    answer = client.post(reverse("registers:withdraw", args=[first.number]), {"reason": "Doublon"})
    assert answer.status_code == 302
    first.refresh_from_db()
    assert first.status == Register.Status.WITHDRAWN
    second = services.register_create(establishment=fr, kind="incidents", actor=director)
    through_api = api_as(director).post(
        f"/api/v1/registers/{second.number}/withdrawal/", {"reason": "Doublon"}, format="json"
    )
    assert through_api.status_code == 201 and through_api.json()["status"] == "withdrawn"
    again = api_as(director).post(f"/api/v1/registers/{second.number}/withdrawal/", {"reason": "x"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "REG-20"


def test_reg_01_the_api_lists_and_creates_the_registers_to_open(mc, user_in):
    set_up_table(mc, "BJ1", "blackjack")
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    listing = api_as(director).get("/api/v1/registers/to-open/")
    assert listing.status_code == 200
    states = {(row["kind"], row["qualifier"]): row for row in listing.json()}
    assert states[("prise_en_charge", "cards-sixain")]["state"] == "to_create"
    assert states[("prise_en_charge", "cards-sixain")]["register"] == ""
    created = api_as(director).post("/api/v1/registers/to-open/", {}, format="json")
    assert created.status_code == 201 and len(created.json()) == len(
        [row for row in states.values() if row["state"] == "to_create"]
    )
    after = {(row["kind"], row["qualifier"]): row for row in api_as(director).get("/api/v1/registers/to-open/").json()}
    assert after[("prise_en_charge", "cards-sixain")]["state"] == "awaiting"
    assert after[("prise_en_charge", "cards-sixain")]["register"]


def test_reg_01_categories_are_chosen_by_name_not_typed_as_codes(mc, user_in):
    set_up_table(mc, "BJ1", "blackjack")
    choices = dict(RegisterCreateForm(establishment=mc).fields["qualifier"].choices)
    assert choices["cards-sixain"] == "Sixains (jeux de 52 cartes)"
    assert choices["BJ1"] == "Table BJ1 (Black-jack)"
    form = RegisterCreateForm({"kind": "prise_en_charge", "qualifier": "typed-code"}, establishment=mc)
    assert not form.is_valid() and "qualifier" in form.errors
