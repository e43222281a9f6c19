"""Report jobs: ask for a document, produce it in the background, reuse what is already printed.

A request records a job and enqueues its task when the transaction commits. The task calls
``report_run``, which renders the PDF outside any transaction, writes its progress on the job
row as pages are drawn, and stores the file. A request for a state already printed (same
register head, language and seal; same séance and language) gets the existing file at once, and a
task delivered twice finds its job done and does nothing.

Without the broker (Redis down) a request still records its job: the job stays queued and says
so (``ReportJob.Notice.BROKER_DOWN``) instead of failing the request, and ``report_jobs_recover``
(a periodic task and the ``recover_report_jobs`` command) sends it again. The worker writes a
heartbeat as it renders; a running job whose heartbeat stops has lost its worker: recovery sends
it again, up to ``REPORTS_MAX_ATTEMPTS`` sends, then records it as failed with the reason.
"""

import hashlib
import logging
import tempfile
import time
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from kombu.exceptions import OperationalError as BrokerUnreachable

from ledgers.core.authz import require_role, save_audited
from ledgers.core.models import Seance
from ledgers.registers.models import Register

from .daily import render_daily
from .documents import register_pdf
from .models import ReportJob
from .roles import DAILY_READERS, REGISTER_READERS
from .sealing import SealUnavailable, certificate_source
from .selectors import seances_awaiting_report

logger = logging.getLogger(__name__)

# Errors worth another try later (database restarting, connection dropped): the task retries.
TRANSIENT_ERRORS = (OperationalError, InterfaceError)


def register_fingerprint(*, number: str, head_seq: int, head_hash: str, lang: str, sealed: bool) -> str:
    return _digest("register", number, head_seq, head_hash, lang, sealed)


def daily_fingerprint(*, seance: Seance, lang: str) -> str:
    return _digest("daily", seance.pk, lang)


def _digest(*parts: object) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()


def _language(lang: str) -> str:
    if lang not in dict(settings.LANGUAGES):
        raise ValidationError({"lang": _("Langue inconnue : %(lang)s.") % {"lang": lang}})
    return lang


@transaction.atomic
def report_request_register(
    *, register: Register, actor: AbstractBaseUser, lang: str, sealed: bool = False
) -> ReportJob:
    """Ask for the printed register as it stands now (entries up to its head)."""
    establishment = register.establishment
    require_role(actor, establishment, REGISTER_READERS)
    lang = _language(lang)
    if sealed:
        try:
            certificate_source(establishment)
        except SealUnavailable as exc:
            raise ValidationError({"sealed": str(exc)}) from exc
    head_seq, head_hash = Register.objects.filter(pk=register.pk).values_list("head_seq", "head_hash").get()
    job = ReportJob(
        kind=ReportJob.Kind.REGISTER,
        establishment=establishment,
        register=register,
        requested_by=actor,
        parameters={"lang": lang, "sealed": sealed},
        fingerprint=register_fingerprint(
            number=register.number, head_seq=head_seq, head_hash=head_hash, lang=lang, sealed=sealed
        ),
    )
    return _request(job, actor=actor)


@transaction.atomic
def report_request_daily(*, seance: Seance, actor: AbstractBaseUser, lang: str) -> ReportJob:
    """Ask for the report of a closed séance."""
    require_role(actor, seance.establishment, DAILY_READERS)
    return _request(_daily_job(seance, lang=_language(lang), actor=actor), actor=actor)


@transaction.atomic
def daily_reports_schedule() -> list[ReportJob]:
    """The periodic task's work: a report for every séance closed since the last run (every
    closed séance with no report yet), in the default language."""
    jobs = []
    for seance in seances_awaiting_report():
        seance = Seance.objects.select_for_update().get(pk=seance.pk)  # one job per séance, even if runs overlap
        if not seance.report_jobs.filter(kind=ReportJob.Kind.DAILY).exists():
            jobs.append(_request(_daily_job(seance, lang=settings.LANGUAGE_CODE, actor=None), actor=None))
    return jobs


def _daily_job(seance: Seance, *, lang: str, actor: AbstractBaseUser | None) -> ReportJob:
    if seance.status != Seance.Status.CLOSED:
        raise ValidationError(_("Le rapport de séance s'établit une fois la séance clôturée."))
    return ReportJob(
        kind=ReportJob.Kind.DAILY,
        establishment=seance.establishment,
        seance=seance,
        requested_by=actor,
        parameters={"lang": lang},
        fingerprint=daily_fingerprint(seance=seance, lang=lang),
    )


