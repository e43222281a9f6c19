import datetime

from django.urls import reverse
from django.utils import timezone

from ledgers.incidents.services import incident_close, incident_notify, incident_open
from tests.factories import LocationFactory, open_register


def test_open_incidents_panel_lists_the_missing_informations_for_the_direction(mc, user_in, client):
    open_register(mc, "incidents")
    cartier, director = user_in(mc, "cartier"), user_in(mc, "directeur_jeux")
    incident = incident_open(
        establishment=mc,
        category="card_anomaly",
        description="Carte manquante",
        actor=cartier,
        subjects=[LocationFactory(establishment=mc)],
        found_at=timezone.now() - datetime.timedelta(minutes=10),
    )
    incident_notify(
        incident=incident,
        recipient_role="inspecteur",
        recipient_name="M. Inspecteur",
        channel="phone",
        actor=cartier,
        notified_at=timezone.now() - datetime.timedelta(minutes=1),
    )
    game = incident_open(establishment=mc, category="game", description="Coup contesté", actor=director)
    client.force_login(director)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Incidents ouverts" in page
    assert reverse("incidents:detail", args=[incident.pk]) in page
    assert "Reste à informer avant la clôture : Directeur des jeux, Agent du Service de Contrôle des Jeux" in page
    assert reverse("incidents:detail", args=[game.pk]) in page
    client.force_login(cartier)  # finds incidents, neither decides nor is informed
    assert "Incidents ouverts" not in client.get(reverse("dashboard")).content.decode()


def test_open_incidents_panel_for_the_police_in_france_and_gone_once_closed(fr, user_in, client):
    open_register(fr, "incidents")
    open_register(fr, "informations_autorites")
    director, police = user_in(fr, "directeur_responsable"), user_in(fr, "police")
    incident = incident_open(establishment=fr, category="card_anomaly", description="Carte marquée", actor=director)
    client.force_login(police)
    page = client.get(reverse("dashboard")).content.decode()
    assert reverse("incidents:detail", args=[incident.pk]) in page
    assert "Reste à informer avant la clôture : Fonctionnaire de police des jeux" in page
    incident_notify(
        incident=incident,
        recipient_role="police",
        recipient_name="Cdt Martin",
        channel="phone",
        actor=director,
        notified_at=timezone.now(),
    )
    incident_close(incident=incident, actor=director)
    assert "Incidents ouverts" not in client.get(reverse("dashboard")).content.decode()
