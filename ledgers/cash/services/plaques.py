"""FR registre des plaques, jetons et cartes de paiement, modèle 16 (art. 81, COUNT-58, REG-36):
the series put into service, their split between the general reserve and the service, and the
census taken at the start and in the middle of each season (SET-45).

The amount "taken in charge" is the face value of the series in service (the reserve is not in
circulation); the census counts the pieces found at the change desks, the tables and the cash
desks, so the difference is what players hold, which must equal the credit balance of the
"plaques, jetons et cartes de paiement" account (flagged otherwise). Payment cards have no face
value: they are counted, not valued."""

import datetime
from collections.abc import Iterable
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment
from ledgers.core.readable import euros
from ledgers.registers.services import register_language

from .. import breakdowns, rules
from ..models import ChipCensus, ChipSeries
from ..registers import REGISTRE_PLAQUES
from .common import _dated_entry

PLAQUE_KEEPERS = REGISTRE_PLAQUES.record_roles


def _fr(est: Establishment) -> None:
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le registre des plaques, jetons et cartes de paiement (modèle 16) est français."))


def _clean_pieces(kind: str, pieces: Iterable[dict]) -> list[dict]:
    """One series' values and number per value, as a nomenclature of its own kind of piece."""
    lines = breakdowns.clean_breakdown([{**line, "kind": kind} for line in pieces])
    return [{"value": line["value"], "quantity": line["quantity"]} for line in lines]


def series_value(series: ChipSeries) -> Decimal:
    """The face value of one series (payment cards: none)."""
    return sum((Decimal(p["value"]) * p["quantity"] for p in series.pieces), Decimal("0.00"))


def taken_in_charge(est: Establishment) -> Decimal:
    return sum(
        (series_value(s) * s.in_service_series for s in ChipSeries.objects.filter(establishment=est)), Decimal("0.00")
    )


def _pieces_text(series: ChipSeries) -> str:
    if series.kind == ChipSeries.Kind.CARTE:
        return str(_("%(cards)s cartes par série") % {"cards": series.cards_per_series})
    return " ; ".join(f"{p['quantity']} × {p['value']} €" for p in series.pieces)


def _series_text(series: ChipSeries) -> str:
    return str(
        _("%(total)s séries : %(reserve)s en réserve, %(service)s en service")
        % {"total": series.series_count, "reserve": series.reserve_series, "service": series.in_service_series}
    )


@transaction.atomic
def chip_series_record(
    *,
    establishment: Establishment,
    kind: str,
    description: str,
    manufacturer: str,
    series_count: int,
    reserve_series: int,
    actor: AbstractBaseUser,
    pieces: Iterable[dict] = (),
    cards_per_series: int = 0,
) -> ChipSeries:
    """Series put into service, written in modèle 16 with their description, manufacturer,
    number, values and number per value, and how many stay in the general reserve (COUNT-58)."""
    _fr(establishment)
    role = require_role(actor, establishment, PLAQUE_KEEPERS)
    if kind not in ChipSeries.Kind.values:
        raise ValidationError(_("Nature inconnue."))
    if not description.strip() or not manufacturer.strip():
        raise RuleViolation(
            "COUNT-58", _("Le registre comporte une description sommaire des séries et l'indication du fabricant.")
        )
    if series_count < 1 or not 0 <= reserve_series <= series_count:
        raise ValidationError(_("Le nombre de séries à la réserve est compris entre 0 et le nombre de séries."))
    if kind == ChipSeries.Kind.CARTE:
        if cards_per_series < 1:
            raise ValidationError(_("Indiquez le nombre de cartes de paiement par série."))
        lines: list[dict] = []
    else:
        # For plaques and chips the register gives the values of each series and the number per value.
        lines = _clean_pieces(kind, pieces)
        cards_per_series = 0
    amounts.within_money_limit(sum((Decimal(p["value"]) * p["quantity"] for p in lines), Decimal(0)) * series_count)
    series = save_audited(
        ChipSeries(
            establishment=establishment,
            kind=kind,
            description=description.strip(),
            manufacturer=manufacturer.strip(),
            series_count=series_count,
            pieces=lines,
            cards_per_series=cards_per_series,
            reserve_series=reserve_series,
            in_service_series=series_count - reserve_series,
            recorded_by=actor,
            recorded_at=timezone.now(),
        ),
        actor=actor,
        reason="séries mises en service",
    )
    with register_language():
        payload = {
            "event": str(_("Séries mises en service")),
            "series_id": series.pk,
            "kind": str(series.get_kind_display()),
            "description": f"{series.description} — {series.manufacturer}",
            "series": _series_text(series),
            "pieces": _pieces_text(series),
            "amounts": str(series_value(series) * series.in_service_series),
            "flags": [],
        }
    _dated_entry(establishment, REGISTRE_PLAQUES.code, actor=actor, role=role, payload=payload)
    return series


@transaction.atomic
def chip_series_allocate(*, series: ChipSeries, in_service_series: int, actor: AbstractBaseUser) -> ChipSeries:
    """Series moved between the general reserve and the service at the change desks and tables."""
    series = ChipSeries.objects.select_for_update().select_related("establishment").get(pk=series.pk)
    est = series.establishment
    role = require_role(actor, est, PLAQUE_KEEPERS)
    if not 0 <= in_service_series <= series.series_count:
        raise ValidationError(_("Le nombre de séries en service est compris entre 0 et le nombre de séries."))
    if in_service_series == series.in_service_series:
        raise impossible(_("Ces séries sont déjà ainsi réparties."))
    series.in_service_series = in_service_series
    series.reserve_series = series.series_count - in_service_series
    save_audited(series, actor=actor, reason="répartition réserve / service")
    with register_language():
        payload = {
            "event": str(_("Répartition entre la réserve générale et le service")),
            "series_id": series.pk,
            "kind": str(series.get_kind_display()),
            "description": f"{series.description} — {series.manufacturer}",
            "series": _series_text(series),
            "pieces": _pieces_text(series),
            "amounts": str(series_value(series) * series.in_service_series),
            "flags": [],
        }
    _dated_entry(est, REGISTRE_PLAQUES.code, actor=actor, role=role, payload=payload)
    return series


