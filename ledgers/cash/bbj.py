"""Bad beat jackpot after its activation (COUNT-46): its versioned conditions (COUNT-44,
COUNT-45), its stops (final or temporary voluntary stop, technical breakdown: COUNT-47, INC-15), its wins paid
by bons (COUNT-48), the expected displayed amount of each séance (COUNT-24) and the import of the
approved machine's per-partie log (COUNT-46). Every write goes to the registre du bad beat jackpot
(modèle 8 quater) in the same transaction.

The machine's log of a table-partie is imported as CSV (UTF-8, comma-separated, decimals with a
point), one line per partie under this header line:

    heure,pot,retenue_maison,retenue_bbj,gains_payes,montant_bbj,paiements
    21:04:12,120.00,6.00,1.20,112.80,1501.20,
    21:30:00,90.00,4.50,0.90,84.60,2000.00,1000.00;500.00;500.00

``heure`` the partie's time (HH:MM or HH:MM:SS), ``pot`` the pot, ``retenue_maison`` and
``retenue_bbj`` the house and BBJ retenues, ``gains_payes`` the wins paid, ``montant_bbj`` the BBJ
amount after the partie, ``paiements`` the BBJ paid to each player (semicolon-separated, empty when
the BBJ was not won)."""

import csv
import datetime
from collections.abc import Sequence
from decimal import Decimal

import tablib
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.authority.selectors import house_rules_in_force
from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.incidents.models import Incident, IncidentNotice
from ledgers.incidents.services import incident_close, incident_notify, incident_open
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, register_language

from . import rules
from .models import BadBeatConfig, BadBeatCount, BadBeatLog, BadBeatStop, BadBeatTable, BadBeatWin, Orphan
from .registers import CARNET_ORPHELINS, REGISTRE_BBJ
from .selectors import current_amount, current_config, final_stop, open_breakdown, open_suspension
from .services import CASHIERS, _session_fields, _write, orphan_record

BBJ_MANAGERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


def _signed(user: AbstractBaseUser, role: str) -> str:
    return f"{display_name(user)} ({Role(role).label})"


def _entry(
    jackpot: BadBeatTable,
    *,
    actor: AbstractBaseUser,
    role: str,
    event,
    session: TableSession | None = None,
    comite: str = "",
    **extra,
) -> Entry:
    est = jackpot.table.establishment
    with register_language():
        fields = (
            _session_fields(session)
            if session
            else {"date": est.localtime().date().isoformat(), "seance": "", "table": jackpot.table.number}
        )
        payload = {**fields, "event": str(event), "signed_by": _signed(actor, role), "comite": comite, **extra}
    return _write(est, REGISTRE_BBJ.code, actor=actor, role=role, payload=payload)


def _locked(jackpot: BadBeatTable) -> BadBeatTable:
    jackpot = BadBeatTable.objects.select_for_update().select_related("table__establishment").get(pk=jackpot.pk)
    if jackpot.table.establishment.jurisdiction != "FR":
        raise ValidationError(_("Le bad beat jackpot est une règle française."))
    return jackpot


# --- conditions (COUNT-44, COUNT-45) --------------------------------------------------------------


