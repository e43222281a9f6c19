"""The establishment's settings: changed by its director alone, each a setting of the catalogue its
jurisdiction reads and no act of its own sets, each value checked against the setting's make,
every change a line of the main courante in the same transaction; through the service, the API
and the set-up pages."""

import html
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.core.establishment_settings import SETTINGS, settings_of
from ledgers.core.roles import Role
from ledgers.core.services import establishment_setting_change
from ledgers.registers.models import Register
from tests.factories import open_register


def text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


@pytest.fixture
def mc_main(mc):
    return open_register(mc, "main_courante")


@pytest.fixture
def fr_main(fr):
    return open_register(fr, "main_courante")


def last_line(register: Register):
    return register.entries.order_by("-seq").first()


def test_reg_20_a_setting_changed_by_the_director_is_a_line_of_the_main_courante(mc, mc_main, user_in):
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    changed = establishment_setting_change(
        establishment=mc, code="SET-08", value={"blackjack": "5", "roulette": 2}, actor=director
    )
    assert changed.setting("SET-08") == {"blackjack": "5.00", "roulette": "2.00"}
    line = last_line(mc_main)
    assert (line.actor_user, line.role, line.payload["setting"]) == (director, Role.DIRECTEUR_JEUX, "SET-08")
    assert line.payload["subject"] == "Réglage de l'établissement"
    assert line.payload["text"] == (
        "Mises minimales autorisées par jeu (euros) (SET-08) : Black-jack : 5.00 € ; "
        "Roulette européenne : 2.00 €. Auparavant : non fixé."
    )
    establishment_setting_change(establishment=mc, code="SET-08", value=None, actor=director)
    mc.refresh_from_db()
    assert "SET-08" not in mc.options and mc.setting("SET-08") == {}  # the jurisdiction's default again
    before = "Auparavant : Black-jack : 5.00 € ; Roulette européenne : 2.00 €."
    assert last_line(mc_main).payload["text"].endswith(before)


def test_reg_20_a_setting_of_several_values_keeps_the_default_of_those_left_out(fr, fr_main, user_in):
    director = user_in(fr, Role.DIRECTEUR_RESPONSABLE)
    establishment_setting_change(
        establishment=fr, code="SET-05", value={"destruction_period_days": 45, "issue_lead_minutes": ""}, actor=director
    )
    fr.refresh_from_db()
    assert fr.options["SET-05"] == {"destruction_period_days": 45}
    assert fr.setting("SET-05") == {"issue_lead_minutes": 60, "destruction_period_days": 45}
    establishment_setting_change(
        establishment=fr, code="SET-25", value={"closing": {"soiree": ["03:30", 1]}}, actor=director
    )
    assert "Soirée : 03:30 le lendemain" in last_line(fr_main).payload["text"]


@pytest.mark.parametrize(
    "jurisdiction,allowed,refused",
    [("MC", Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR), ("FR", Role.DIRECTEUR_RESPONSABLE, Role.COMITE)],
)
def test_only_the_director_changes_a_setting(request, user_in, jurisdiction, allowed, refused):
    est = request.getfixturevalue(jurisdiction.lower())
    open_register(est, "main_courante")
    with pytest.raises(PermissionDenied):
        establishment_setting_change(establishment=est, code="SET-20", value=2, actor=user_in(est, refused))
    establishment_setting_change(establishment=est, code="SET-20", value=2, actor=user_in(est, allowed))
    est.refresh_from_db()
    assert est.setting("SET-20") == 2


@pytest.mark.parametrize(
    "code,value",
    [
        ("SET-99", 1),  # not a setting
        ("SET-04", "general"),  # a Monaco setting
        ("SET-14", {"max_pairs": 3, "reference": "D-1"}),  # set by its own act (the Minister's decision)
        ("SET-08", {"grande_roue": "5"}),  # a game not played in France
        ("SET-08", {"blackjack": "-5"}),
        ("SET-08", ["blackjack"]),
        ("SET-19", "0"),
        ("SET-20", True),
        ("SET-20", "deux"),
        ("SET-05", {"destruction_period_days": 0}),
        ("SET-05", {"scj_notice_minutes": 10}),  # the SCJ is Monaco's
        ("SET-17", "cap_first"),
        ("SET-17", ["cap_last"]),
        ("SET-25", {"closing": {"soiree": ["25:00", 1]}}),
        ("SET-25", {"closing": {"soiree": ["03:00", 2]}}),
        ("SET-25", {"soiree": ["03:00", 1]}),
        ("SET-42", {"bbj_final_stop_hours": -1}),
    ],
)
def test_a_value_not_of_the_settings_make_is_bad_input_and_changes_nothing(fr, fr_main, user_in, code, value):
    director = user_in(fr, Role.DIRECTEUR_RESPONSABLE)
    with pytest.raises(ValidationError):
        establishment_setting_change(establishment=fr, code=code, value=value, actor=director)
    fr.refresh_from_db()
    assert fr.options == {} and fr_main.entries.count() == 1