def census_dates(est: Establishment, season: datetime.date) -> dict[str, datetime.date]:
    """The start and mid-season census dates of the season beginning on ``season`` (SET-45)."""
    setting = est.setting("SET-45")
    dates = {}
    for period, (month, day) in setting.items():
        year = season.year if (month, day) >= (season.month, season.day) else season.year + 1
        dates[period] = datetime.date(year, month, day)
    return dates


def census_period(est: Establishment, day: datetime.date) -> tuple[datetime.date, str]:
    """(season, period) a census taken on ``day`` belongs to: the mid-season one from its date on."""
    season = rules.season_start(day)
    middle = census_dates(est, season)[ChipCensus.Period.MIDDLE]
    return season, ChipCensus.Period.MIDDLE if day >= middle else ChipCensus.Period.START


def censuses_due(est: Establishment, today: datetime.date | None = None) -> list[tuple[datetime.date, str]]:
    """The censuses of the current season whose date has come and that are not recorded (COUNT-58)."""
    if est.jurisdiction != "FR":
        return []
    today = today or timezone.localdate()
    season = rules.season_start(today)
    done = set(ChipCensus.objects.filter(establishment=est, season=season).values_list("period", flat=True))
    return sorted(
        (due, period) for period, due in census_dates(est, season).items() if due <= today and period not in done
    )


@transaction.atomic
def chip_census_record(
    *,
    establishment: Establishment,
    census_date: datetime.date,
    counted: Iterable[dict],
    counted_by: str,
    account_balance: Decimal,
    actor: AbstractBaseUser,
) -> ChipCensus:
    """The census of the plaques, chips and payment cards in service, written in modèle 16 with
    the amount players hold (taken in charge − counted); FLAG when it differs from the credit
    balance of the "plaques, jetons et cartes de paiement" account (COUNT-58)."""
    _fr(establishment)
    role = require_role(actor, establishment, PLAQUE_KEEPERS)
    Establishment.objects.select_for_update().get(pk=establishment.pk)  # one census per period at a time
    if census_date > timezone.localdate():
        raise ValidationError(_("Un recensement ne se date pas dans l'avenir."))
    season, period = census_period(establishment, census_date)
    if ChipCensus.objects.filter(establishment=establishment, season=season, period=period).exists():
        raise impossible(_("Le recensement de cette période de la saison est déjà inscrit."))
    if not counted_by.strip():
        raise RuleViolation("COUNT-58", _("Indiquez qui a procédé au recensement."))
    all_series = {s.pk: s for s in ChipSeries.objects.filter(establishment=establishment)}
    lines, total = [], Decimal("0.00")
    for line in counted:
        series = all_series.get(int(getattr(line["series"], "pk", line["series"])))
        if series is None:
            raise ValidationError(_("Série inconnue dans cet établissement."))
        quantity = int(line["quantity"])
        if quantity < 0:
            raise ValidationError(_("Quantité invalide."))
        if series.kind == ChipSeries.Kind.CARTE:
            value = Decimal("0.00")
        else:
            value = amounts.money(line.get("value"))
            if str(value) not in {p["value"] for p in series.pieces}:
                raise ValidationError(
                    _("La série %(series)s n'a pas de valeur %(value)s €.") % {"series": series, "value": euros(value)}
                )
        lines.append({"series": series.pk, "label": str(series), "value": str(value), "quantity": quantity})
        total += value * quantity
    if not lines:
        raise ValidationError(_("Indiquez les pièces recensées."))
    charged = amounts.within_money_limit(taken_in_charge(establishment))
    held = charged - amounts.within_money_limit(total)
    balance = Decimal(account_balance).quantize(amounts.CENT)
    flags = []
    with register_language():
        if held != balance:
            flags.append(
                str(
                    _(
                        "Montant conservé par les joueurs (%(held)s €) différent du solde créditeur du compte "
                        "« plaques, jetons et cartes de paiement » (%(balance)s €)."
                    )
                    % {"held": held, "balance": balance}
                )
            )
    census = ChipCensus.objects.create(
        establishment=establishment,
        season=season,
        period=period,
        census_date=census_date,
        lines=lines,
        counted_total=total,
        taken_in_charge=charged,
        player_held=held,
        account_balance=balance,
        counted_by=counted_by.strip(),
        flags=flags,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    with register_language():
        payload = {
            "event": str(_("Recensement : %(period)s") % {"period": census.get_period_display()}),
            "date": census_date.isoformat(),
            "census": census.pk,
            "pieces": " ; ".join(f"{line['label']} : {line['quantity']} × {line['value']} €" for line in lines),
            "amounts": str(
                _(
                    "pris en charge %(charged)s € ; recensé %(total)s € ; conservé par les joueurs "
                    "%(held)s € ; solde du compte %(balance)s €"
                )
                % {"charged": charged, "total": total, "held": held, "balance": balance}
            ),
            "counted_by": census.counted_by,
            "flags": flags,
        }
    _dated_entry(establishment, REGISTRE_PLAQUES.code, actor=actor, role=role, payload=payload)
    return census