@transaction.atomic
def bad_beat_configure(
    *,
    jackpot: BadBeatTable,
    starting_value: Decimal,
    increment_kind: str,
    increment_value: Decimal,
    rounding: str,
    side_pot_rule: str,
    minimum_pot: Decimal,
    restart: str,
    actor: AbstractBaseUser,
    reassign: bool = False,
) -> BadBeatConfig:
    """The BBJ's conditions as the règlement intérieur in force defines them (COUNT-45; the minimum
    pot COUNT-44). They cannot change while the BBJ runs: a new version only after a final stop,
    and it may take back the stopped BBJ's increment from the orphans if created by 31 October of
    the season of that stop (COUNT-47)."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if increment_kind not in BadBeatConfig.Increment.values or restart not in BadBeatConfig.Restart.values:
        raise ValidationError(_("Incrément ou redémarrage inconnu."))
    if not rounding.strip() or not side_pot_rule.strip():
        raise RuleViolation(
            "COUNT-45",
            _(
                "Le règlement intérieur précise le mode d'arrondi de l'incrément et la "
                "retenue en cas de pots extérieurs."
            ),
        )
    starting_value, increment_value, minimum_pot = (
        rules.money(starting_value),
        rules.money(increment_value),
        rules.money(minimum_pot),
    )
    if increment_value <= 0 or (increment_kind == BadBeatConfig.Increment.PERCENT and increment_value >= 100):
        raise ValidationError({"increment_value": _("Un incrément positif ; un pourcentage inférieur à 100.")})
    house_rules = house_rules_in_force(est)
    if house_rules is None:
        raise RuleViolation(
            "COUNT-44", _("Le pot minimum est fixé par le règlement intérieur : aucune version n'est en vigueur.")
        )
    previous = current_config(jackpot)
    stop = final_stop(jackpot)
    if previous is not None and stop is None:
        raise RuleViolation(
            "COUNT-45",
            _("Les conditions d'incrémentation ne peuvent être modifiées avant l'arrêt du jackpot progressif."),
        )
    now = timezone.now()
    reassigned = Decimal("0.00")
    if reassign:
        if stop is None or stop.orphan is None:
            raise ValidationError(_("Aucun incrément d'un bad beat jackpot arrêté n'est à réaffecter."))
        if est.localtime(now).date() > rules.season_end(est.localtime(stop.stopped_at).date()):
            raise RuleViolation(
                "COUNT-47",
                _(
                    "L'incrément enregistré aux orphelins n'est réaffecté qu'à un bad beat "
                    "jackpot créé avant le 31 octobre de l'année en cours."
                ),
            )
        reassigned = _orphan_reassign(stop, jackpot, actor=actor)
    config = BadBeatConfig.objects.create(
        jackpot=jackpot,
        version=(previous.version if previous else 0) + 1,
        starting_value=starting_value,
        increment_kind=increment_kind,
        increment_value=increment_value,
        rounding=rounding.strip(),
        side_pot_rule=side_pot_rule.strip(),
        minimum_pot=minimum_pot,
        house_rules_version=house_rules.version,
        restart=restart,
        reassigned=reassigned,
        reassigned_from=stop if reassign else None,
        effective_at=now,
        recorded_by=actor,
    )
    with register_language():
        unit = "%" if increment_kind == BadBeatConfig.Increment.PERCENT else "€"
        text = _(
            "Conditions v%(v)s : départ %(start)s €, incrément %(value)s %(unit)s (%(rounding)s), pots "
            "extérieurs : %(side)s, pot minimum %(min)s € (règlement intérieur v%(rules)s), redémarrage : "
            "%(restart)s"
        ) % {
            "v": config.version,
            "start": starting_value,
            "value": increment_value,
            "unit": unit,
            "rounding": config.rounding,
            "side": config.side_pot_rule,
            "min": minimum_pot,
            "rules": house_rules.version,
            "restart": BadBeatConfig.Restart(restart).label,
        }
        if reassigned:
            text = _("%(text)s ; incrément réaffecté : %(amount)s €") % {"text": text, "amount": reassigned}
    _entry(jackpot, actor=actor, role=role, event=text, displayed=str(starting_value + reassigned))
    return config


def _orphan_reassign(stop: BadBeatStop, jackpot: BadBeatTable, *, actor: AbstractBaseUser) -> Decimal:
    """Take the stopped BBJ's increment back from the orphans: column 7 closed in carnet 11 bis."""
    orphan = Orphan.objects.select_for_update().get(pk=stop.orphan_id)
    left = orphan.amount - orphan.refunded
    if left <= 0:
        raise ValidationError(_("L'incrément de cet arrêt est déjà réaffecté."))
    est = orphan.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    today = est.localtime().date().isoformat()
    orphan.refunded += left
    orphan.restitutions = [
        *orphan.restitutions,
        {"date": today, "amount": str(left), "name": str(jackpot), "address": "", "proof": "COUNT-47"},
    ]
    save_audited(orphan, actor=actor, reason="réaffectation à un nouveau bad beat jackpot")
    with register_language():
        payload = {
            "found_at": today,
            "category": str(_("Réaffectation")),
            "place": "",
            "detail": "",
            "paid_into": "",
            "amount": str(-left),
            "signed_by": _signed(actor, role),
            "col9": str(
                _("Nouveau bad beat jackpot de la table %(table)s — inscription n° %(seq)s")
                % {"table": jackpot.table.number, "seq": orphan.entry_seq}
            ),
        }
    _write(est, CARNET_ORPHELINS.code, actor=actor, role=role, payload=payload)
    return left


