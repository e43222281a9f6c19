"""Card incidents: anomalies reported at once, quarantine, notices before closing (INC-02,
INC-13), custody-check failures (INC-14)."""

import datetime

import pytest
from django.utils import timezone

from ledgers.cards import selectors, services
from ledgers.cards.domains import CARDS
from ledgers.core.errors import RuleViolation
from ledgers.custody import services as custody
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident
from ledgers.incidents.services import incident_close, incident_decide, incident_notify
from tests.cards.conftest import World


def _notify(incident, role, actor):
    incident_notify(
        incident=incident,
        recipient_role=role,
        recipient_name=f"M. {role}",
        channel="phone",
        notified_at=timezone.now(),
        actor=actor,
    )


def test_inc_02_card_anomaly_quarantines_and_needs_inspecteur_directeur_and_scj(mcw: World):
    (a,) = mcw.receive()
    session = mcw.open_table("blackjack", a)
    incident = services.cards_anomaly_report(
        units=[a],
        anomaly="missing",
        cards="Sept de carreau",
        circumstances="Comptée en fin de taille",
        actor=mcw.croupier,
        found_at=timezone.now() - datetime.timedelta(minutes=5),
    )
    assert incident.requirement == "INC-02" and incident.table_session == session
    a.refresh_from_db()
    assert not a.complete and has_open_incident(a)
    assert incident in selectors.card_incidents(mcw.est)
    incident_decide(incident=incident, decision="Sixain retiré ; enquête vidéo", actor=mcw.director)
    _notify(incident, "inspecteur", mcw.croupier)
    _notify(incident, "directeur_jeux", mcw.croupier)
    with pytest.raises(RuleViolation) as refused:
        incident_close(incident=incident, actor=mcw.director)
    assert refused.value.code == "INC-02"
    _notify(incident, "scj", mcw.director)
    incident_close(incident=incident, actor=mcw.director)
    assert not has_open_incident(a)
    entry = mcw.registers["service"].entries.filter(payload__kind="anomaly").get()
    assert entry.payload["result"].endswith(f"incident n° {incident.pk} ouvert (INC-02)")
    assert entry.payload["details"]["incident"] == incident.pk and entry.payload["flags"] == []


def test_inc_13_fr_anomaly_is_reported_to_the_police(frw: World):
    (a,) = frw.receive()
    frw.open_table("blackjack", a)
    services.cards_post_control(
        unit=a,
        actor=frw.croupier,
        complete=True,
        order_restored=True,
        marks_found=True,
        marks_description="Marque au feutre sur le dos des rois",
    )
    incident = Incident.objects.get(subjects__object_id=a.pk)
    assert incident.requirement == "INC-13"
    with pytest.raises(RuleViolation) as refused:
        incident_close(incident=incident, actor=frw.director)
    assert refused.value.code == "INC-13"
    _notify(incident, "police", frw.director)
    incident_close(incident=incident, actor=frw.director)
    assert not has_open_incident(a)


def test_inc_14_broken_seal_failed_destruction_check_and_cabinet_discrepancy(frw: World):
    (a, b, _c) = frw.receive(frw.spec(), frw.spec(), frw.spec())
    session = frw.session()
    frw.issue(session, a)
    services.cards_unseal(unit=a, actor=frw.croupier, seal_intact=False, video_camera="CAM-1", video_reference="R-9")
    services.cards_withdraw(units=[b], status="out_of_use", reason="usé", actor=frw.directeur_responsable)
    destruction = services.cards_destruction_plan(
        establishment=frw.est, units=[b], method="destruction", planned_at=timezone.now(), actor=frw.director
    )
    services.cards_destruction_complete(
        session=destruction,
        actor=frw.director,
        witness=frw.police,
        withheld=[b],
        finding="Jeu incomplet : il manque le deux de trèfle",
    )
    verification = custody.stock_verification_record(
        domain=CARDS,
        establishment=frw.est,
        counted={(frw.depot.pk, "sixain"): 0},
        actor=frw.police,
    )
    requirements = set(Incident.objects.filter(establishment=frw.est).values_list("requirement", flat=True))
    assert requirements == {"INC-14"}
    assert verification.incident is not None and has_open_incident(b) and has_open_incident(a)
    assert Incident.objects.filter(establishment=frw.est).count() == 3


def test_flags_are_recorded_and_listed_as_exceptions(mcw: World):
    """FLAG checks never refuse: the act is recorded with its flag and listed for inspectors."""
    order = mcw.order((("sixain", 2),))
    mcw.receive(mcw.spec(), order=order)  # one of two ordered: CARD-07
    mcw.receive(mcw.spec(serial="", unnumbered=True))  # no order (CARD-03), internal number (CARD-02)
    codes = [f.code for f in selectors.exceptions(mcw.est)]
    assert {"CARD-07", "CARD-03", "CARD-02"} <= set(codes)
    flag = next(f for f in selectors.exceptions(mcw.est) if f.code == "CARD-07")
    assert flag.article == "AM 88-384 art. 1 al. 1"


def test_inc_13_late_police_information_is_flagged(frw: World):
    (a,) = frw.receive()
    found = timezone.now() - datetime.timedelta(hours=3)
    incident = services.cards_anomaly_report(
        units=[a], anomaly="missing", cards="Trois de cœur", circumstances="comptée", actor=frw.croupier, found_at=found
    )
    assert any(f.code == "INC-13" and "non encore informée" in f.text for f in selectors.exceptions(frw.est))
    incident_notify(
        incident=incident,
        recipient_role="police",
        recipient_name="Cne Vidal",
        channel="phone",
        notified_at=found + datetime.timedelta(minutes=20),
        actor=frw.director,
    )
    assert not any(f.code == "INC-13" for f in selectors.exceptions(frw.est))
    frw.est.options = {"card_incident_notice_minutes": 10}
    frw.est.save()
    assert any(f.code == "INC-13" and "20 min" in f.text for f in selectors.exceptions(frw.est))