def _request(job: ReportJob, *, actor: AbstractBaseUser | None) -> ReportJob:
    printed = _printed(job.fingerprint)
    if printed is not None:
        job.status, job.progress, job.file = ReportJob.Status.DONE, 100, printed.file.name
        job.started_at = job.finished_at = timezone.now()
        return save_audited(job, actor=actor, reason="état déjà imprimé : fichier réutilisé")
    save_audited(job, actor=actor, reason="demande")
    transaction.on_commit(partial(report_send, job.pk))
    return job


def report_send(job_id: int) -> bool:
    """Hand a queued job to the broker. When the broker is unreachable the job stays queued with
    a notice for the user, and recovery sends it later: the request that recorded it never fails
    for it (this runs once that request has committed)."""
    from .tasks import report_run_task  # the tasks module imports this one

    try:
        report_run_task.apply_async((job_id,), retry=False)
    except (BrokerUnreachable, OSError):
        logger.warning("report job %s: broker unreachable, left queued", job_id, exc_info=True)
        ReportJob.objects.filter(pk=job_id, status=ReportJob.Status.QUEUED).update(notice=ReportJob.Notice.BROKER_DOWN)
        return False
    ReportJob.objects.filter(pk=job_id).update(sent_at=timezone.now(), attempts=F("attempts") + 1)
    ReportJob.objects.filter(pk=job_id, notice=ReportJob.Notice.BROKER_DOWN).update(notice="")
    return True


def report_jobs_recover(*, now: datetime | None = None) -> dict[str, list[int]]:
    """Send again the jobs the broker never got or has held too long, and the running jobs whose
    worker stopped (no heartbeat for ``REPORTS_HEARTBEAT_TIMEOUT_MINUTES``); fail, with the
    reason, those already sent ``REPORTS_MAX_ATTEMPTS`` times."""
    now = now or timezone.now()
    stale = now - timedelta(minutes=settings.REPORTS_HEARTBEAT_TIMEOUT_MINUTES)
    done: dict[str, list[int]] = {"resent": [], "failed": []}
    silent = ReportJob.objects.filter(status=ReportJob.Status.RUNNING).filter(
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, started_at__lt=stale)
    )
    for pk in silent.values_list("pk", flat=True):
        outcome = _stopped(pk, stale=stale, now=now)
        if outcome:
            done[outcome].append(pk)
    unsent = Q(sent_at__isnull=True, created_at__lt=now - timedelta(minutes=1))  # never reached the broker
    waited = Q(sent_at__lt=now - timedelta(minutes=settings.REPORTS_QUEUED_RESEND_MINUTES))
    queued = ReportJob.objects.filter(unsent | waited, status=ReportJob.Status.QUEUED).exclude(pk__in=done["resent"])
    for pk in queued.values_list("pk", flat=True):
        if report_send(pk):
            done["resent"].append(pk)
    return done


@transaction.atomic
def _stopped(pk: int, *, stale: datetime, now: datetime) -> str:
    """A running job without heartbeat: queued again and re-sent, or failed after the last send."""
    job = ReportJob.objects.select_for_update().get(pk=pk)
    last_sign = job.heartbeat_at or job.started_at
    if job.status != ReportJob.Status.RUNNING or last_sign is None or last_sign >= stale:
        return ""  # it moved meanwhile
    if job.attempts >= settings.REPORTS_MAX_ATTEMPTS:
        job.status, job.finished_at = ReportJob.Status.FAILED, now
        job.error = str(
            _(
                "Le service d'impression s'est arrêté pendant ce travail (aucun signe de vie depuis le "
                "%(since)s), après %(n)s envois : demandez à nouveau le document."
            )
            % {"since": timezone.localtime(last_sign).strftime("%d/%m/%Y %H:%M"), "n": job.attempts}
        )
        save_audited(job, actor=None, reason="sans signe de vie : échec")
        return "failed"
    job.status, job.progress, job.notice, job.heartbeat_at = ReportJob.Status.QUEUED, 0, ReportJob.Notice.RESENT, None
    save_audited(job, actor=None, reason="sans signe de vie : relancé")
    transaction.on_commit(partial(report_send, job.pk))
    return "resent"


