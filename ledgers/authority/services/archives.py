"""REG-43: archives of a closed period and the purge that waits for its term."""

import datetime
import hashlib
import shutil
import tempfile
from functools import partial
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.models import Register
from ledgers.reports.sealing import SealUnavailable, certificate_source

from ..archive import MANIFEST, build_archive
from ..models import (
    PurgeClearance,
    SeasonArchive,
)
from ..retention import period_bounds, policy_for, purge_refusal, retention_end
from .common import logger

ARCHIVERS = (*DIRECTORATE, Role.AGENT_VERIFICATEUR)


@transaction.atomic
def archive_request(*, establishment: Establishment, season: int, actor: AbstractBaseUser) -> SeasonArchive:
    """Ask for the archive of a closed period (built by a background job: ``archive_run``)."""
    require_role(actor, establishment, ARCHIVERS)
    if period_bounds(establishment, season)[1] >= establishment.localtime(timezone.now()).date():
        raise ValidationError({"season": _("Seule une saison close s'archive.")})
    try:
        certificate_source(establishment)
    except SealUnavailable as exc:
        raise ValidationError(str(exc)) from exc
    archive = save_audited(
        SeasonArchive(establishment=establishment, season=season, requested_by=actor), actor=actor, reason="demande"
    )
    from ..tasks import archive_run_task  # the tasks module imports this one

    transaction.on_commit(partial(archive_run_task.delay, archive.pk))
    return archive


def archive_run(*, archive_id: int) -> SeasonArchive | None:
    """Build an archive's files and store them as one zip (the task's work, outside any
    transaction: the registers are read page by page). A finished archive is left as it is."""
    with transaction.atomic():
        archive = SeasonArchive.objects.select_for_update().select_related("establishment").get(pk=archive_id)
        if archive.status in (SeasonArchive.Status.DONE, SeasonArchive.Status.FAILED):
            return None
        archive.status = SeasonArchive.Status.RUNNING
        save_audited(archive, actor=archive.requested_by, reason="début")
    try:
        with tempfile.TemporaryDirectory() as work:
            folder = Path(work) / f"archive-{archive.establishment.code}-{archive.season}"
            manifest = build_archive(archive.establishment, archive.season, folder)
            packed = shutil.make_archive(str(folder), "zip", root_dir=work, base_dir=folder.name)
            with open(packed, "rb") as handle, transaction.atomic():
                archive.file.save(Path(packed).name, File(handle), save=False)
                archive.manifest_sha256 = hashlib.sha256((folder / MANIFEST).read_bytes()).hexdigest()
                archive.registers = {f["register"]: f["head_hash"] for f in manifest["files"] if "head_hash" in f}
                archive.status, archive.finished_at = SeasonArchive.Status.DONE, timezone.now()
                save_audited(archive, actor=archive.requested_by, reason="terminé")
    except Exception as exc:  # a failed archive is recorded on its row for the user, not only logged
        logger.exception("archive %s failed", archive.pk)
        archive.status, archive.error = SeasonArchive.Status.FAILED, str(exc)[:2000]
        archive.finished_at = timezone.now()
        save_audited(archive, actor=archive.requested_by, reason="échec")
    return archive


@transaction.atomic
def register_purge(
    *, register: Register, actor: AbstractBaseUser, today: datetime.date | None = None
) -> PurgeClearance:
    """Clear a register for removal. Refused before the end of its retention term (REG-43: the
    current period and the ten before, without exception), and after it while the register is
    open or has no archive holding its final state. Even then the application deletes nothing:
    its entries are append-only (REG-20); the clearance is what the database owner acts on
    (docs/archive-format.md)."""
    est = register.establishment
    require_role(actor, est, DIRECTORATE)
    today = today or est.localtime(timezone.now()).date()
    article = policy_for(est, register.kind).article
    refusal = purge_refusal(register, today)
    if refusal:
        raise RuleViolation("REG-43", refusal, article=article)
    if register.status != Register.Status.CLOSED:
        raise RuleViolation("REG-43", _("Seul un registre clos peut être purgé."), article=article)
    archive = (
        SeasonArchive.objects.filter(
            establishment=est, status=SeasonArchive.Status.DONE, **{f"registers__{register.number}": register.head_hash}
        )
        .order_by("-finished_at")
        .first()
    )
    if archive is None:
        raise RuleViolation(
            "REG-43",
            _("Aucune archive ne contient le registre %(number)s dans son état final : archivez d'abord la saison.")
            % {"number": register.number},
            article=article,
        )
    clearance = PurgeClearance(
        register=register, archive=archive, retention_end=retention_end(register), cleared_by=actor
    )
    clearance.save()
    return clearance