# --- stops (COUNT-47, INC-15) ---------------------------------------------------------------------


@transaction.atomic
def bad_beat_stop_final(
    *, jackpot: BadBeatTable, minister_notified_at: datetime.datetime, minister_reference: str, actor: AbstractBaseUser
) -> BadBeatStop:
    """Stop the BBJ for good (art. 56-3-2, COUNT-47): the Minister of the Interior was told at least
    SET-42 before (48 hours, AMB-50); the increment (the amount above the starting value) is written
    to the orphans (carnet 11 bis) in the same transaction."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if final_stop(jackpot) is not None:
        raise ValidationError(_("Ce bad beat jackpot est déjà arrêté définitivement."))
    now = timezone.now()
    notice = rules.BBJ_FINAL_STOP_NOTICE
    hours = (est.setting("SET-42") or {}).get("bbj_final_stop_hours")
    if hours is not None:
        notice = datetime.timedelta(hours=int(hours))
    if minister_notified_at is None or not minister_reference.strip() or minister_notified_at > now - notice:
        raise RuleViolation(
            "COUNT-47",
            _(
                "Le ministre de l'intérieur est informé de l'arrêt définitif au moins "
                "%(hours)s heures avant : indiquez la date et la référence de l'information."
            )
            % {"hours": int(notice.total_seconds() // 3600)},
        )
    if open_breakdown(jackpot) is not None:
        raise ValidationError(_("Rétablissez d'abord le système en panne."))
    config = current_config(jackpot)
    increment = max(current_amount(jackpot) - (config.starting_value if config else Decimal("0.00")), Decimal("0.00"))
    orphan = orphan_record(
        establishment=est,
        category=Orphan.Category.JACKPOT_INCREMENT,
        amount=increment,
        place=str(_("table %(table)s") % {"table": jackpot.table.number}),
        found_by=display_name(actor),
        paid_into=str(_("caisse")),
        actor=actor,
    )
    stop = save_audited(
        BadBeatStop(
            jackpot=jackpot,
            kind=BadBeatStop.Kind.FINAL,
            stopped_at=now,
            increment=increment,
            minister_notified_at=minister_notified_at,
            minister_reference=minister_reference.strip(),
            orphan=orphan,
            recorded_by=actor,
        ),
        actor=actor,
        reason="arrêt définitif",
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        event=_(
            "Arrêt définitif : incrément de %(amount)s € enregistré aux orphelins (inscription n° %(seq)s) ; ministre "
            "de l'intérieur informé le %(at)s (%(ref)s)"
        )
        % {
            "amount": increment,
            "seq": orphan.entry_seq,
            "ref": stop.minister_reference,
            "at": est.localtime(minister_notified_at).strftime("%d/%m/%Y %H:%M"),
        },
    )
    return stop


@transaction.atomic
def bad_beat_breakdown(
    *,
    jackpot: BadBeatTable,
    down_at: datetime.datetime,
    police_informed_at: datetime.datetime | None,
    police_service: str,
    actor: AbstractBaseUser,
    channel: str = IncidentNotice.Channel.PHONE,
) -> BadBeatStop:
    """The BBJ system stopped by a technical breakdown (art. 56-3-2, INC-15): play goes on without
    increments, players cannot claim the jackpot, and the chief of the territorial judicial police
    is told without delay — so the breakdown is recorded only with that information. It opens an
    INC-15 incident that stays open until the system is restored."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if open_breakdown(jackpot) is not None:
        raise ValidationError(_("Une panne de ce bad beat jackpot est déjà en cours."))
    if down_at > timezone.now():
        raise ValidationError({"down_at": _("L'heure de la panne ne peut être dans le futur.")})
    if police_informed_at is None or not police_service.strip():
        raise RuleViolation(
            "INC-15",
            _(
                "Le chef du service de police judiciaire territorialement compétent est "
                "informé sans délai de la panne : indiquez l'heure et le service."
            ),
        )
    session = jackpot.table.sessions.filter(status=TableSession.Status.OPEN).first()
    with register_language():
        description = str(
            _(
                "Panne technique du bad beat jackpot de la table %(table)s : le jeu continue sans "
                "incrémentation ni gain du jackpot."
            )
            % {"table": jackpot.table.number}
        )
    incident = incident_open(
        establishment=est,
        category=rules.BBJ_BREAKDOWN.code,
        description=description,
        actor=actor,
        found_at=down_at,
        table_session=session,
        subjects=[jackpot],
    )
    incident_notify(
        incident=incident,
        recipient_role=Role.POLICE,
        recipient_name=police_service.strip(),
        notified_at=police_informed_at,
        channel=channel,
        actor=actor,
    )
    stop = save_audited(
        BadBeatStop(
            jackpot=jackpot,
            kind=BadBeatStop.Kind.BREAKDOWN,
            stopped_at=down_at,
            incident=incident,
            police_informed_at=police_informed_at,
            police_service=police_service.strip(),
            recorded_by=actor,
        ),
        actor=actor,
        reason="panne",
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        session=session,
        event=_(
            "INC-15 : panne technique à %(down)s, police judiciaire (%(service)s) informée à %(informed)s ; jeu sans "
            "incrémentation"
        )
        % {
            "down": est.localtime(down_at).strftime("%d/%m/%Y %H:%M"),
            "service": stop.police_service,
            "informed": est.localtime(police_informed_at).strftime("%d/%m/%Y %H:%M"),
        },
    )
    return stop


