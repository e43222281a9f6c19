"""The blind inventory of the keys through the API, as on its page: every key counted, the
differences kept on the inventory."""

from rest_framework.test import APIClient


def test_blind_inventory_through_the_api(mc_org):
    m = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"], copies=2)
    s = mc_org.key("S-1", "socle", home=mc_org.homes["caisse_centrale"])
    api = APIClient()
    api.force_authenticate(mc_org["directeur_jeux"])
    partial = api.post("/api/v1/keys/inventories/", {"counted": [{"key": m.pk, "copies": 2}]}, format="json")
    assert partial.status_code == 400  # every key is counted
    done = api.post(
        "/api/v1/keys/inventories/",
        {"counted": [{"key": m.pk, "copies": 2}, {"key": s.pk, "copies": 0}]},
        format="json",
    )
    assert done.status_code == 201 and done.json()["differences"] == 1
    assert {line["code"]: line["counted"] for line in done.json()["lines"]} == {"M-1": 2, "S-1": 0}
