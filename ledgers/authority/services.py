"""Writes of the authorities' registers and records. Every service checks who acts, applies the
texts' rules, saves with its history row and appends its register entry in one transaction."""

import datetime
import hashlib
import logging
import shutil
import tempfile
from collections.abc import Iterable
from decimal import Decimal
from functools import partial
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.notifications.models import NoticeKind
from ledgers.notifications.services import notice_send
from ledgers.registers.models import Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language
from ledgers.reports.sealing import SealUnavailable, certificate_source
from ledgers.slots.models import Machine

from . import displays, selectors
from .archive import MANIFEST, build_archive
from .models import (
    ApprovedBanker,
    CalledBet,
    Declaration,
    DisplayItem,
    HouseOption,
    HouseRulesVersion,
    LiaisonQuestion,
    Observation,
    ProgressiveConfig,
    ProgressivePayout,
    ProgressiveReading,
    PurgeClearance,
    RulesDisplay,
    SeasonArchive,
    TableOptionChange,
)
from .registers import (
    BANKERS,
    CALLED_BETS,
    DECLARATIONS,
    DISPLAYS,
    HOUSE_RULES,
    LIAISON,
    OBSERVATION_WRITERS,
    OBSERVATIONS,
    SPLIT_ACES,
)
from .retention import period_bounds, policy_for, purge_refusal, retention_end

logger = logging.getLogger(__name__)


def require_role_by_text(
    actor: AbstractBaseUser, establishment: Establishment, allowed: Iterable[str], code: str, message: str | Promise
) -> str:
    """The first of ``allowed`` the actor holds here; otherwise the text that reserves the act to
    those roles refuses it (RuleViolation ``code``), rather than a bare permission error."""
    held = roles_of(actor, establishment)
    for role in allowed:
        if role in held:
            return str(role)
    raise RuleViolation(code, message)


def _require_fr(establishment: Establishment, what: str | Promise) -> None:
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("%(what)s n'est tenu que dans les casinos français.") % {"what": what})


def _required(**texts: str) -> dict[str, str]:
    cleaned = {name: (value or "").strip() for name, value in texts.items()}
    missing = {name: _("Ce champ est obligatoire.") for name, value in cleaned.items() if not value}
    if missing:
        raise ValidationError(missing)
    return cleaned


def _local(establishment: Establishment, moment: datetime.datetime) -> str:
    return establishment.localtime(moment).strftime("%Y-%m-%d %H:%M")


def follow_up_days(establishment: Establishment) -> int:
    return int((establishment.setting("SET-41") or {}).get("days", 8))


# --- REG-44: registre spécial d'observations ---------------------------------------------------


@transaction.atomic
def observation_record(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    visited_at: datetime.datetime,
    agents: str,
    operations: str,
    nature: str,
    text: str = "",
) -> Observation:
    """A verification visit written by a police surveillance agent: day and time, the nature of
    the operations, and any observations, instructions or injunctions (art. 92). Those call for a
    follow-up by the directeur responsable within SET-41 days."""
    _require_fr(establishment, OBSERVATIONS.title)
    role = require_role_by_text(
        actor,
        establishment,
        OBSERVATION_WRITERS,
        "REG-44",
        _(
            "Seuls les agents chargés de la surveillance inscrivent leurs visites et observations au registre spécial "
            "d'observations."
        ),
    )
    fields = _required(agents=agents, operations=operations)
    if nature not in Observation.Nature.values:
        raise ValidationError({"nature": _("Nature inconnue.")})
    text = text.strip()
    if nature != Observation.Nature.VISIT and not text:
        raise ValidationError({"text": _("Écrivez l'observation, l'instruction ou l'injonction.")})
    if visited_at > timezone.now():
        raise ValidationError({"visited_at": _("La visite ne peut pas être dans le futur.")})
    register = current_register(establishment, OBSERVATIONS.code)
    Establishment.objects.select_for_update().get(pk=establishment.pk)  # one number per observation
    number = Observation.objects.filter(establishment=establishment).count() + 1
    due_on = None
    if nature != Observation.Nature.VISIT:
        due_on = establishment.localtime(visited_at).date() + datetime.timedelta(days=follow_up_days(establishment))
    with register_language():
        payload = {
            "observation": number,
            "event": "observation",
            "visited_at": _local(establishment, visited_at),
            "agents": fields["agents"],
            "operations": fields["operations"],
            "nature": str(Observation.Nature(nature).label),
            "text": text,
            "follow_up_due": due_on.isoformat() if due_on else None,
            "signed_by": display_name(actor),
        }
    entry = entry_append(register=register, actor=actor, role=role, payload=payload)
    observation = Observation(
        establishment=establishment,
        register=register,
        number=number,
        visited_at=visited_at,
        agents=fields["agents"],
        operations=fields["operations"],
        nature=nature,
        text=text,
        written_by=actor,
        entry_seq=entry.seq,
        due_on=due_on,
    )
    return save_audited(observation, actor=actor, reason="inscription")


