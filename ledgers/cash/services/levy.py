"""The carnet des prélèvements (modèle 13): the month's levy."""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts, hooks
from ledgers.core.authz import require_role
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.readable import euros
from ledgers.registers.selectors import current_register
from ledgers.registers.services import entry_append

from .. import rules
from ..models import ControlDay
from ..registers import (
    CARNET_PRELEVEMENTS,
)
from .control import CONTROL_KEEPERS


@transaction.atomic
def levy_month_close(
    *, establishment: Establishment, year: int, month: int, slot_total: Decimal | None, actor: AbstractBaseUser
) -> int:
    """The month's sheet of modèle 13: one line per day generated from a closed and visaed modèle 12
    day, the month's slot total from modèle 35, the gross product since the start of the season
    (COUNT-57). Returns the sheet number."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, CONTROL_KEEPERS)
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des prélèvements est un registre français."))
    # The slot total is carried from the certified modèle 35 (SLOT-56); a typed one must match it.
    certified = hooks.month_total(hooks.SLOT_STATEMENT_TOTAL, est, year, month)
    slot_total = certified if slot_total is None else slot_total
    if slot_total is None:
        raise RuleViolation("COUNT-57", _("Le mois ne se clôt qu'avec le total du modèle 35 des machines à sous."))
    if certified is not None and slot_total != certified:
        raise RuleViolation(
            "COUNT-57",
            _("Le total des machines à sous est celui du modèle 35 certifié : %(t)s €.") % {"t": euros(certified)},
        )
    register = current_register(est, CARNET_PRELEVEMENTS.code)
    sheet = rules.season_sheet(month)
    if register.entries.filter(kind="record", payload__sheet=sheet, payload__year=year, payload__month=month).exists():
        raise ValidationError(_("Cette feuille est déjà arrêtée."))
    days = ControlDay.objects.filter(establishment=est, date__year=year, date__month=month).order_by("date")
    unvisaed = [day for day in days if day.status != ControlDay.Status.VISAED]
    if unvisaed:
        raise RuleViolation(
            "COUNT-57",
            _(
                "Journées du registre de contrôle non visées : %(days)s. Seule une journée "
                "arrêtée et visée est reportée."
            )
            % {"days": ", ".join(map(str, unvisaed))},
        )
    first_day = datetime.date(year, month, 1)
    before = ControlDay.objects.filter(
        establishment=est, date__gte=rules.season_start(first_day), date__lt=first_day
    ).aggregate(total=Sum("total"))["total"] or Decimal("0.00")
    slots_before = sum(
        (
            Decimal(e.payload["slots"])
            for e in register.entries.filter(
                kind="record", payload__event="month", payload__season=rules.season_start(first_day).isoformat()
            )
        ),
        Decimal("0.00"),
    )
    season_total = before + slots_before
    base = {"sheet": sheet, "year": year, "month": month, "season": rules.season_start(first_day).isoformat()}
    for day in days:
        season_total += day.total
        entry_append(
            register=register,
            actor=actor,
            role=role,
            payload={
                **base,
                "event": "day",
                "date": day.date.isoformat(),
                "contrepartie": str(day.contrepartie_total),
                "cercle": str(day.cercle_total),
                "slots": "",
                "total": str(day.total),
                "season_total": str(season_total),
            },
        )
    slot_total = amounts.money(slot_total)
    season_total += slot_total
    month_total = sum((day.total for day in days), Decimal("0.00")) + slot_total
    entry_append(
        register=register,
        actor=actor,
        role=role,
        payload={
            **base,
            "event": "month",
            "date": "",
            "contrepartie": "",
            "cercle": "",
            "slots": str(slot_total),
            "total": str(month_total),
            "season_total": str(season_total),
        },
    )
    return sheet
