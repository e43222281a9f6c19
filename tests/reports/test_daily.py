import datetime
import io

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError

from casino_compliance.celery import app
from ledgers.core.services import seance_close, seance_open
from ledgers.incidents.services import incident_open
from ledgers.registers import services as registers
from ledgers.reports import sections
from ledgers.reports.daily import render_daily
from ledgers.reports.models import ReportJob
from ledgers.reports.services import daily_reports_schedule, report_request_daily
from tests.factories import make_user, open_register
from tests.registers.printed import page_texts


@pytest.fixture
def day(mc):
    """A séance during which the main courante records two facts after the séance's own opening
    line; the register was opened before."""
    register = open_register(mc, "main_courante")
    director = make_user(mc, "directeur_jeux")
    seance = seance_open(establishment=mc, date=datetime.date(2026, 3, 14), period="soiree", actor=director)
    inspector = make_user(mc, "inspecteur")
    for text in ("Ouverture de la table n° 3 ; fonds de 15 000 €.", "Fermeture de la table n° 3."):
        registers.entry_append(
            register=register, actor=inspector, role="inspecteur", payload={"subject": "Table", "text": text}
        )
    return seance, register, director


def report(seance, lang="fr") -> str:
    out = io.BytesIO()
    render_daily(seance, out, lang=lang)
    return "\n".join(page_texts(out.getvalue()))


def test_daily_report_prints_each_register_s_entries_of_the_seance(day):
    seance, register, director = day
    seance = seance_close(seance=seance, actor=director)
    text = report(seance)
    assert "Rapport de la séance du 14/03/2026 — Soirée" in text
    assert f"Registre n° {register.number} — {register.title} : 3 inscription(s)" in text
    assert "Ouverture de la séance du 14/03/2026" in text
    assert "Ouverture de la table n° 3 ; fonds de 15 000 €." in text
    assert "Acte d'ouverture" not in text  # recorded before the séance opened
    assert "Page 1 / 1" in text


def test_daily_report_lists_visas_pending_and_open_incidents(day, mc):
    seance, register, director = day
    open_register(mc, "incidents")
    incident_open(
        establishment=mc,
        category="game",
        description="Contestation d'un coup à la table n° 3",
        actor=make_user(mc, "inspecteur"),
    )
    seance = seance_close(seance=seance, actor=director)
    text = report(seance)
    assert "Visas en attente" in text
    assert f"{register.number}\n" in text.split("Visas en attente", 1)[1]
    assert "Incidents ouverts" in text and "Contestation d'un coup à la table n° 3" in text
    assert "Aucun incident ouvert." not in text


def test_no_open_incident_is_said_by_the_incidents_section(day):
    seance, _, director = day
    assert "Aucun incident ouvert." in report(seance_close(seance=seance, actor=director))


def test_apps_add_their_own_sections(day, monkeypatch):
    seance, _, director = day

    def keys(seance, fmt):
        yield sections.Section("Clés remises", (("Clé", 80.0, 0), ("Remise à", None, 1.0)), [("K-12", "M. Martin")])

    monkeypatch.setattr(sections, "_PROVIDERS", [*sections.daily_sections(), keys])
    text = report(seance_close(seance=seance, actor=director))
    assert "Clés remises" in text and "K-12" in text


def test_daily_report_in_english(day):
    seance, _, director = day
    text = report(seance_close(seance=seance, actor=director), lang="en")
    assert "Report of the session of 14 Mar 2026" in text and "Visas pending" in text


def test_beat_reports_every_closed_seance_once(day, mc, django_capture_on_commit_callbacks):
    seance, _, director = day
    still_open = seance_open(establishment=mc, date=datetime.date(2026, 3, 15), period="soiree", actor=director)
    seance_close(seance=seance, actor=director)
    with django_capture_on_commit_callbacks(execute=True):
        jobs = daily_reports_schedule()
    assert [job.seance for job in jobs] == [seance]
    job = ReportJob.objects.get(seance=seance)
    assert (job.kind, job.status, job.requested_by) == (ReportJob.Kind.DAILY, ReportJob.Status.DONE, None)
    assert "Rapport de la séance du 14/03/2026" in page_texts(job.file.read())[0]
    assert daily_reports_schedule() == []  # already reported
    assert not ReportJob.objects.filter(seance=still_open).exists()


def test_the_beat_schedule_names_a_real_task():
    app.loader.import_default_modules()
    assert settings.CELERY_BEAT_SCHEDULE["daily-seance-reports"]["task"] in app.tasks


def test_a_seance_report_waits_for_the_seance_to_close(day):
    seance, _, director = day
    with pytest.raises(ValidationError):
        report_request_daily(seance=seance, actor=director, lang="fr")