def _printed(fingerprint: str) -> ReportJob | None:
    return (
        ReportJob.objects.filter(fingerprint=fingerprint, status=ReportJob.Status.DONE)
        .exclude(file="")
        .order_by("-finished_at", "-pk")
        .first()
    )


def report_run(*, job_id: int, final_attempt: bool = True) -> ReportJob | None:
    """Produce a job's file (the task's work). Not one transaction: the rendering reads the
    database page by page and writes its progress as it goes; each change of status is its own
    short transaction. A job already finished is left as it is (a task delivered twice)."""
    job = _start(job_id)
    if job is None:
        return None
    try:
        _produce(job)
    except TRANSIENT_ERRORS:
        if not final_attempt:
            raise  # the task retries later; the job stays "running" until then
        _fail(job, str(_("La base de données est restée indisponible.")))
    except Exception as exc:  # a failed report is recorded on its job for the user, not only logged
        logger.exception("report job %s failed", job.pk)
        _fail(job, str(exc) or exc.__class__.__name__)
    job.refresh_from_db()
    return job


@transaction.atomic
def _start(job_id: int) -> ReportJob | None:
    job = ReportJob.objects.select_for_update().filter(pk=job_id).first()
    if job is None or job.status in (ReportJob.Status.DONE, ReportJob.Status.FAILED):
        return None
    job.status, job.error = ReportJob.Status.RUNNING, ""
    job.started_at = job.heartbeat_at = timezone.now()
    return save_audited(job, actor=job.requested_by, reason="début")


def _produce(job: ReportJob) -> None:
    printed = _printed(job.fingerprint)  # an identical request finished in the meantime
    if printed is not None:
        _finish(job, fingerprint=job.fingerprint, stored=printed.file.name)
        return
    lang = job.parameters.get("lang", settings.LANGUAGE_CODE)
    progress = _progress_writer(job.pk)
    with tempfile.TemporaryFile() as out:
        if job.kind == ReportJob.Kind.REGISTER:
            register = Register.objects.select_related("establishment").get(pk=job.register_id)
            sealed = bool(job.parameters.get("sealed"))
            rendered = register_pdf(register, out, lang=lang, sealed=sealed, progress=progress, actor=job.requested_by)
            # The register may have moved since the request: the fingerprint is the state printed.
            fingerprint = register_fingerprint(
                number=register.number,
                head_seq=rendered.head_seq,
                head_hash=rendered.head_hash,
                lang=lang,
                sealed=sealed,
            )
            name = f"registre-{register.number}-{rendered.head_seq}-{lang}{'-scelle' if sealed else ''}.pdf"
        else:
            seance = Seance.objects.select_related("establishment").get(pk=job.seance_id)
            render_daily(seance, out, lang=lang, progress=progress)
            fingerprint = job.fingerprint
            name = f"seance-{seance.establishment.code}-{seance.date:%Y%m%d}-{seance.period}-{lang}.pdf"
        out.seek(0)
        _finish(job, fingerprint=fingerprint, content=File(out, name=name))


HEARTBEAT_SECONDS = 30


def _progress_writer(pk: int):
    """Progress and heartbeat go straight to the job row (operational state, no history): when
    the percentage changes, or every ``HEARTBEAT_SECONDS`` while it does not."""
    last, beat = -1, 0.0

    def write(percent: int) -> None:
        nonlocal last, beat
        percent = min(percent, 99)  # 100 when the file is stored
        if percent != last or time.monotonic() - beat >= HEARTBEAT_SECONDS:
            ReportJob.objects.filter(pk=pk).update(progress=percent, heartbeat_at=timezone.now())
            last, beat = percent, time.monotonic()

    return write


@transaction.atomic
def _finish(job: ReportJob, *, fingerprint: str, content: File | None = None, stored: str = "") -> None:
    job = ReportJob.objects.select_for_update().get(pk=job.pk)
    if content is not None:
        job.file.save(content.name, content, save=False)
    else:
        job.file.name = stored
    job.status, job.progress, job.fingerprint = ReportJob.Status.DONE, 100, fingerprint
    job.finished_at = timezone.now()
    save_audited(job, actor=job.requested_by, reason="terminé")


@transaction.atomic
def _fail(job: ReportJob, error: str) -> None:
    job = ReportJob.objects.select_for_update().get(pk=job.pk)
    job.status, job.error, job.finished_at = ReportJob.Status.FAILED, error[:2000], timezone.now()
    save_audited(job, actor=job.requested_by, reason="échec")