def test_a_value_the_establishment_already_has_writes_nothing(fr, fr_main, user_in):
    director = user_in(fr, Role.DIRECTEUR_RESPONSABLE)
    establishment_setting_change(establishment=fr, code="SET-13", value="same_table", actor=director)
    with pytest.raises(ValidationError):
        establishment_setting_change(establishment=fr, code="SET-13", value="same_table", actor=director)
    assert fr_main.entries.count() == 2


def test_reg_20_no_setting_changes_without_a_main_courante_in_service(fr, user_in):
    """A change no register can keep is refused, and nothing changes (the act and its line are one)."""
    with pytest.raises(RuleViolation) as refused:
        establishment_setting_change(
            establishment=fr, code="SET-20", value=2, actor=user_in(fr, Role.DIRECTEUR_RESPONSABLE)
        )
    assert refused.value.code == "REG-20"
    fr.refresh_from_db()
    assert fr.options == {}


def test_every_setting_reads_in_words_in_both_jurisdictions(mc, fr):
    for est in (mc, fr):
        for setting in settings_of(est):
            assert setting.describe(est.setting(setting.code), est)
            assert est.jurisdiction in setting.jurisdictions
    assert {s.code for s in settings_of(fr)} & {"SET-04", "SET-06", "SET-23"} == set()
    assert all(code.startswith("SET-") for code in SETTINGS)


# The API ----------------------------------------------------------------------------------------


def test_settings_read_and_changed_through_the_api(fr, fr_main, user_in):
    director = user_in(fr, Role.DIRECTEUR_RESPONSABLE)
    api = APIClient()
    api.force_authenticate(director)
    listed = api.get("/api/v1/establishment/settings/").json()
    assert [s["code"] for s in listed] == [s.code for s in settings_of(fr)]
    cap = next(s for s in listed if s["code"] == "SET-42")
    assert (
        cap["label"] == "Délais dans lesquels le ministre de l'intérieur est informé avant l'acte"
        and cap["value"] is None
    )
    answer = api.post(
        "/api/v1/establishment/settings/", {"code": "SET-42", "value": {"progressive_notice_days": 20}}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["value"] == {"progressive_notice_days": 20}
    assert answer.json()["text"] == "Dans les jours qui précèdent l'arrêt ou le transfert d'un progressif : 20"
    assert last_line(fr_main).payload["setting"] == "SET-42"
    bad = api.post("/api/v1/establishment/settings/", {"code": "SET-14", "value": {"max_pairs": 2}}, format="json")
    assert bad.status_code == 400
    comite = APIClient()
    comite.force_authenticate(user_in(fr, Role.COMITE))
    refused = comite.post("/api/v1/establishment/settings/", {"code": "SET-20", "value": 3}, format="json")
    assert refused.status_code == 403


# The set-up pages -------------------------------------------------------------------------------


def test_the_settings_page_reads_each_setting_in_words(client, mc, mc_main, user_in, django_assert_max_num_queries):
    client.force_login(user_in(mc, Role.DIRECTEUR_JEUX))
    with django_assert_max_num_queries(12):
        page = client.get(reverse("establishment-settings"))
    shown = text(page)
    assert "Portée des jeux de cartes prêts à l'emploi" in shown
    assert "Restrictive : punto banco des salons super privés seulement" in shown
    assert "Fixé par : Fixation de la somme mise en banque d'une table (caisse)" in shown
    assert "scj_notice_minutes" not in shown and "restrictive" not in shown.replace("Restrictive", "")
    assert reverse("establishment-setting", args=["SET-04"]) in page.content.decode()
    assert reverse("establishment-setting", args=["SET-06"]) not in page.content.decode()


def test_the_inspecteur_reads_the_settings_and_changes_none(client, mc, mc_main, user_in):
    client.force_login(user_in(mc, Role.INSPECTEUR))
    page = client.get(reverse("establishment-settings"))
    assert page.status_code == 200 and reverse("establishment-setting", args=["SET-04"]) not in page.content.decode()
    refused = client.post(reverse("establishment-setting", args=["SET-04"]), {"value": "general"})
    assert refused.status_code == 403


def test_a_setting_changed_on_its_page(client, mc, mc_main, user_in):
    client.force_login(user_in(mc, Role.DIRECTEUR_JEUX))
    url = reverse("establishment-setting", args=["SET-25"])
    form = client.get(url)
    assert "Soirée : le lendemain" in text(form) and "Heures de fermeture des séances" in text(form)
    answer = client.post(url, {"soiree": "04:00", "soiree__next_day": "on", "matin": ""})
    assert answer.status_code == 302 and answer.url == reverse("establishment-settings")
    mc.refresh_from_db()
    assert mc.setting("SET-25") == {"closing": {"soiree": ["04:00", 1]}}
    assert client.get(reverse("establishment-setting", args=["SET-06"])).status_code == 404


def test_a_setting_of_one_value_emptied_on_its_page_takes_the_default_again(client, mc, mc_main, user_in):
    client.force_login(user_in(mc, Role.DIRECTEUR_JEUX))
    url = reverse("establishment-setting", args=["SET-04"])
    client.post(url, {"value": "general"})
    mc.refresh_from_db()
    assert mc.setting("SET-04") == "general"
    client.post(url, {"value": ""})
    mc.refresh_from_db()
    assert mc.setting("SET-04") == "restrictive" and "SET-04" not in mc.options
