import datetime

import pytest
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident, open_incidents
from ledgers.incidents.services import incident_close, incident_decide, incident_notify, incident_open
from ledgers.registers.verification import verify_register
from tests.factories import LocationFactory, open_register


@pytest.fixture
def mc_incidents(mc):
    return open_register(mc, "incidents")


@pytest.fixture
def fr_incidents(fr):
    open_register(fr, "informations_autorites")
    return open_register(fr, "incidents")


def _notify(incident, role, actor, minutes_ago=1):
    return incident_notify(
        incident=incident,
        recipient_role=role,
        recipient_name=f"M. {role}",
        channel="phone",
        actor=actor,
        notified_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
    )


def test_inc_02_card_anomaly_needs_the_three_informations_before_closing(mc, mc_incidents, user_in):
    cartier = user_in(mc, "cartier")
    director = user_in(mc, "directeur_jeux")
    depot = LocationFactory(establishment=mc)
    incident = incident_open(
        establishment=mc,
        category="card_anomaly",
        description="Carte manquante au contrôle",
        actor=cartier,
        subjects=[depot],
        found_at=timezone.now() - datetime.timedelta(minutes=10),
    )
    assert incident.requirement == "INC-02"
    assert has_open_incident(depot)
    incident_decide(incident=incident, decision="Jeu retiré et détruit", actor=director)
    _notify(incident, "inspecteur", cartier)
    _notify(incident, "directeur_jeux", cartier)
    with pytest.raises(RuleViolation) as refused:
        incident_close(incident=incident, actor=director)
    assert refused.value.code == "INC-02"
    _notify(incident, "scj", director)
    incident_close(incident=incident, actor=director)
    assert not has_open_incident(depot)
    assert not open_incidents(mc).exists()


@pytest.mark.parametrize("role", ["croupier", "entretien", "inspecteur", "cartier"])
def test_inc_01_inc_02_only_the_direction_des_jeux_records_the_scj_informed(mc, mc_incidents, user_in, role):
    """The direction des jeux informs the SCJ (INC-01; INC-02: the directeur des jeux): the SCJ
    informed, on which the closing depends, is not recorded by anyone else."""
    director = user_in(mc, "directeur_jeux")
    incident = incident_open(establishment=mc, category="game", description="Contestation d'un coup", actor=director)
    with pytest.raises(RuleViolation) as refused:
        _notify(incident, "scj", user_in(mc, role), minutes_ago=0)
    assert refused.value.code == "INC-01"
    assert not incident.notices.exists()
    incident_decide(incident=incident, decision="Coup annulé", actor=director)
    with pytest.raises(RuleViolation):
        incident_close(incident=incident, actor=director)


def test_inc_01_mc_incident_cannot_close_without_decision(mc, mc_incidents, user_in):
    director = user_in(mc, "directeur_jeux")
    incident = incident_open(establishment=mc, category="game", description="Contestation d'un coup", actor=director)
    _notify(incident, "scj", director, minutes_ago=0)
    with pytest.raises(RuleViolation) as refused:
        incident_close(incident=incident, actor=director)
    assert refused.value.code == "INC-01"
    incident_decide(incident=incident, decision="Coup annulé, mises restituées", actor=director)
    incident_close(incident=incident, actor=director)
    with pytest.raises(RuleViolation):
        incident_decide(incident=incident, decision="Autre décision", actor=director)


def test_inc_13_fr_card_anomaly_needs_police_information(fr, fr_incidents, user_in):
    croupier = user_in(fr, "croupier")
    director = user_in(fr, "directeur_responsable")
    incident = incident_open(
        establishment=fr,
        category="card_anomaly",
        description="Carte marquée",
        actor=croupier,
        found_at=timezone.now() - datetime.timedelta(minutes=5),
    )
    assert incident.requirement == "INC-13"
    with pytest.raises(RuleViolation) as refused:
        incident_close(incident=incident, actor=director)
    assert refused.value.code == "INC-13"
    _notify(incident, "police", croupier)
    incident_close(incident=incident, actor=director)
    assert Incident.objects.get(pk=incident.pk).status == Incident.Status.CLOSED


def test_every_incident_step_is_a_register_entry(fr, fr_incidents, user_in):
    croupier = user_in(fr, "croupier")
    director = user_in(fr, "directeur_responsable")
    incident = incident_open(
        establishment=fr,
        category="card_anomaly",
        description="Carte étrangère",
        actor=croupier,
        found_at=timezone.now() - datetime.timedelta(minutes=3),
    )
    _notify(incident, "police", croupier)
    incident_decide(incident=incident, decision="Jeu saisi", actor=director)
    incident_close(incident=incident, actor=director)
    events = [p["event"] for p in fr_incidents.entries.filter(kind="record").values_list("payload", flat=True)]
    assert events == ["Ouverture", "Information", "Décision", "Clôture"]
    assert verify_register(fr_incidents) is None


def test_notice_cannot_precede_the_finding_or_lie_in_the_future(mc, mc_incidents, user_in):
    director = user_in(mc, "directeur_jeux")
    incident = incident_open(establishment=mc, category="game", description="Fait", actor=director)
    with pytest.raises(ValueError):
        _notify(incident, "scj", director, minutes_ago=60)
    with pytest.raises(ValueError):
        _notify(incident, "scj", director, minutes_ago=-60)
    assert not incident.notices.exists()


def test_incident_refused_without_an_open_incident_register(mc, user_in):
    director = user_in(mc, "directeur_jeux")
    with pytest.raises(RuleViolation):
        incident_open(establishment=mc, category="game", description="Fait", actor=director)
    assert not Incident.objects.exists()