@transaction.atomic
def observation_follow_up(*, observation: Observation, actor: AbstractBaseUser, text: str) -> Observation:
    """The follow-up the directeur responsable (or a replacement allowed by SET-41) gives to an
    observation, written opposite it. Late ones are accepted and flagged (REG-44)."""
    observation = Observation.objects.select_for_update().select_related("establishment").get(pk=observation.pk)
    est = observation.establishment
    allowed = (Role.DIRECTEUR_RESPONSABLE, *((est.setting("SET-41") or {}).get("replacements") or ()))
    role = require_role_by_text(
        actor,
        est,
        allowed,
        "REG-44",
        _("La suite réservée aux observations est mentionnée par le directeur responsable."),
    )
    if observation.due_on is None:
        raise ValidationError(_("Cette visite ne comporte aucune observation appelant une suite."))
    if observation.follow_up_seq:
        raise RuleViolation(
            "REG-44",
            _("La suite de l'observation n° %(n)s est déjà inscrite et signée : elle ne se modifie plus.")
            % {"n": observation.number},
        )
    fields = _required(text=text)
    now = timezone.now()
    late = est.localtime(now).date() > observation.due_on
    with register_language():
        payload = {
            "observation": observation.number,
            "event": "suite",
            "refers_to_seq": observation.entry_seq,
            "follow_up": fields["text"],
            "late": late,
            "signed_by": display_name(actor),
            "flags": [
                {
                    "code": "REG-44",
                    "text": str(
                        _("Suite mentionnée après le délai de %(days)s jours.") % {"days": follow_up_days(est)}
                    ),
                }
            ]
            if late
            else [],
        }
    entry = entry_append(register=observation.register, actor=actor, role=role, payload=payload)
    observation.follow_up, observation.follow_up_by, observation.follow_up_at = fields["text"], actor, now
    observation.follow_up_seq = entry.seq
    return save_audited(observation, actor=actor, reason="suite réservée")


# --- REG-45: registre de liaison -------------------------------------------------------------


@transaction.atomic
def liaison_ask(
    *, establishment: Establishment, actor: AbstractBaseUser, subject: str, question: str
) -> LiaisonQuestion:
    """The directeur responsable asks the territorial DCPJ service (art. 92-1)."""
    _require_fr(establishment, LIAISON.title)
    role = require_role_by_text(
        actor,
        establishment,
        (Role.DIRECTEUR_RESPONSABLE,),
        "REG-45",
        _("Seul le directeur responsable inscrit des questions au registre de liaison."),
    )
    fields = _required(subject=subject, question=question)
    register = current_register(establishment, LIAISON.code)
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    number = LiaisonQuestion.objects.filter(establishment=establishment).count() + 1
    entry = entry_append(
        register=register,
        actor=actor,
        role=role,
        payload={
            "question": number,
            "event": "question",
            "subject": fields["subject"],
            "text": fields["question"],
            "signed_by": display_name(actor),
        },
    )
    asked = LiaisonQuestion(
        establishment=establishment,
        register=register,
        number=number,
        subject=fields["subject"],
        question=fields["question"],
        asked_by=actor,
        asked_at=timezone.now(),
        question_seq=entry.seq,
    )
    return save_audited(asked, actor=actor, reason="question")