@transaction.atomic
def bad_beat_restore(*, stop: BadBeatStop, restored_at: datetime.datetime, actor: AbstractBaseUser) -> BadBeatStop:
    """The BBJ system is working again: the INC-15 incident is closed, increments and payouts resume."""
    stop = BadBeatStop.objects.select_for_update().select_related("jackpot__table__establishment").get(pk=stop.pk)
    est = stop.jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if stop.kind != BadBeatStop.Kind.BREAKDOWN or stop.restored_at is not None:
        raise ValidationError(_("Cette panne n'est pas en cours."))
    if not stop.stopped_at <= restored_at <= timezone.now():
        raise ValidationError({"restored_at": _("Le rétablissement suit la panne et n'est pas dans le futur.")})
    stop.restored_at = restored_at
    save_audited(stop, actor=actor, reason="rétablissement")
    if stop.incident is not None and stop.incident.status == Incident.Status.OPEN:
        incident_close(incident=stop.incident, actor=actor)
    _entry(
        stop.jackpot,
        actor=actor,
        role=role,
        event=_("INC-15 : système rétabli à %(at)s") % {"at": est.localtime(restored_at).strftime("%d/%m/%Y %H:%M")},
    )
    return stop


@transaction.atomic
def bad_beat_suspend(*, jackpot: BadBeatTable, actor: AbstractBaseUser) -> BadBeatStop:
    """A temporary voluntary stop of the BBJ, "possible at any time" (art. 56-3-2, COUNT-47): written
    with its time and who decided it; until it is resumed the table takes no BBJ retenue and pays
    no BBJ. The increment stays with the jackpot (only a final stop sends it to the orphans)."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if final_stop(jackpot) is not None:
        raise ValidationError(_("Ce bad beat jackpot est déjà arrêté définitivement."))
    if open_suspension(jackpot) is not None or open_breakdown(jackpot) is not None:
        raise ValidationError(_("Ce bad beat jackpot est déjà arrêté."))
    stop = save_audited(
        BadBeatStop(jackpot=jackpot, kind=BadBeatStop.Kind.SUSPENSION, stopped_at=timezone.now(), recorded_by=actor),
        actor=actor,
        reason="arrêt volontaire temporaire",
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        event=_("Arrêt volontaire temporaire à %(at)s : jeu sans incrémentation ni gain du jackpot")
        % {"at": est.localtime(stop.stopped_at).strftime("%d/%m/%Y %H:%M")},
    )
    return stop


@transaction.atomic
def bad_beat_resume(*, stop: BadBeatStop, actor: AbstractBaseUser) -> BadBeatStop:
    """The BBJ runs again after a temporary voluntary stop: the resumption's time and who decided it."""
    stop = BadBeatStop.objects.select_for_update().select_related("jackpot__table__establishment").get(pk=stop.pk)
    est = stop.jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if open_suspension(stop.jackpot) != stop:
        raise ValidationError(_("Cet arrêt temporaire n'est pas en cours."))
    stop.restored_at, stop.restored_by = timezone.now(), actor
    save_audited(stop, actor=actor, reason="reprise")
    _entry(
        stop.jackpot,
        actor=actor,
        role=role,
        event=_("Reprise du bad beat jackpot à %(at)s")
        % {"at": est.localtime(stop.restored_at).strftime("%d/%m/%Y %H:%M")},
    )
    return stop


