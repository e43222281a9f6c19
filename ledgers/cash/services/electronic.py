"""FR electronic games. Contrepartie (art. 69 b, 70-1, COUNT-51): one registre de comptabilité
modèle 10 bis per device, numbered like it, where the cash desk writes each station's day; a
comité member visas the day, and only a visaed day's product is carried to modèle 12
(``services.control_day_close``); each month the meters of its stations and its visaed product go
to the état mensuel du relevé des compteurs modèle 33 of the establishment.
Cercle (art. 69 c, 71-1, COUNT-55): the modèle 7 daily statement and the carnet 11 quater of the
device, whose levies a comité member certifies "certifié exact" before they are carried."""

import calendar
import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment
from ledgers.core.readable import euros
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_write, register_language, visa_sign

from ..models import CercleDeviceDay, DeviceDay, ElectronicDevice, ElectronicMeterStatement, StationResult
from ..registers import CARNET_11_QUATER, ETAT_JOURNALIER_7, ETAT_MENSUEL_33, REGISTRE_10_BIS


def _quater_write(est: Establishment, *, actor: AbstractBaseUser, role: str, payload: dict, qualifier: str) -> Entry:
    """Every line of the carnet modèle 11 quater (the device's volume, ``qualifier``) is written here."""
    return entry_write(
        establishment=est, kind=CARNET_11_QUATER.code, actor=actor, role=role, payload=payload, qualifier=qualifier
    )


def station_product(
    *, avances: Decimal, physical_count: Decimal, electronic_count: Decimal, tickets_issued: Decimal
) -> Decimal:
    """Art. 70-1: the physical and electronic counts less the avances and the tickets issued."""
    return physical_count + electronic_count - avances - tickets_issued


@transaction.atomic
def device_register(
    *,
    establishment: Establishment,
    number: str,
    game: str,
    stations: int,
    actor: AbstractBaseUser,
    family: str = ElectronicDevice.Family.CONTREPARTIE,
) -> ElectronicDevice:
    """An electronic game device and its stations; its modèle 10 bis (contrepartie) or 7 and 11
    quater (cercle) are numbered like it."""
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le registre de comptabilité modèle 10 bis est français."))
    require_role(actor, establishment, DIRECTORATE)
    if family not in ElectronicDevice.Family.values or not number.strip() or not game.strip() or stations < 1:
        raise ValidationError(_("Indiquez le numéro de l'appareil, le jeu pratiqué et le nombre de postes."))
    if ElectronicDevice.objects.filter(establishment=establishment, number=number.strip()).exists():
        raise impossible(_("L'appareil %(number)s est déjà inscrit.") % {"number": number.strip()})
    return ElectronicDevice.objects.create(
        establishment=establishment,
        family=family,
        number=number.strip(),
        game=game.strip(),
        stations=stations,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )


@transaction.atomic
def station_result_record(
    *,
    device: ElectronicDevice,
    date: datetime.date,
    station: int,
    avances: Decimal,
    physical_count: Decimal,
    units_in: int,
    units_out: int,
    unit_stake: Decimal,
    tickets_issued: Decimal,
    actor: AbstractBaseUser,
    product: Decimal | None = None,
) -> StationResult:
    """A station's day in the device's modèle 10 bis: the electronic count is (units in − units
    out) × unit stake, the product follows art. 70-1; a declared product that does not is refused."""
    device = ElectronicDevice.objects.select_related("establishment").get(pk=device.pk)
    est = device.establishment
    role = require_role(actor, est, REGISTRE_10_BIS.record_roles)
    if device.family != ElectronicDevice.Family.CONTREPARTIE:
        raise ValidationError(_("Le modèle 10 bis est celui des jeux de contrepartie électroniques."))
    if not 1 <= station <= device.stations:
        raise ValidationError(
            _("L'appareil %(number)s a les postes 1 à %(stations)s.")
            % {"number": device.number, "stations": device.stations}
        )
    if DeviceDay.objects.filter(device=device, date=date).exists():
        raise impossible(_("La journée du %(day)s de cet appareil est visée.") % {"day": f"{date:%d/%m/%Y}"})
    if StationResult.objects.filter(device=device, date=date, station=station).exists():
        raise impossible(_("Le poste %(station)s de cette journée est déjà inscrit.") % {"station": station})
    avances, physical, stake, tickets = (
        amounts.money(v) for v in (avances, physical_count, unit_stake, tickets_issued)
    )
    electronic = amounts.within_money_limit(((units_in - units_out) * stake).quantize(amounts.CENT))
    computed = amounts.within_money_limit(
        station_product(avances=avances, physical_count=physical, electronic_count=electronic, tickets_issued=tickets)
    )
    if product is not None and Decimal(product).quantize(amounts.CENT) != computed:
        raise RuleViolation(
            "COUNT-51",
            _(
                "Le produit du poste est égal à la comptée physique et électronique, "
                "diminuée des avances et des tickets émis : %(computed)s €."
            )
            % {"computed": euros(computed)},
        )
    result = StationResult.objects.create(
        device=device,
        date=date,
        station=station,
        avances=avances,
        physical_count=physical,
        units_in=units_in,
        units_out=units_out,
        unit_stake=stake,
        electronic_count=electronic,
        tickets_issued=tickets,
        product=computed,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    with register_language():
        payload = {
            "date": date.isoformat(),
            "device": device.number,
            "station": station,
            "avances": str(avances),
            "physical": str(physical),
            "electronic": str(
                _("(%(in)s − %(out)s) × %(stake)s € = %(amount)s €")
                % {"in": units_in, "out": units_out, "stake": stake, "amount": electronic}
            ),
            "tickets": str(tickets),
            "product": str(computed),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    entry_write(
        establishment=est, kind=REGISTRE_10_BIS.code, actor=actor, role=role, payload=payload, qualifier=device.number
    )
    return result


@transaction.atomic
def device_day_visa(*, device: ElectronicDevice, date: datetime.date, actor: AbstractBaseUser) -> DeviceDay:
    """The daily visa of a comité member on the device's modèle 10 bis (COUNT-51): it covers the
    register up to its head and fixes the device's product of the day (Σ of its stations)."""
    device = ElectronicDevice.objects.select_related("establishment").get(pk=device.pk)
    est = device.establishment
    role_named_by_text(
        actor,
        est,
        (Role.COMITE,),
        "COUNT-51",
        _("Le registre de comptabilité est visé chaque jour par un membre du comité de direction."),
    )
    lines = StationResult.objects.filter(device=device, date=date)
    if not lines.exists():
        raise ValidationError(_("Aucun poste n'est inscrit pour cette journée."))
    if DeviceDay.objects.filter(device=device, date=date).exists():
        raise impossible(_("La journée du %(day)s de cet appareil est visée.") % {"day": f"{date:%d/%m/%Y}"})
    register = current_register(est, REGISTRE_10_BIS.code, device.number)
    last = register.entries.filter(kind="record", payload__date=date.isoformat()).order_by("-seq").first()
    if last is None:
        raise ValidationError(_("Aucun poste n'est inscrit pour cette journée."))
    entry: Entry = visa_sign(
        register=register,
        actor=actor,
        up_to_seq=last.seq,
        statement=str(_("Visa de la journée du %(day)s") % {"day": f"{date:%d/%m/%Y}"}),
    )
    product = amounts.within_money_limit(lines.aggregate(t=Sum("product"))["t"])
    return DeviceDay.objects.create(
        device=device, date=date, product=product, visa_seq=entry.seq, visaed_by=actor, visaed_at=timezone.now()
    )


@transaction.atomic
def cercle_day_record(
    *, device: ElectronicDevice, date: datetime.date, parties: int, levies: Decimal, actor: AbstractBaseUser
) -> CercleDeviceDay:
    """An electronic cercle table's day: its modèle 7 daily statement and the levies written in
    its carnet 11 quater, the game named on every line (COUNT-55)."""
    device = ElectronicDevice.objects.select_related("establishment").get(pk=device.pk)
    est = device.establishment
    role = require_role(actor, est, ETAT_JOURNALIER_7.record_roles)
    if device.family != ElectronicDevice.Family.CERCLE:
        raise ValidationError(_("Le modèle 7 et le carnet 11 quater sont ceux des jeux de cercle électroniques."))
    if CercleDeviceDay.objects.filter(device=device, date=date).exists():
        raise impossible(_("La journée du %(day)s de cet appareil est déjà inscrite.") % {"day": f"{date:%d/%m/%Y}"})
    day = save_audited(
        CercleDeviceDay(
            device=device,
            date=date,
            parties=parties,
            levies=amounts.within_money_limit(amounts.money(levies)),
            recorded_by=actor,
            recorded_at=timezone.now(),
        ),
        actor=actor,
        reason="état journalier",
    )
    with register_language():
        payload = {
            "date": date.isoformat(),
            "device": device.number,
            "game": device.game,
            "parties": parties,
            "levies": str(day.levies),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
        entry_write(
            establishment=est,
            kind=ETAT_JOURNALIER_7.code,
            actor=actor,
            role=role,
            payload=payload,
            qualifier=device.number,
        )
        _quater_write(
            est,
            actor=actor,
            role=role,
            payload={**payload, "event": str(_("Retenues au profit de la cagnotte")), "certification": ""},
            qualifier=device.number,
        )
    return day


@transaction.atomic
def cercle_day_certify(*, day: CercleDeviceDay, words: str, actor: AbstractBaseUser) -> CercleDeviceDay:
    """The comité member writes "certifié exact" and signs in the observation column of the
    carnet 11 quater: only then is the amount carried to modèle 12 (COUNT-55)."""
    day = CercleDeviceDay.objects.select_for_update().select_related("device__establishment").get(pk=day.pk)
    est = day.device.establishment
    role = role_named_by_text(
        actor,
        est,
        (Role.COMITE,),
        "COUNT-55",
        _(
            "Les retenues sont annotées sous le contrôle et la responsabilité du membre du comité "
            "de direction, qui les "
            "certifie."
        ),
    )
    if day.certified_at is not None:
        raise impossible(_("Cette journée est déjà certifiée."))
    words = " ".join(words.lower().split())
    if words != "certifié exact":
        raise RuleViolation(
            "COUNT-55",
            _("Le membre du comité de direction porte la mention « certifié exact » suivie de sa signature."),
        )
    day.certified_by, day.certification, day.certified_at = actor, words, timezone.now()
    save_audited(day, actor=actor, reason="certifié exact")
    with register_language():
        payload = {
            "date": day.date.isoformat(),
            "device": day.device.number,
            "game": day.device.game,
            "event": str(_("Certification")),
            "levies": str(day.levies),
            "certification": f"{words} — {display_name(actor)}",
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    _quater_write(est, actor=actor, role=role, payload=payload, qualifier=day.device.number)
    return day


def meter_statement_lines(establishment: Establishment, year: int, month: int) -> list[dict]:
    """Modèle 33's lines: per contrepartie device, its stations' meters over the month's modèle 10 bis
    days (units in and out summed, the unit stakes, the electronic count) and the devices' product."""
    results = (
        StationResult.objects.filter(device__establishment=establishment, date__year=year, date__month=month)
        .select_related("device")
        .order_by("device__number", "station", "date")
    )
    devices: dict[ElectronicDevice, dict[int, list[StationResult]]] = {}
    for result in results:
        devices.setdefault(result.device, {}).setdefault(result.station, []).append(result)
    lines = []
    for device, stations in devices.items():
        rows = [r for station in stations.values() for r in station]
        lines.append(
            {
                "device": device.number,
                "game": device.game,
                "days": len({r.date for r in rows}),
                "product": str(sum((r.product for r in rows), Decimal("0.00"))),
                "stations": [
                    {
                        "station": number,
                        "units_in": sum(r.units_in for r in station),
                        "units_out": sum(r.units_out for r in station),
                        "unit_stake": " / ".join(sorted({str(r.unit_stake) for r in station})),
                        "electronic": str(sum((r.electronic_count for r in station), Decimal("0.00"))),
                    }
                    for number, station in stations.items()
                ],
            }
        )
    return lines


@transaction.atomic
def meter_statement_certify(
    *, establishment: Establishment, year: int, month: int, comite: AbstractBaseUser | None, actor: AbstractBaseUser
) -> ElectronicMeterStatement:
    """The état mensuel du relevé des compteurs modèle 33 (art. 69 b, COUNT-51), drawn up from the
    month's modèle 10 bis once the month is over: it takes only days a comité member has visaed
    (art. 70-1: the register is visaed every day), so a device day not visaed holds it. The text
    names no signer: the cash desk that keeps modèle 10 bis draws it up and the comité member who
    visas it certifies it with him (both sign electronically, art. 69)."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("L'état mensuel modèle 33 est tenu dans les casinos français."))
    role = require_role(actor, est, ETAT_MENSUEL_33.record_roles)
    if comite is None or comite.pk == actor.pk:
        raise RuleViolation(
            "COUNT-51",
            _("L'état est certifié par un membre du comité de direction avec son rédacteur."),
            article="Arrêté du 14 mai 2007 art. 69",
        )
    role_named_by_text(
        comite, est, (Role.COMITE,), "COUNT-51", _("L'état est certifié par un membre du comité de direction.")
    )
    last_day = datetime.date(year, month, calendar.monthrange(year, month)[1])
    if est.localtime().date() < last_day:
        raise ValidationError(_("L'état mensuel est établi à la fin du mois."))
    if ElectronicMeterStatement.objects.filter(establishment=est, year=year, month=month).exists():
        raise impossible(_("L'état mensuel du relevé des compteurs de ce mois est déjà certifié."))
    days = (
        StationResult.objects.filter(device__establishment=est, date__year=year, date__month=month)
        .values_list("device__number", "date")
        .distinct()
        .order_by("device__number", "date")
    )
    visaed = set(
        DeviceDay.objects.filter(device__establishment=est, date__year=year, date__month=month).values_list(
            "device__number", "date"
        )
    )
    missing = [f"{number} {date:%d/%m/%Y}" for number, date in days if (number, date) not in visaed]
    if missing:
        raise RuleViolation(
            "COUNT-51",
            _(
                "Le registre de comptabilité est visé chaque jour par un membre du comité "
                "de direction ; journées non visées : %(days)s."
            )
            % {"days": ", ".join(missing)},
            article="Arrêté du 14 mai 2007 art. 70-1",
        )
    lines = meter_statement_lines(est, year, month)
    if not lines:
        raise ValidationError(_("Aucun poste n'est inscrit au registre de comptabilité ce mois-ci."))
    total = amounts.within_money_limit(sum((Decimal(line["product"]) for line in lines), Decimal("0.00")))
    period = f"{month:02d}/{year}"
    with register_language():
        for line in lines:
            meters = " ; ".join(
                _("poste %(n)s : %(in)s / %(out)s × %(stake)s €")
                % {"n": s["station"], "in": s["units_in"], "out": s["units_out"], "stake": s["unit_stake"]}
                for s in line["stations"]
            )
            electronic = sum((Decimal(s["electronic"]) for s in line["stations"]), Decimal("0.00"))
            entry_write(
                establishment=est,
                kind=ETAT_MENSUEL_33.code,
                actor=actor,
                role=role,
                payload={
                    "month": period,
                    "device": line["device"],
                    "game": line["game"],
                    "meters": meters,
                    "electronic": str(electronic),
                    "product": line["product"],
                    "signed_by": "",
                },
            )
        signatures = f"{display_name(actor)} ({Role(role).label}) ; {display_name(comite)} ({Role.COMITE.label})"
        entry = entry_write(
            establishment=est,
            kind=ETAT_MENSUEL_33.code,
            actor=actor,
            role=role,
            payload={
                "month": period,
                "device": "",
                "game": str(_("Total du mois — certifié")),
                "meters": "",
                "electronic": "",
                "product": str(total),
                "signed_by": signatures,
            },
        )
    return ElectronicMeterStatement.objects.create(
        establishment=est,
        year=year,
        month=month,
        lines=lines,
        total=total,
        drawn_up_by=actor,
        comite=comite,
        certified_at=entry.recorded_at,
        entry=entry,
    )
