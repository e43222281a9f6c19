"""AUTH-06: the approvals each app declares, their validity, the Direction's dashboard."""

import datetime

from django.urls import reverse
from django.utils import timezone

from ledgers.authority import selectors
from ledgers.core.approvals import SOURCES, Approval
from ledgers.custody.domains import get_domain
from ledgers.custody.services import supplier_register
from ledgers.equipment.models import ApprovedModel
from ledgers.equipment.services import approved_model_register
from tests.factories import open_register

TODAY = datetime.date(2026, 6, 1)


def test_auth_06_approval_status():
    def approval(reference="AGR-1", start=None, end=None):
        return Approval(subject="x", reference=reference, issuer="Ministre", valid_from=start, valid_until=end)

    assert approval(reference="").status(TODAY) == "missing"
    assert approval(start=TODAY + datetime.timedelta(days=1)).status(TODAY) == "not_yet"
    assert approval(end=TODAY - datetime.timedelta(days=1)).status(TODAY) == "expired"
    assert approval(end=TODAY + datetime.timedelta(days=30)).status(TODAY) == "expiring"
    assert approval(end=TODAY + datetime.timedelta(days=31)).status(TODAY) == "valid"
    assert approval().status(TODAY) == "valid"


def test_auth_06_custody_and_equipment_declare_their_sources():
    assert {"suppliers", "equipment_models"} <= {source.code for source in SOURCES}


def test_auth_06_overview_and_dashboard_flag_expiring_and_expired(client, fro):
    today, director, minister = timezone.localdate(), fro.directeur_responsable, "Ministre de l'intérieur"
    open_register(fro.est, "materiel_jeu")
    open_register(fro.est, "bons_commande", "cards")  # where a maker and its approval are written
    supplier_register(
        establishment=fro.est,
        domain=get_domain("cards"),
        name="Cartamundi",
        actor=director,
        approval_reference="AGR-C",
        approval_issuer=minister,
        approved_until=today - datetime.timedelta(days=2),
    )
    for kind, maker, name, days in (
        (ApprovedModel.Kind.SHOE, "Cartamundi", "Sabot 6", 10),
        (ApprovedModel.Kind.SHUFFLER, "Shuffle Master", "MD3", 400),
    ):
        approved_model_register(
            establishment=fro.est,
            kind=kind,
            manufacturer=maker,
            name=name,
            actor=director,
            approval_reference=f"AM-{days}",
            approval_issuer=minister,
            approved_until=today + datetime.timedelta(days=days),
        )
    attention = {(approval.subject, status) for _s, approval, status in selectors.approvals_needing_attention(fro.est)}
    assert attention == {("Cartamundi (Cartes)", "expired"), ("Sabot Cartamundi Sabot 6", "expiring")}
    client.force_login(fro.directeur_responsable)
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "Agréments et déclarations" in dashboard and "Sabot Cartamundi Sabot 6" in dashboard
    assert "Mélangeur Shuffle Master MD3" not in dashboard
    page = client.get(reverse("authority:approvals")).content.decode()
    assert "Mélangeur Shuffle Master MD3" in page and "Expiré" in page
    client.force_login(fro.inspecteur)
    assert "Agréments et déclarations" not in client.get(reverse("dashboard")).content.decode()