@transaction.atomic
def liaison_answer(*, question: LiaisonQuestion, actor: AbstractBaseUser, answer: str) -> LiaisonQuestion:
    """The service's answer, written in the same register."""
    question = LiaisonQuestion.objects.select_for_update().select_related("establishment").get(pk=question.pk)
    est = question.establishment
    role = require_role_by_text(
        actor,
        est,
        (Role.CHEF_POLICE, Role.POLICE),
        "REG-45",
        _("La réponse au registre de liaison est inscrite par le service de police judiciaire."),
    )
    if question.answer_seq:
        raise RuleViolation(
            "REG-45",
            _("La question n° %(n)s a déjà sa réponse signée : elle ne se modifie plus.") % {"n": question.number},
        )
    fields = _required(answer=answer)
    entry = entry_append(
        register=question.register,
        actor=actor,
        role=role,
        payload={
            "question": question.number,
            "event": "réponse",
            "refers_to_seq": question.question_seq,
            "subject": question.subject,
            "text": fields["answer"],
            "signed_by": display_name(actor),
        },
    )
    question.answer, question.answered_by, question.answered_at = fields["answer"], actor, timezone.now()
    question.answer_seq = entry.seq
    return save_audited(question, actor=actor, reason="réponse")


# --- REG-43: archives of a closed period and the purge that waits for its term -------------------

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
    from .tasks import archive_run_task  # the tasks module imports this one

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


# --- AUTH-01, AUTH-02: prior declarations ------------------------------------------------------


@transaction.atomic
def declaration_record(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    operation: str,
    details: str,
    sent_on: datetime.date,
    recipients: Iterable[str],
    proof: str,
    implementation_date: datetime.date,
    tournament_until: datetime.date | None = None,
) -> Declaration:
    """A detailed prior declaration, sent to the three recipients at least SET-28 days before the
    implementation date it states (003 art. 7, 9 bis)."""
    _require_fr(establishment, DECLARATIONS.title)
    role = require_role_by_text(
        actor,
        establishment,
        (Role.DIRECTEUR_RESPONSABLE,),
        "AUTH-01",
        _("Les déclarations préalables sont faites par le directeur responsable."),
    )
    if operation not in Declaration.Operation.values:
        raise ValidationError({"operation": _("Opération inconnue.")})
    fields = _required(details=details, proof=proof)
    if sent_on > establishment.localtime(timezone.now()).date():
        raise ValidationError({"sent_on": _("La date d'envoi ne peut pas être dans le futur.")})
    missing = [str(label) for code, label in Declaration.Recipient.choices if code not in set(recipients)]
    if missing:
        raise RuleViolation(
            "AUTH-01",
            _("La déclaration est adressée aux trois destinataires ; manque : %(who)s.") % {"who": ", ".join(missing)},
        )
    days = int(establishment.setting("SET-28")["days"])
    if implementation_date < sent_on + datetime.timedelta(days=days):
        raise RuleViolation(
            "AUTH-01",
            _(
                "La déclaration doit être envoyée %(days)s jours au moins avant la mise en œuvre : "
                "envoyée le %(sent)s, "
                "mise en œuvre au plus tôt le %(earliest)s."
            )
            % {
                "days": days,
                "sent": sent_on.strftime("%d/%m/%Y"),
                "earliest": (sent_on + datetime.timedelta(days=days)).strftime("%d/%m/%Y"),
            },
        )
    if operation == Declaration.Operation.POKER_TOURNAMENT:
        if tournament_until is None or tournament_until < implementation_date:
            raise ValidationError({"tournament_until": _("Indiquez la fin du tournoi déclaré (après son début).")})
    else:
        tournament_until = None
    register = current_register(establishment, DECLARATIONS.code)
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    number = Declaration.objects.filter(establishment=establishment).count() + 1
    with register_language():
        payload = {
            "declaration": number,
            "event": "déclaration",
            "operation": str(Declaration.Operation(operation).label),
            "details": fields["details"],
            "sent_on": sent_on.isoformat(),
            "recipients": [str(label) for _code, label in Declaration.Recipient.choices],
            "proof": fields["proof"],
            "implementation_date": implementation_date.isoformat(),
            "tournament_until": tournament_until.isoformat() if tournament_until else None,
            "signed_by": display_name(actor),
        }
    entry = entry_append(register=register, actor=actor, role=role, payload=payload)
    declaration = Declaration(
        establishment=establishment,
        register=register,
        number=number,
        operation=operation,
        details=fields["details"],
        sent_on=sent_on,
        recipients=sorted(set(recipients)),
        proof=fields["proof"],
        implementation_date=implementation_date,
        tournament_until=tournament_until,
        declared_by=actor,
        entry_seq=entry.seq,
    )
    declaration = save_audited(declaration, actor=actor, reason="déclaration")
    # The police in the casino and the territorial service see it at once, by e-mail (AUTH-01).
    notice_send(
        establishment=establishment,
        kind=NoticeKind.DECLARATION,
        register=register,
        subject=str(
            _("Déclaration préalable n° %(n)s — %(operation)s, mise en œuvre le %(date)s")
            % {"n": number, "operation": payload["operation"], "date": implementation_date.strftime("%d/%m/%Y")}
        ),
        body=fields["details"],
        actor=actor,
        role=role,
        roles=(Role.CHEF_POLICE, Role.POLICE),
        about=f"authority.declaration:{declaration.pk}",
    )
    return declaration


