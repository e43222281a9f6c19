"""The take-over through the pages (the directorate's menu, a typed or imported inventory with its
preview, the signature, the visa and the posting) and through the API."""

import io

import openpyxl
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.cards.models import CardUnit
from ledgers.registers.navigation import menu_for
from ledgers.takeover import services
from ledgers.takeover.domains import get_domain
from ledgers.takeover.models import Inventory
from ledgers.takeover.spreadsheet import rows_as_text
from tests.factories import DEFAULT_PASSWORD

from .test_cards import PAPER, verify_ledgers_ok

pytestmark = pytest.mark.django_db


def xlsx(rows: list[dict]) -> io.BytesIO:
    book = openpyxl.Workbook()
    sheet = book.active
    names = [name for name, _label, _help in get_domain("cards").columns]
    sheet.append(names)
    for row in rows:
        sheet.append([int(row[n]) if n == "page" else row.get(n, "") for n in names])
    out = io.BytesIO()
    book.save(out)
    out.seek(0)
    out.name = "reprise.xlsx"
    return out


def test_the_directorates_menu_leads_to_the_take_over(house_mc):
    urls = [item.url for item in menu_for({"directeur_jeux"}, "MC")]
    assert reverse("takeover:list") in urls


def test_mc_pages_preview_import_sign_post(client, house_mc):
    h = house_mc
    client.force_login(h.director)
    listed = client.get(reverse("takeover:list"))
    assert listed.status_code == 200 and "coter et parapher" not in listed.content.decode()
    assert client.get(reverse("takeover:create")).status_code == 200
    bad = rows_as_text(get_domain("cards"), [h.sixain("S1"), h.sixain("S1", page=13)])
    page = client.post(
        reverse("takeover:create"),
        {"domain": "cards", "paper_register": PAPER, "lines": bad, "preview": "1"},
    )
    assert page.status_code == 200
    assert "« serial »" in page.content.decode() and "CARD-02" in page.content.decode()
    refused = client.post(reverse("takeover:create"), {"domain": "cards", "paper_register": PAPER, "lines": bad})
    assert refused.status_code == 200 and "Ligne 2, colonne « serial »" in refused.content.decode()
    assert not Inventory.objects.exists()
    done = client.post(
        reverse("takeover:create"),
        {"domain": "cards", "paper_register": PAPER, "spreadsheet": xlsx([h.sixain("S1"), h.sixain("S2", page=13)])},
    )
    inventory = Inventory.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse("takeover:inventory", args=[inventory.pk])
    assert [row["serial"] for row in inventory.rows] == ["S1", "S2"] and inventory.rows[1]["page"] == "13"
    assert client.get(done["Location"]).status_code == 200
    # The signature page shows the lines it signs, each value under its column's name.
    signing = client.get(reverse("takeover:sign", args=[inventory.pk])).content.decode()
    assert 'data-label="Numéro d&#x27;ordre">S2</td>' in signing
    wrong = client.post(reverse("takeover:sign", args=[inventory.pk]), {"confirm": "on", "password": "x"})
    assert wrong.status_code == 200
    inventory.refresh_from_db()
    assert inventory.status == "draft"
    signed = client.post(reverse("takeover:sign", args=[inventory.pk]), {"confirm": "on", "password": DEFAULT_PASSWORD})
    assert signed.status_code == 302
    posted = client.post(reverse("takeover:post", args=[inventory.pk]), {"confirm": "on"})
    assert posted.status_code == 302
    assert CardUnit.objects.filter(establishment=h.est, parent__isnull=True).count() == 2
    verify_ledgers_ok()


def test_fr_api_preview_create_sign_visa_post(house_fr):
    h = house_fr
    api = APIClient()
    api.force_authenticate(h.cartier)
    body = {
        "domain": "cards",
        "paper_register": PAPER,
        "rows": [h.sixain("F1"), {**h.sixain("F2"), "unit_type": "huitain"}],
    }
    preview = api.post("/api/v1/takeover/inventories/preview/", body, format="json")
    assert preview.status_code == 200
    assert preview.json()["problems"] == [
        {"row": 2, "field": "unit_type", "message": preview.json()["problems"][0]["message"], "code": "CARD-25"}
    ]
    assert api.post("/api/v1/takeover/inventories/new/", body, format="json").status_code == 400
    body["rows"] = body["rows"][:1]
    created = api.post("/api/v1/takeover/inventories/new/", body, format="json")
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    api.force_authenticate(h.director)
    assert api.post(f"/api/v1/takeover/inventories/{pk}/sign/", {"password": "x"}, format="json").status_code == 400
    assert api.post(f"/api/v1/takeover/inventories/{pk}/sign/", {"password": DEFAULT_PASSWORD}).status_code == 201
    early = api.post(f"/api/v1/takeover/inventories/{pk}/post/")
    assert early.status_code == 409 and early.json()["code"] == "CARD-27"
    api.force_authenticate(h.authority)
    visa = api.post(f"/api/v1/takeover/inventories/{pk}/visa/", {"password": DEFAULT_PASSWORD, "statement": "Vu"})
    assert visa.status_code == 201 and visa.json()["status"] == "visaed"
    api.force_authenticate(h.director)
    assert api.post(f"/api/v1/takeover/inventories/{pk}/post/").json()["status"] == "posted"
    assert [i["id"] for i in api.get("/api/v1/takeover/inventories/").json()["results"]] == [pk]
    assert CardUnit.objects.get(serial="F1").status == "in_stock"
    verify_ledgers_ok()


def test_card_27_the_home_offers_each_inventory_to_whom_acts_next(client, house_fr):
    h = house_fr
    inventory = services.takeover_prepare(
        establishment=h.est, domain="cards", paper_register=PAPER, rows=[h.sixain("S1")], actor=h.cartier
    )
    sign, visa, post = (reverse(f"takeover:{act}", args=[inventory.pk]) for act in ("sign", "visa", "post"))
    client.force_login(h.director)
    assert sign in client.get("/").content.decode()
    services.takeover_sign(inventory=inventory, actor=h.director)
    assert post not in client.get("/").content.decode()  # the police's visa comes first (CARD-27)
    client.force_login(h.authority)
    assert visa in client.get("/").content.decode()
    services.takeover_visa(inventory=inventory, actor=h.authority, statement="Vu")
    assert visa not in client.get("/").content.decode()
    client.force_login(h.director)
    assert post in client.get("/").content.decode()
    services.takeover_post(inventory=inventory, actor=h.director)
    assert "Inventaires de reprise en attente" not in client.get("/").content.decode()