# --- wins (COUNT-44, COUNT-48) --------------------------------------------------------------------


@transaction.atomic
def bad_beat_win(
    *,
    session: TableSession,
    combination: str,
    pot: Decimal,
    amount: Decimal,
    players_present: int,
    bons: Sequence[Decimal],
    winner_name: str,
    restart_value: Decimal,
    actor: AbstractBaseUser,
    comite: AbstractBaseUser | None,
) -> BadBeatWin:
    """A BBJ won at a table, paid at the cash desk (art. 56-3-3, COUNT-48): the cashier fills in one
    payment bon per player present, the winner's first, 50 % to him and 50 % shared equally among
    all (COUNT-44); the register and the bons are signed by the cashier and the comité member who
    controls the payment. The BBJ then restarts at 0 € or its starting value (COUNT-45)."""
    session = TableSession.objects.select_related("seance__establishment", "table").get(pk=session.pk)
    est = session.seance.establishment
    jackpot = getattr(session.table, "bad_beat_jackpot", None)
    if jackpot is None:
        raise ValidationError(_("Cette table ne joue pas le bad beat jackpot."))
    jackpot = _locked(jackpot)
    role = role_named_by_text(
        actor,
        est,
        CASHIERS,
        "COUNT-48",
        _("Le caissier remplit les bons de paiement et le registre du bad beat jackpot."),
    )
    if comite is None or comite.pk == actor.pk:
        raise RuleViolation(
            "COUNT-48",
            _(
                "Un membre du comité de direction contrôle le paiement et signe le registre "
                "et les bons avec le caissier."
            ),
        )
    comite_role = role_named_by_text(
        comite, est, (Role.COMITE,), "COUNT-48", _("Le paiement est contrôlé par un membre du comité de direction.")
    )
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Le bad beat jackpot se gagne pendant la partie."))
    if open_breakdown(jackpot) is not None:
        raise RuleViolation(
            "COUNT-47",
            _(
                "Le système du bad beat jackpot est en panne (INC-15) : les joueurs ne "
                "peuvent prétendre au gain de la cagnotte."
            ),
        )
    if open_suspension(jackpot) is not None:
        raise RuleViolation(
            "COUNT-47", _("Le bad beat jackpot est arrêté volontairement : aucun gain n'est payé avant sa reprise.")
        )
    config = current_config(jackpot)
    if config is None or final_stop(jackpot) is not None:
        raise RuleViolation(
            "COUNT-44",
            _(
                "Aucun bad beat jackpot en cours à cette table : ses conditions (pot "
                "minimum du règlement intérieur) ne sont pas inscrites."
            ),
        )
    if not winner_name.strip() or not combination.strip():
        raise RuleViolation(
            "COUNT-48",
            _("Le registre et les bons portent la combinaison et les nom et prénom du gagnant du lot principal."),
        )
    pot, amount, restart_value = rules.money(pot), rules.money(amount), rules.money(restart_value)
    if pot < config.minimum_pot:
        raise RuleViolation(
            "COUNT-44",
            _("Pot de %(pot)s € : le pot minimum du règlement intérieur est de %(min)s €.")
            % {"pot": pot, "min": config.minimum_pot},
        )
    bons = [rules.money(b) for b in bons]
    if len(bons) != players_present:
        raise RuleViolation(
            "COUNT-48",
            _("Autant de bons de paiement que de joueurs à la table : %(players)s joueurs, %(bons)s bons.")
            % {"players": players_present, "bons": len(bons)},
        )
    split = rules.bbj_split(amount, players_present)
    if bons != split:
        raise RuleViolation(
            "COUNT-44",
            _("50 %% au gagnant, 50 %% à parts égales entre les %(players)s joueurs présents : %(split)s.")
            % {"players": players_present, "split": " ; ".join(f"{b} €" for b in split)},
        )
    restart = config.starting_value if config.restart == BadBeatConfig.Restart.START else Decimal("0.00")
    if restart_value != restart:
        raise RuleViolation(
            "COUNT-45",
            _("Après son gain le bad beat jackpot redémarre à %(value)s € (conditions v%(v)s).")
            % {"value": restart, "v": config.version},
        )
    first = _next_bon(est)
    numbered = [
        {"number": first + i, "player": winner_name.strip() if i == 0 else "", "amount": str(b)}
        for i, b in enumerate(bons)
    ]
    win = BadBeatWin.objects.create(
        jackpot=jackpot,
        table_session=session,
        config=config,
        won_at=timezone.now(),
        combination=combination.strip(),
        pot=pot,
        amount=amount,
        players_present=players_present,
        winner_name=winner_name.strip(),
        bons=numbered,
        restart_value=restart_value,
        cashier=actor,
        comite=comite,
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        session=session,
        comite=_signed(comite, comite_role),
        displayed=str(restart_value),
        bons=numbered,
        event=_(
            "Gain — %(game)s, table %(table)s, %(combination)s, %(at)s : %(amount)s € ; lot principal %(first)s € "
            "à %(winner)s ; bons n° %(from)s à %(to)s : %(shares)s"
        )
        % {
            "game": session.table.get_game_display(),
            "table": session.table.number,
            "combination": win.combination,
            "at": est.localtime(win.won_at).strftime("%d/%m/%Y %H:%M"),
            "amount": amount,
            "first": bons[0],
            "winner": win.winner_name,
            "from": first,
            "to": first + len(bons) - 1,
            "shares": " ; ".join(str(b) for b in bons),
        },
    )
    return win