@transaction.atomic
def declaration_follow_up(
    *, declaration: Declaration, actor: AbstractBaseUser, follow_up: str, note: str = ""
) -> Declaration:
    """What became of the declaration: the arrêté d'autorisation amended or not (AUTH-02)."""
    declaration = Declaration.objects.select_for_update().select_related("establishment").get(pk=declaration.pk)
    est = declaration.establishment
    role = require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE))
    if follow_up not in Declaration.FollowUp.values or follow_up == Declaration.FollowUp.PENDING:
        raise ValidationError({"follow_up": _("Suite inconnue.")})
    with register_language():
        label = str(Declaration.FollowUp(follow_up).label)
    entry_append(
        register=declaration.register,
        actor=actor,
        role=role,
        payload={
            "declaration": declaration.number,
            "event": "suite",
            "refers_to_seq": declaration.entry_seq,
            "follow_up": label,
            "note": note.strip(),
            "signed_by": display_name(actor),
        },
    )
    declaration.follow_up, declaration.follow_up_note = follow_up, note.strip()
    return save_audited(declaration, actor=actor, reason="suite")


# --- GAME-20, REG-18: complex called bets (Monaco) ----------------------------------------------

BET_WRITERS = (Role.CHEF_TABLE, Role.INSPECTEUR, Role.CROUPIER)
BET_AUTHORISERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)


def _bet_payload(bet: CalledBet, actor: AbstractBaseUser, event: str) -> dict:
    scj = (
        f"{bet.table_session.seance.establishment.localtime(bet.scj_informed_at):%Y-%m-%d %H:%M} ({bet.scj_channel})"
        if bet.scj_informed_at
        else None
    )
    return {
        "bet": bet.number,
        "event": event,
        "table": bet.table_session.table.number,
        "seance": str(bet.table_session.seance),
        "content": bet.content,
        "player": bet.player,
        "inspecteur": display_name(bet.inspecteur),
        "scj": scj,
        "signed_by": display_name(actor),
    }


