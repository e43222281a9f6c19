"""The registre de contrôle (modèle 12): the day's closing and its visas."""

from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next, register_language, visa_sign

from .. import selectors
from ..models import CagnotteCount, ControlDay
from ..registers import (
    REGISTRE_CONTROLE,
)
from .common import _session_fields

CONTROL_KEEPERS = (Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE)


CONTROL_VISAS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


@transaction.atomic
def control_day_close(*, establishment: Establishment, date, actor: AbstractBaseUser) -> ControlDay:
    """Carry the day's certified results, table by table and séance by séance, to the registre de
    contrôle, with a running total, and close the day in words (COUNT-50, COUNT-56). No direct
    entry exists: every line comes from a certified carnet."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, CONTROL_KEEPERS)
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le registre de contrôle est un registre français."))
    if ControlDay.objects.filter(establishment=est, date=date).exists():
        raise ValidationError(_("Cette journée est déjà arrêtée."))
    pending = ControlDay.objects.filter(establishment=est, date__lt=date, status=ControlDay.Status.CLOSED).first()
    if pending is not None:
        raise RuleViolation(
            "COUNT-56",
            _("La journée du %(day)s n'a pas reçu ses deux visas : la journée suivante ne peut être reportée.")
            % {"day": pending},
        )
    sessions = list(selectors.sessions_with_floats(est, date))
    cagnottes = list(selectors.cagnottes_on(est, date))
    devices = selectors.device_days_to_carry(est, date)
    cercle_devices = list(selectors.cercle_device_days_on(est, date))
    if not sessions and not cagnottes and not devices and not cercle_devices:
        raise ValidationError(_("Aucune table n'a joué ce jour-là."))
    unvisaed = [device.number for device, visaed in devices if visaed is None]
    if unvisaed:
        raise RuleViolation(
            "COUNT-51",
            _(
                "Registre de comptabilité modèle 10 bis non visé ce jour par un membre du "
                "comité de direction : %(devices)s."
            )
            % {"devices": ", ".join(unvisaed)},
        )
    uncertified_devices = [day.device.number for day in cercle_devices if day.certified_at is None]
    if uncertified_devices:
        raise RuleViolation(
            "COUNT-55",
            _("Carnet modèle 11 quater non certifié exact par un membre du comité de direction : %(devices)s.")
            % {"devices": ", ".join(uncertified_devices)},
        )
    uncertified = [s for s in sessions if not selectors.is_certified(s)]
    if uncertified:
        raise RuleViolation(
            "COUNT-50",
            _(
                "Résultats non certifiés au carnet d'avances : %(tables)s. Seul un carnet "
                "arrêté et certifié est reporté."
            )
            % {"tables": ", ".join(f"{s.table.number} ({s.seance})" for s in uncertified)},
        )
    uncounted = [c for c in cagnottes if c.status != CagnotteCount.Status.COUNTED]
    if uncounted:
        raise RuleViolation(
            "COUNT-53",
            _("Cagnottes non comptées au carnet modèle 11 : %(tables)s.")
            % {"tables": ", ".join(c.table_session.table.number for c in uncounted)},
        )
    # Contrepartie results from the carnets d'avances, cercle products from col. 15 of modèle 11,
    # each table on its own line: no compensation between them (art. 71, 72).
    lines = sorted(
        [(s, s.count.result) for s in sessions] + [(c.table_session, c.retained) for c in cagnottes],
        key=lambda line: (line[0].seance.opened_at, line[0].table.number),
    )
    register = current_register(est, REGISTRE_CONTROLE.code)
    totals = {Family.CONTREPARTIE: Decimal("0.00"), Family.CERCLE: Decimal("0.00")}
    carried = Decimal("0.00")
    with register_language():
        for session, result in lines:
            carried += result
            totals[session.table.game_info.family] += result
            entry_append(
                register=register,
                actor=actor,
                role=role,
                payload={
                    **_session_fields(session),
                    "game": str(session.table.get_game_display()),
                    "family": session.table.game_info.family,
                    "result": str(result),
                    "carried": str(carried),
                },
            )
        # Electronic contrepartie devices: the product of each visaed modèle 10 bis day (art. 70-1).
        for device, visaed in devices:
            carried += visaed.product
            totals[Family.CONTREPARTIE] += visaed.product
            entry_append(
                register=register,
                actor=actor,
                role=role,
                payload={
                    "date": date.isoformat(),
                    "table": device.number,
                    "game": device.game,
                    "family": Family.CONTREPARTIE,
                    "result": str(visaed.product),
                    "carried": str(carried),
                },
            )
        # Electronic cercle devices: the levies certified in carnet 11 quater (art. 71-1).
        for day in cercle_devices:
            carried += day.levies
            totals[Family.CERCLE] += day.levies
            entry_append(
                register=register,
                actor=actor,
                role=role,
                payload={
                    "date": date.isoformat(),
                    "table": day.device.number,
                    "game": day.device.game,
                    "family": Family.CERCLE,
                    "result": str(day.levies),
                    "carried": str(carried),
                },
            )
    total = carried
    previous = selectors.previous_control_day(est, date)
    season_total = total + (previous.season_total if previous else Decimal("0.00"))
    day = save_audited(
        ControlDay(
            establishment=est,
            date=date,
            contrepartie_total=totals[Family.CONTREPARTIE],
            cercle_total=totals[Family.CERCLE],
            total=total,
            total_words=amounts.amount_in_words(total),
            season_total=season_total,
            closed_by=actor,
            closed_at=timezone.now(),
        ),
        actor=actor,
        reason="arrêté de la journée",
    )
    with register_language():
        entry_append(
            register=register,
            actor=actor,
            role=role,
            payload={
                "date": date.isoformat(),
                "event": str(_("Arrêté de la journée")),
                "result": str(total),
                "carried": str(season_total),
                "contrepartie": str(day.contrepartie_total),
                "cercle": str(day.cercle_total),
                "total_words": str(
                    _("Arrêté le présent registre à la somme de %(words)s.") % {"words": day.total_words}
                ),
            },
        )
    return day


@transaction.atomic
def control_day_visa(*, day: ControlDay, actor: AbstractBaseUser, statement: str = "") -> ControlDay:
    """One of the two daily visas: the directeur responsable (or the comité member replacing him)
    and another comité member, two different persons (art. 72, COUNT-56)."""
    day = ControlDay.objects.select_for_update().get(pk=day.pk)
    est = day.establishment
    role = role_named_by_text(
        actor,
        est,
        CONTROL_VISAS,
        "COUNT-56",
        _("Le registre de contrôle est visé par le directeur responsable et un autre membre du comité de direction."),
    )
    if day.status == ControlDay.Status.VISAED:
        raise ValidationError(_("Cette journée porte déjà ses deux visas."))
    if any(visa["user"] == actor.pk for visa in day.visas):
        raise RuleViolation("COUNT-56", _("Les deux visas sont donnés par deux personnes différentes."))
    register = current_register(est, REGISTRE_CONTROLE.code)
    seq = entry_seq_next(register)
    day.visas = [*day.visas, {"user": actor.pk, "name": display_name(actor), "role": role, "seq": seq}]
    if len(day.visas) == 2:
        day.status = ControlDay.Status.VISAED
    save_audited(day, actor=actor, reason="visa")
    visa_sign(
        register=register,
        actor=actor,
        up_to_seq=seq - 1,
        statement=statement or str(_("Vu, journée du %(day)s.") % {"day": day}),
    )
    return day