def _next_bon(est) -> int:
    """Payment bons are numbered in one series per establishment, without gaps (REG-42, BP)."""
    last = BadBeatWin.objects.filter(jackpot__table__establishment=est).order_by("-won_at", "-pk").first()
    return last.bons[-1]["number"] + 1 if last else 1


# --- the approved machine's per-partie log (COUNT-46) ---------------------------------------------

LOG_COLUMNS = ("heure", "pot", "retenue_maison", "retenue_bbj", "gains_payes", "montant_bbj", "paiements")


def _log_rows(content: str) -> list[dict]:
    """The CSV export's lines (format in the module docstring), amounts checked; bad input is a
    ValidationError naming the line."""
    try:
        data = tablib.Dataset().load(content.lstrip("\ufeff"), format="csv")
    except (tablib.InvalidDimensions, csv.Error) as exc:  # lines of unequal length, broken quoting
        raise ValidationError(_("Fichier CSV illisible.")) from exc
    headers = tuple((h or "").strip().lower() for h in data.headers or ())
    if headers != LOG_COLUMNS:
        raise ValidationError(_("En-tête attendu : %(columns)s.") % {"columns": ",".join(LOG_COLUMNS)})
    rows = []
    for number, line in enumerate(data.dict, start=2):
        try:
            time = datetime.time.fromisoformat(line["heure"].strip()).isoformat()
            amounts = {
                key: rules.money(line[column])
                for key, column in (
                    ("pot", "pot"),
                    ("house", "retenue_maison"),
                    ("bbj", "retenue_bbj"),
                    ("wins", "gains_payes"),
                    ("bbj_amount", "montant_bbj"),
                )
            }
            payments = [rules.money(p) for p in (line["paiements"] or "").split(";") if p.strip()]
        except (ValueError, AttributeError, ValidationError) as exc:
            raise ValidationError(_("Ligne %(n)s du fichier illisible.") % {"n": number}) from exc
        rows.append({"time": time, **{k: str(v) for k, v in amounts.items()}, "payments": [str(p) for p in payments]})
    if not rows:
        raise ValidationError(_("Le fichier ne contient aucune partie."))
    return rows