@transaction.atomic
def called_bet_record(
    *, session: TableSession, actor: AbstractBaseUser, content: str, inspecteur: AbstractBaseUser, player: str = ""
) -> CalledBet:
    """A complex called bet handed in writing at an open table-partie, with the inspecteur present
    (000 art. 8.3)."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    est = session.seance.establishment
    if est.jurisdiction != "MC":
        raise ValidationError(_("Les annonces marquées complexes relèvent de la réglementation monégasque."))
    role = require_role(actor, est, BET_WRITERS)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("La partie de cette table n'est pas ouverte."))
    if Role.INSPECTEUR not in roles_of(inspecteur, est):
        raise RuleViolation(
            "GAME-20",
            _("Une annonce complexe ne se joue qu'en présence d'un inspecteur : %(name)s n'est pas inspecteur ici.")
            % {"name": display_name(inspecteur)},
        )
    fields = _required(content=content)
    register = current_register(est, CALLED_BETS.code)
    number = CalledBet.objects.filter(table_session__seance__establishment=est).count() + 1
    bet = CalledBet(
        table_session=session,
        register=register,
        number=number,
        content=fields["content"],
        player=player.strip(),
        inspecteur=inspecteur,
        written_by=actor,
        handed_at=timezone.now(),
        entry_seq=0,
    )
    bet.entry_seq = entry_append(
        register=register, actor=actor, role=role, payload=_bet_payload(bet, actor, "remise par écrit")
    ).seq
    return save_audited(bet, actor=actor, reason="remise")


@transaction.atomic
def called_bet_authorise(
    *, bet: CalledBet, actor: AbstractBaseUser, scj_informed_at: datetime.datetime | None = None, scj_channel: str = ""
) -> CalledBet:
    """The direction des jeux's visa on the written bet, which authorises it (GAME-20). The SCJ
    must be informed as soon as possible: a visa without that information is flagged."""
    bet = (
        CalledBet.objects.select_for_update()
        .select_related("table_session__seance__establishment", "table_session__table")
        .get(pk=bet.pk)
    )
    est = bet.table_session.seance.establishment
    role = require_role_by_text(
        actor,
        est,
        BET_AUTHORISERS,
        "GAME-20",
        _("Seule la direction des jeux autorise une annonce complexe, en visant l'annonce écrite."),
    )
    if bet.status == CalledBet.Status.AUTHORISED:
        raise RuleViolation("GAME-20", _("Cette annonce est déjà visée."))
    if scj_informed_at is not None and not scj_channel.strip():
        raise ValidationError({"scj_channel": _("Indiquez comment le SCJ a été informé.")})
    bet.status, bet.visa_by, bet.visaed_at = CalledBet.Status.AUTHORISED, actor, timezone.now()
    bet.scj_informed_at, bet.scj_channel = scj_informed_at, scj_channel.strip()
    payload = _bet_payload(bet, actor, "visa de la direction")
    payload["flags"] = (
        []
        if scj_informed_at
        else [{"code": "GAME-20", "text": "Annonce visée sans information du Service de Contrôle des Jeux."}]
    )
    entry_append(register=bet.register, actor=actor, role=role, payload=payload)
    return save_audited(bet, actor=actor, reason="visa")


# --- GAME-07, REG-19: the règlement intérieur and the options it allows ---------------------------


@transaction.atomic
def house_rules_publish(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    effective_from: datetime.date,
    reference: str,
    options: Iterable[str],
) -> HouseRulesVersion:
    """A new version of the posted règlement intérieur, signed by the directeur responsable."""
    _require_fr(establishment, HOUSE_RULES.title)
    role = require_role_by_text(
        actor,
        establishment,
        (Role.DIRECTEUR_RESPONSABLE,),
        "REG-19",
        _("Le règlement intérieur est signé par le directeur responsable."),
    )
    options = sorted(set(options))
    if set(options) - set(HouseOption.values):
        raise ValidationError({"options": _("Option inconnue.")})
    fields = _required(reference=reference)
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    last = HouseRulesVersion.objects.filter(establishment=establishment).order_by("-version").first()
    if last is not None and effective_from <= last.effective_from:
        raise ValidationError(
            {
                "effective_from": _("Une nouvelle version prend effet après la précédente (%(date)s).")
                % {"date": last.effective_from.strftime("%d/%m/%Y")}
            }
        )
    version = (last.version if last else 0) + 1
    register = current_register(establishment, HOUSE_RULES.code)
    with register_language():
        labels = [str(HouseOption(o).label) for o in options]
    entry = entry_append(
        register=register,
        actor=actor,
        role=role,
        payload={
            "version": version,
            "event": "version",
            "effective_from": effective_from.isoformat(),
            "table": None,
            "options": labels,
            "reference": fields["reference"],
            "signed_by": display_name(actor),
        },
    )
    rules = HouseRulesVersion(
        establishment=establishment,
        version=version,
        effective_from=effective_from,
        reference=fields["reference"],
        options=options,
        signed_by=actor,
        entry_seq=entry.seq,
    )
    rules.save()
    return rules


@transaction.atomic
def table_option_set(*, table: GamingTable, option: str, enabled: bool, actor: AbstractBaseUser) -> TableOptionChange:
    """Put a house-rule option in force at a table, or withdraw it. Refused unless the règlement
    intérieur in force writes it (GAME-07)."""
    est = table.establishment
    _require_fr(est, HOUSE_RULES.title)
    role = require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE))
    if option not in HouseOption.values:
        raise ValidationError({"option": _("Option inconnue.")})
    rules = selectors.house_rules_in_force(est)
    if enabled and (rules is None or option not in rules.options):
        raise RuleViolation(
            "GAME-07",
            _(
                "L'option « %(option)s » n'est pas écrite dans le règlement intérieur en "
                "vigueur : elle ne peut pas être appliquée."
            )
            % {"option": HouseOption(option).label},
        )
    with register_language():
        label = str(HouseOption(option).label)
    entry_append(
        register=current_register(est, HOUSE_RULES.code),
        actor=actor,
        role=role,
        payload={
            "version": rules.version if rules else None,
            "event": "option appliquée" if enabled else "option retirée",
            "effective_from": None,
            "table": table.number,
            "options": [label],
            "signed_by": display_name(actor),
        },
    )
    change = TableOptionChange(table=table, option=option, enabled=enabled, rules=rules, changed_by=actor)
    change.save()
    return change


# --- REG-23, SET-32, SLOT-29: the display checklists -----------------------------------------------

DISPLAY_CHECKERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


@transaction.atomic
def display_post(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    item: str,
    posted_on: datetime.date,
    table: GamingTable | None = None,
    machine: Machine | None = None,
) -> RulesDisplay:
    """An item of a table's or a machine's display checklist (REG-23), checked by the directeur
    responsable or a comité member (SLOT-29: a comité member, BP): what, posted on which date."""
    _require_fr(establishment, DISPLAYS.title)
    role = require_role_by_text(
        actor,
        establishment,
        DISPLAY_CHECKERS,
        "REG-23",
        _(
            "Les affichages et les dispositifs obligatoires sont vérifiés par le directeur responsable ou un membre du "
            "comité de direction."
        ),
    )
    if (table is None) == (machine is None):
        raise ValidationError(_("Indiquez une table ou une machine, et une seule."))
    subject = table or machine
    if subject.establishment_id != establishment.pk:
        raise ValidationError(_("Cette table ou cette machine n'est pas de l'établissement."))
    applicable = displays.table_items(table, with_bbj=True) if table else displays.machine_items(machine)
    required = next((r for r in applicable if r.item == item), None)
    if required is None:
        raise ValidationError({"item": _("Cet affichage ne concerne pas cette table ou cette machine.")})
    if posted_on > establishment.localtime(timezone.now()).date():
        raise ValidationError({"posted_on": _("La date d'affichage ne peut pas être dans le futur.")})
    label = _("Table %(n)s") % {"n": table.number} if table else _("Machine %(n)s") % {"n": machine.number}
    with register_language():
        payload = {
            "subject": str(label),
            "item": str(DisplayItem(item).label),
            "posted_on": posted_on.isoformat(),
            "requirement": required.code,
            "signed_by": display_name(actor),
        }
    entry = entry_append(
        register=current_register(establishment, DISPLAYS.code), actor=actor, role=role, payload=payload
    )
    line = RulesDisplay(
        establishment=establishment,
        table=table,
        machine=machine,
        item=item,
        posted_on=posted_on,
        checked_by=actor,
        entry_seq=entry.seq,
    )
    line.save()
    return line


# --- GAME-04: the Split Aces progressive (Monaco) ---------------------------------------------------

PROGRESSIVE_APPROVERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)
PROGRESSIVE_READERS = (*PROGRESSIVE_APPROVERS, Role.INSPECTEUR, Role.CHEF_TABLE)


def _require_mc(establishment: Establishment, what: str | Promise) -> None:
    if establishment.jurisdiction != "MC":
        raise ValidationError(_("%(what)s n'est tenu que dans les casinos monégasques.") % {"what": what})


def _split_aces_entry(
    establishment: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: str | Promise,
    detail: str,
    seance: Seance | None = None,
    table: str = "",
    amount: Decimal | None = None,
    flags: Iterable[str] = (),
) -> int:
    with register_language():
        payload = {
            "event": str(event),
            "seance": str(seance) if seance else "",
            "table": table,
            "detail": str(detail),
            "amount": str(amount) if amount is not None else "",
            "signed_by": display_name(actor),
            "flags": [str(f) for f in flags],
        }
    return entry_append(
        register=current_register(establishment, SPLIT_ACES.code), actor=actor, role=role, payload=payload
    ).seq


@transaction.atomic
def progressive_configure(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser | None,
    effective_from: datetime.date | None,
    combinations: str,
    stake: Decimal,
    percentage: Decimal,
    tables: Iterable[str],
) -> ProgressiveConfig:
    """A new version of the Split Aces parameters the operator fixes (SET-22). REFUSED without its
    author (the approving officer of the Direction des Jeux) or its date of effect (GAME-04)."""
    _require_mc(establishment, SPLIT_ACES.title)
    if actor is None or effective_from is None:
        raise RuleViolation("GAME-04", _("Une configuration du progressif porte son auteur et sa date d'effet."))
    role = require_role_by_text(
        actor,
        establishment,
        PROGRESSIVE_APPROVERS,
        "GAME-04",
        _("La configuration du progressif est approuvée par la Direction des Jeux."),
    )
    fields = _required(combinations=combinations)
    if stake <= 0 or not 0 < percentage <= 100:
        raise ValidationError(_("La mise est positive ; le pourcentage est compris entre 0 et 100."))
    numbers = sorted({n.strip() for n in tables if n.strip()})
    known = set(
        GamingTable.objects.filter(establishment=establishment, number__in=numbers, game="blackjack").values_list(
            "number", flat=True
        )
    )
    if not numbers or set(numbers) - known:
        raise ValidationError({"tables": _("Indiquez les tables de black-jack reliées au progressif.")})
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    last = ProgressiveConfig.objects.filter(establishment=establishment).order_by("-version").first()
    if last is not None and effective_from <= last.effective_from:
        raise ValidationError(
            {
                "effective_from": _("Une nouvelle version prend effet après la précédente (%(date)s).")
                % {"date": last.effective_from.strftime("%d/%m/%Y")}
            }
        )
    version = (last.version if last else 0) + 1
    seq = _split_aces_entry(
        establishment,
        actor=actor,
        role=role,
        event=_("Configuration, version %(v)s") % {"v": version},
        detail=f"{effective_from.isoformat()} — {fields['combinations']} — {stake} € — {percentage} % — "
        f"{', '.join(numbers)}",
    )
    config = ProgressiveConfig(
        establishment=establishment,
        version=version,
        effective_from=effective_from,
        combinations=fields["combinations"],
        stake=stake,
        percentage=percentage,
        tables=numbers,
        approved_by=actor,
        entry_seq=seq,
    )
    config.save()
    return config


@transaction.atomic
def progressive_read(
    *, seance: Seance, actor: AbstractBaseUser, moment: str, amount: Decimal, stakes: Decimal | None = None
) -> ProgressiveReading:
    """The progressive amount at the séance's opening or closing (GAME-04). At the closing, with the
    séance's Split Aces stakes: a change not explained by stakes × percentage and the jackpots paid
    is FLAGGED (BP)."""
    est = seance.establishment
    _require_mc(est, SPLIT_ACES.title)
    role = require_role(actor, est, PROGRESSIVE_READERS)
    if moment not in ProgressiveReading.Moment.values:
        raise ValidationError({"moment": _("Moment inconnu.")})
    config = selectors.progressive_in_force(est, seance.date)
    if config is None:
        raise RuleViolation("GAME-04", _("Aucune configuration du progressif n'est en vigueur à cette date."))
    if amount < 0:
        raise ValidationError({"amount": _("Montant positif ou nul attendu.")})
    if ProgressiveReading.objects.filter(seance=seance, moment=moment).exists():
        raise impossible(_("Ce relevé de la séance est déjà inscrit."))
    unexplained, flags = None, []
    if moment == ProgressiveReading.Moment.CLOSING:
        if stakes is None or stakes < 0:
            raise ValidationError({"stakes": _("Indiquez les mises Split Aces de la séance.")})
        opening = ProgressiveReading.objects.filter(seance=seance, moment=ProgressiveReading.Moment.OPENING).first()
        if opening is None:
            raise ValidationError(_("Le montant d'ouverture de la séance n'est pas inscrit."))
        paid = sum((p.amount for p in ProgressivePayout.objects.filter(seance=seance)), Decimal("0"))
        expected = (opening.amount + stakes * config.percentage / 100 - paid).quantize(Decimal("0.01"))
        unexplained = amount - expected
        if unexplained:
            with register_language():
                gap = _("écart inexpliqué de %(d)s € (attendu %(e)s €)") % {"d": unexplained, "e": expected}
                flags = [f"GAME-04 : {gap}"]
    else:
        stakes = None
    seq = _split_aces_entry(
        est,
        actor=actor,
        role=role,
        event=ProgressiveReading.Moment(moment).label,
        seance=seance,
        amount=amount,
        detail=f"{_('mises')} {stakes} €" if stakes is not None else "",
        flags=flags,
    )
    reading = ProgressiveReading(
        establishment=est,
        seance=seance,
        moment=moment,
        amount=amount,
        stakes=stakes,
        config=config,
        unexplained=unexplained,
        recorded_by=actor,
        entry_seq=seq,
    )
    reading.save()
    return reading


@transaction.atomic
def progressive_payout(
    *,
    seance: Seance,
    table: GamingTable,
    actor: AbstractBaseUser,
    amount: Decimal,
    winner: str,
    paid_at: datetime.datetime | None = None,
) -> ProgressivePayout:
    """A Split Aces jackpot paid at a linked table: table, time, amount, winner (GAME-04)."""
    est = seance.establishment
    _require_mc(est, SPLIT_ACES.title)
    role = require_role(actor, est, PROGRESSIVE_READERS)
    config = selectors.progressive_in_force(est, seance.date)
    if config is None or table.establishment_id != est.pk or table.number not in config.tables:
        raise RuleViolation(
            "GAME-04", _("La table %(n)s n'est pas reliée au progressif Split Aces en vigueur.") % {"n": table.number}
        )
    fields = _required(winner=winner)
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    paid_at = paid_at or timezone.now()
    if paid_at > timezone.now():
        raise ValidationError({"paid_at": _("Le paiement ne peut pas être dans le futur.")})
    seq = _split_aces_entry(
        est,
        actor=actor,
        role=role,
        event=_("Jackpot payé"),
        seance=seance,
        table=table.number,
        amount=amount,
        detail=f"{_local(est, paid_at)} — {fields['winner']}",
    )
    payout = ProgressivePayout(
        establishment=est,
        seance=seance,
        table=table,
        paid_at=paid_at,
        amount=amount,
        winner=fields["winner"],
        recorded_by=actor,
        entry_seq=seq,
    )
    payout.save()
    return payout


# --- GAME-31: the register of approved bankers (banque à tout va, Monaco) -----------------------------

BANKER_APPROVERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)


def _banker_entry(
    banker: ApprovedBanker, *, actor: AbstractBaseUser, role: str, event: str | Promise, on: datetime.date
) -> int:
    with register_language():
        payload = {
            "banker": banker.number,
            "event": str(event),
            "date": on.isoformat(),
            "identity": f"{banker.full_name}, {_('né(e) le')} {banker.birth_date:%d/%m/%Y}, {banker.identity_document}",
            "signed_by": display_name(actor),
        }
    return entry_append(
        register=current_register(banker.establishment, BANKERS.code), actor=actor, role=role, payload=payload
    ).seq


@transaction.atomic
def banker_approve(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    full_name: str,
    birth_date: datetime.date,
    identity_document: str,
    approved_on: datetime.date,
) -> ApprovedBanker:
    """A banker approved by the Direction (000 art. 12.3), written in the register of approved bankers."""
    _require_mc(establishment, BANKERS.title)
    role = require_role_by_text(
        actor, establishment, BANKER_APPROVERS, "GAME-31", _("Le banquier est agréé par la Direction des Jeux.")
    )
    fields = _required(full_name=full_name, identity_document=identity_document)
    if approved_on > establishment.localtime(timezone.now()).date():
        raise ValidationError({"approved_on": _("La date d'agrément ne peut pas être dans le futur.")})
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    number = ApprovedBanker.objects.filter(establishment=establishment).count() + 1
    banker = ApprovedBanker(
        establishment=establishment,
        number=number,
        full_name=fields["full_name"],
        birth_date=birth_date,
        identity_document=fields["identity_document"],
        approved_on=approved_on,
        approved_by=actor,
        entry_seq=0,
    )
    banker.entry_seq = _banker_entry(banker, actor=actor, role=role, event=_("Agrément"), on=approved_on)
    return save_audited(banker, actor=actor, reason="agrément")


@transaction.atomic
def banker_withdraw(*, banker: ApprovedBanker, actor: AbstractBaseUser, on: datetime.date) -> ApprovedBanker:
    """The Direction withdraws a banker's approval from ``on``."""
    banker = ApprovedBanker.objects.select_for_update().select_related("establishment").get(pk=banker.pk)
    role = require_role_by_text(
        actor, banker.establishment, BANKER_APPROVERS, "GAME-31", _("Le banquier est agréé par la Direction des Jeux.")
    )
    if banker.withdrawn_on is not None:
        raise impossible(_("L'agrément de ce banquier est déjà retiré."))
    if on < banker.approved_on:
        raise ValidationError({"on": _("Le retrait suit l'agrément.")})
    _banker_entry(banker, actor=actor, role=role, event=_("Retrait de l'agrément"), on=on)
    banker.withdrawn_on = on
    return save_audited(banker, actor=actor, reason="retrait")
