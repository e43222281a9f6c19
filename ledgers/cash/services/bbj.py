"""Bad beat jackpot: its activation, versioned conditions, séance counts (the higher of the displayed
and the computed amount kept), wins paid by bons and the import of the machine's per-partie log."""

import csv
import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import tablib
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.authority.displays import require_bbj_displays
from ledgers.authority.selectors import house_rules_in_force
from ledgers.core import amounts
from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.games import Family
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.incidents.services import incident_open
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write, register_language

from .. import rules, selectors
from ..models import (
    BadBeatConfig,
    BadBeatCount,
    BadBeatLog,
    BadBeatOpening,
    BadBeatStop,
    BadBeatTable,
    BadBeatWin,
    Orphan,
)
from ..registers import (
    REGISTRE_BBJ,
)
from ..selectors import current_config, final_stop, open_breakdown, open_suspension
from .common import CASHIERS, _session_fields
from .orphans import _orphans_write

BBJ_MANAGERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


def _signed(user: AbstractBaseUser, role: str) -> str:
    return f"{display_name(user)} ({Role(role).label})"


def _bbj_write(est: Establishment, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the registre du bad beat jackpot is written here."""
    return entry_write(establishment=est, kind=REGISTRE_BBJ.code, actor=actor, role=role, payload=payload)


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
    return _bbj_write(est, actor=actor, role=role, payload=payload)


def _locked(jackpot: BadBeatTable) -> BadBeatTable:
    jackpot = BadBeatTable.objects.select_for_update().select_related("table__establishment").get(pk=jackpot.pk)
    if jackpot.table.establishment.jurisdiction != "FR":
        raise ValidationError(_("Le bad beat jackpot est une règle française."))
    return jackpot


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
        amounts.money(starting_value),
        amounts.money(increment_value),
        amounts.money(minimum_pot),
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
    _orphans_write(est, actor=actor, role=role, payload=payload)
    return left


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
    pot, amount, restart_value = amounts.money(pot), amounts.money(amount), amounts.money(restart_value)
    if pot < config.minimum_pot:
        raise RuleViolation(
            "COUNT-44",
            _("Pot de %(pot)s € : le pot minimum du règlement intérieur est de %(min)s €.")
            % {"pot": euros(pot), "min": euros(config.minimum_pot)},
        )
    bons = [amounts.money(b) for b in bons]
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
            % {"value": euros(restart), "v": config.version},
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
            values = {
                key: amounts.money(line[column])
                for key, column in (
                    ("pot", "pot"),
                    ("house", "retenue_maison"),
                    ("bbj", "retenue_bbj"),
                    ("wins", "gains_payes"),
                    ("bbj_amount", "montant_bbj"),
                )
            }
            payments = [amounts.money(p) for p in (line["paiements"] or "").split(";") if p.strip()]
        except (ValueError, AttributeError, ValidationError) as exc:
            raise ValidationError(_("Ligne %(n)s du fichier illisible.") % {"n": number}) from exc
        rows.append({"time": time, **{k: str(v) for k, v in values.items()}, "payments": [str(p) for p in payments]})
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
    bbj_total = amounts.within_money_limit(sum((Decimal(r["bbj"]) for r in rows), Decimal("0.00")))
    house_total = amounts.within_money_limit(sum((Decimal(r["house"]) for r in rows), Decimal("0.00")))
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


@transaction.atomic
def bad_beat_activate(
    *, table: GamingTable, machine_approval: str, cagnotte_number: str, actor: AbstractBaseUser
) -> BadBeatTable:
    """Run the bad beat jackpot at a cercle table: only with an approved recording machine and a
    BBJ cagnotte built into the table (COUNT-46); from then on each séance's count and displayed
    amount are due before the séance closes (COUNT-24)."""
    est = table.establishment
    if est.jurisdiction != "FR" or table.game_info.family != Family.CERCLE:
        raise ValidationError(_("Le bad beat jackpot se joue aux tables de cercle françaises."))
    role = require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE))
    if not machine_approval.strip() or not cagnotte_number.strip():
        raise RuleViolation(
            "COUNT-46",
            _("Chaque table du bad beat jackpot a sa machine agréée et sa cagnotte spécifique incorporée à la table."),
        )
    if BadBeatTable.objects.filter(table=table).exists():
        raise ValidationError(_("Le bad beat jackpot est déjà activé à cette table."))
    require_bbj_displays(table)  # REG-23, COUNT-45: the increment conditions and rate displayed first
    activation = BadBeatTable.objects.create(
        table=table,
        machine_approval=machine_approval.strip(),
        cagnotte_number=cagnotte_number.strip(),
        activated_by=actor,
        activated_at=timezone.now(),
    )
    with register_language():
        payload = {
            "date": timezone.localdate().isoformat(),
            "seance": "",
            "table": table.number,
            "difference": str(
                _("Activation : machine agréée %(approval)s, cagnotte n° %(cagnotte)s")
                % {"approval": activation.machine_approval, "cagnotte": activation.cagnotte_number}
            ),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    _bbj_write(est, actor=actor, role=role, payload=payload)
    return activation


def bad_beat_take_over_check(*, table: GamingTable, displayed: Decimal) -> BadBeatTable:
    """What the amount of a BBJ already running, taken over from paper, answers to: a jackpot
    activated at the table (COUNT-46) that has neither been counted here nor taken over before
    (REG-20: its registre continues from its last amount only once), a positive amount. Writes
    nothing; the jackpot."""
    jackpot = BadBeatTable.objects.filter(table=table).first()
    if jackpot is None:
        raise RuleViolation(
            "COUNT-46",
            _("Le bad beat jackpot n'est pas activé à la table %(table)s : activez-le avant d'en reprendre le montant.")
            % {"table": table.number},
        )
    if (
        BadBeatOpening.objects.filter(jackpot=jackpot).exists()
        or BadBeatCount.objects.filter(table_session__table=table).exists()
    ):
        raise RuleViolation(
            "REG-20",
            _("Le bad beat jackpot de la table %(table)s a déjà son montant inscrit : il ne se reprend plus.")
            % {"table": table.number},
        )
    if displayed < 0:
        raise ValidationError({"displayed": _("Un montant positif ou nul.")})
    return jackpot


@transaction.atomic
def bad_beat_take_over(
    *, table: GamingTable, displayed: Decimal, actor: AbstractBaseUser, source: str
) -> BadBeatOpening:
    """The amount a BBJ already running displays when the house takes it over from its paper
    registre (the balance of its cagnotte), written in the registre du bad beat jackpot citing the
    paper register and page (``source``): the next count's COUNT-24 check continues from it."""
    est = table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    displayed = amounts.money(displayed)
    jackpot = bad_beat_take_over_check(table=table, displayed=displayed)
    opening = BadBeatOpening.objects.create(
        jackpot=jackpot, displayed=displayed, source=source[:300], recorded_by=actor, recorded_at=timezone.now()
    )
    with register_language():
        event = _("Reprise de l'existant : montant affiché repris du registre papier (%(source)s)") % {"source": source}
    _entry(jackpot, actor=actor, role=role, event=event, displayed=str(displayed))
    return opening


@transaction.atomic
def bad_beat_record(
    *,
    session: TableSession,
    counted: Decimal,
    statement: Decimal,
    displayed: Decimal,
    present: Sequence[str],
    actor: AbstractBaseUser,
    comite: AbstractBaseUser | None,
) -> BadBeatCount:
    """The BBJ cagnotte counted at the end of the partie before the table employees, the cashier
    and a comité member (COUNT-21); the cashier enters the retenue at once against the statement the
    comité member certifies (COUNT-22); the higher amount is retained, a surplus keyed into the
    machine, a shortfall borne by the cash desk (COUNT-23, INC-10); the amount displayed is entered
    and validated by the comité member (COUNT-24)."""
    session = TableSession.objects.select_related("seance", "table").get(pk=session.pk)
    est = session.seance.establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le bad beat jackpot est une règle française."))
    role = role_named_by_text(
        actor, est, CASHIERS, "COUNT-22", _("Le caissier inscrit la retenue au registre du bad beat jackpot.")
    )
    if comite is None or comite.pk == actor.pk:
        raise RuleViolation(
            "COUNT-21",
            _(
                "Le comptage se fait en présence d'un membre du comité de direction, qui "
                "certifie le relevé et valide le montant affiché."
            ),
        )
    role_named_by_text(
        comite,
        est,
        (Role.COMITE,),
        "COUNT-22",
        _("Le relevé informatique est certifié par un membre du comité de direction."),
    )
    present = [name.strip() for name in present if name.strip()]
    if not present:
        raise RuleViolation("COUNT-21", _("Inscrivez les employés de la table présents au comptage."))
    if session.status != TableSession.Status.CLOSED:
        raise RuleViolation("COUNT-21", _("La cagnotte du bad beat jackpot se compte à la fin de la partie."))
    if BadBeatCount.objects.filter(table_session=session).exists():
        raise ValidationError(_("Le bad beat jackpot de cette partie est déjà inscrit."))
    counted, statement, displayed = amounts.money(counted), amounts.money(statement), amounts.money(displayed)
    retained = max(counted, statement)
    covering = selectors.stop_covering(session) if retained else None
    if covering is not None and covering.kind == BadBeatStop.Kind.BREAKDOWN:
        raise RuleViolation(
            "COUNT-47",
            _(
                "Le système du bad beat jackpot était en panne pendant toute la partie "
                "(INC-15) : aucune retenue d'incrémentation n'a pu être prélevée."
            ),
        )
    if covering is not None:
        raise RuleViolation(
            "COUNT-47",
            _(
                "Le bad beat jackpot était arrêté volontairement pendant toute la partie : "
                "aucune retenue d'incrémentation n'a pu être prélevée."
            ),
        )
    flags = []
    jackpot = getattr(session.table, "bad_beat_jackpot", None)  # the reverse one-to-one raises when there is none
    expected = selectors.expected_display(jackpot, retained=retained) if jackpot else None
    if expected is not None and expected["expected"] != displayed:
        with register_language():
            flags.append(
                str(
                    _(
                        "COUNT-24 : montant affiché %(displayed)s € ≠ %(previous)s € précédent + %(retained)s € "
                        "de retenues − %(paid)s € payés + %(restarted)s € de redémarrage = %(expected)s €."
                    )
                    % {"displayed": displayed, **expected}
                )
            )
    recorded_at = timezone.now()
    delay = est.setting("COUNT-22")
    if delay is not None and session.closed_at and recorded_at - session.closed_at > datetime.timedelta(minutes=delay):
        with register_language():
            flags.append(
                str(
                    _(
                        "COUNT-22 : retenue inscrite %(minutes)s min après la fin de la partie (délai "
                        "fixé : %(delay)s min)."
                    )
                    % {"minutes": int((recorded_at - session.closed_at).total_seconds() // 60), "delay": delay}
                )
            )
    record = BadBeatCount.objects.create(
        table_session=session,
        counted=counted,
        statement=statement,
        retained=retained,
        adjustment=max(counted - statement, Decimal("0.00")),
        contribution=max(statement - counted, Decimal("0.00")),
        displayed=displayed,
        present=present,
        flags=flags,
        cashier=actor,
        comite=comite,
        recorded_at=recorded_at,
    )
    with register_language():
        if record.adjustment:
            difference = str(
                _("INC-10 : excédent de %(amount)s € saisi en retenue complémentaire par le croupier.")
                % {"amount": record.adjustment}
            )
        elif record.contribution:
            difference = str(
                _("INC-10 : manquant de %(amount)s € supporté par la caisse de l'établissement.")
                % {"amount": record.contribution}
            )
        else:
            difference = ""
        payload = {
            **_session_fields(session),
            "counted": str(counted),
            "statement": str(statement),
            "retained": str(record.retained),
            "difference": difference,
            "displayed": str(displayed),
            "present": present,
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
            "comite": f"{display_name(comite)} ({Role(Role.COMITE).label})",
            "flags": flags,
        }
    _bbj_write(est, actor=actor, role=role, payload=payload)
    if counted != statement:
        # The comité member present at the count opens it: the cashier does not write the incidents register.
        _difference_incident(
            session,
            rules.BBJ_DIFFERENCE.code,
            actor=comite,
            text=_("Bad beat jackpot de la table %(table)s : cagnotte %(counted)s €, relevé certifié %(statement)s €.")
            % {"table": session.table.number, "counted": counted, "statement": statement},
        )
    return record


def _difference_incident(session: TableSession, category: str, *, actor: AbstractBaseUser, text: Any) -> None:
    """A count that differs from its computation opens an incident on the table-partie (INC-10, INC-17, INC-01)."""
    with register_language():
        description = str(text)
    incident_open(
        establishment=session.seance.establishment,
        category=category,
        actor=actor,
        description=description,
        table_session=session,
    )