@transaction.atomic
def bad_beat_log_import(*, session: TableSession, content: str, actor: AbstractBaseUser) -> BadBeatLog:
    """The approved machine records per table and partie the time, pot, house and BBJ retenues, wins
    paid, BBJ amount and its payments (art. 56-3-1, COUNT-46): its export for a table-partie is
    stored once the partie's BBJ retenue is in the register, and a sum of BBJ retenues other than
    that retenue, or BBJ payments other than the wins paid at the cash desk, is flagged."""
    session = TableSession.objects.select_related("seance__establishment", "table").get(pk=session.pk)
    est = session.seance.establishment
    jackpot = getattr(session.table, "bad_beat_jackpot", None)
    if est.jurisdiction != "FR" or jackpot is None:
        raise ValidationError(_("Cette table ne joue pas le bad beat jackpot."))
    role = require_role(actor, est, (*CASHIERS, *BBJ_MANAGERS))
    count = BadBeatCount.objects.filter(table_session=session).first()
    if count is None:
        raise ValidationError(_("Inscrivez d'abord la retenue du bad beat jackpot de cette partie au registre."))
    if BadBeatLog.objects.filter(table_session=session).exists():
        raise impossible(_("L'historique de la machine de cette partie est déjà importé."))
    rows = _log_rows(content)
    bbj_total = rules.within_money_limit(sum((Decimal(r["bbj"]) for r in rows), Decimal("0.00")))
    house_total = rules.within_money_limit(sum((Decimal(r["house"]) for r in rows), Decimal("0.00")))
    paid = sum((Decimal(p) for r in rows for p in r["payments"]), Decimal("0.00"))
    won = sum((w.amount for w in session.bad_beat_wins.all()), Decimal("0.00"))
    flags = []
    with register_language():
        if bbj_total != count.retained:
            flags.append(
                str(
                    _(
                        "COUNT-46 : retenues du bad beat jackpot de l'historique %(log)s € ≠ retenue inscrite "
                        "au registre %(retained)s €."
                    )
                    % {"log": bbj_total, "retained": count.retained}
                )
            )
        if paid != won:
            flags.append(
                str(
                    _(
                        "COUNT-46 : paiements du bad beat jackpot de l'historique %(log)s € ≠ gains payés à la "
                        "caisse %(won)s €."
                    )
                    % {"log": paid, "won": won}
                )
            )
    log = BadBeatLog.objects.create(
        table_session=session,
        rows=rows,
        bbj_total=bbj_total,
        house_total=house_total,
        flags=flags,
        imported_by=actor,
        imported_at=timezone.now(),
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        session=session,
        statement=str(bbj_total),
        flags=flags,
        event=_(
            "Historique de la machine agréée %(approval)s : %(parties)s parties, retenues de "
            "l'établissement %(house)s €, "
            "retenues du bad beat jackpot %(bbj)s €"
        )
        % {"approval": jackpot.machine_approval, "parties": len(rows), "house": house_total, "bbj": bbj_total},
    )
    return log
