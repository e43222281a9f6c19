"""FR electronic contrepartie games (art. 69 b, 70-1, COUNT-51): one registre de comptabilité
modèle 10 bis per device, numbered like it, where the cash desk writes each station's day; a
comité member visas the day, and only a visaed day's product is carried to modèle 12
(``services.control_day_close``). The monthly meter statement (modèle 33) is not kept here."""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, register_language, visa_sign

from . import rules
from .models import DeviceDay, ElectronicDevice, StationResult
from .registers import REGISTRE_10_BIS
from .services import _write


def station_product(*, avances: Decimal, physical_count: Decimal, electronic_count: Decimal,
                    tickets_issued: Decimal) -> Decimal:
    """Art. 70-1: the physical and electronic counts less the avances and the tickets issued."""
    return physical_count + electronic_count - avances - tickets_issued


@transaction.atomic
def device_register(*, establishment: Establishment, number: str, game: str, stations: int,
                    actor: AbstractBaseUser) -> ElectronicDevice:
    """An electronic contrepartie device and its stations; its modèle 10 bis is numbered like it."""
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le registre de comptabilité modèle 10 bis est français."))
    require_role(actor, establishment, DIRECTORATE)
    if not number.strip() or not game.strip() or stations < 1:
        raise ValidationError(_("Indiquez le numéro de l'appareil, le jeu pratiqué et le nombre de postes."))
    if ElectronicDevice.objects.filter(establishment=establishment, number=number.strip()).exists():
        raise impossible(_("L'appareil %(number)s est déjà inscrit.") % {"number": number.strip()})
    return ElectronicDevice.objects.create(establishment=establishment, number=number.strip(), game=game.strip(),
                                           stations=stations, recorded_by=actor, recorded_at=timezone.now())


@transaction.atomic
def station_result_record(*, device: ElectronicDevice, date: datetime.date, station: int, avances: Decimal,
                          physical_count: Decimal, units_in: int, units_out: int, unit_stake: Decimal,
                          tickets_issued: Decimal, actor: AbstractBaseUser,
                          product: Decimal | None = None) -> StationResult:
    """A station's day in the device's modèle 10 bis: the electronic count is (units in − units
    out) × unit stake, the product follows art. 70-1; a declared product that does not is refused."""
    device = ElectronicDevice.objects.select_related("establishment").get(pk=device.pk)
    est = device.establishment
    role = require_role(actor, est, REGISTRE_10_BIS.record_roles)
    if not 1 <= station <= device.stations:
        raise ValidationError(_("L'appareil %(number)s a les postes 1 à %(stations)s.")
                              % {"number": device.number, "stations": device.stations})
    if DeviceDay.objects.filter(device=device, date=date).exists():
        raise impossible(_("La journée du %(day)s de cet appareil est visée.") % {"day": f"{date:%d/%m/%Y}"})
    if StationResult.objects.filter(device=device, date=date, station=station).exists():
        raise impossible(_("Le poste %(station)s de cette journée est déjà inscrit.") % {"station": station})
    avances, physical, stake, tickets = (rules.money(v) for v in (avances, physical_count, unit_stake, tickets_issued))
    electronic = rules.within_money_limit(((units_in - units_out) * stake).quantize(rules.CENT))
    computed = rules.within_money_limit(station_product(avances=avances, physical_count=physical,
                                                        electronic_count=electronic, tickets_issued=tickets))
    if product is not None and Decimal(product).quantize(rules.CENT) != computed:
        raise RuleViolation("COUNT-51", _("Le produit du poste est égal à la comptée physique et électronique, "
                                          "diminuée des avances et des tickets émis : %(computed)s €.")
                            % {"computed": computed})
    result = StationResult.objects.create(
        device=device, date=date, station=station, avances=avances, physical_count=physical, units_in=units_in,
        units_out=units_out, unit_stake=stake, electronic_count=electronic, tickets_issued=tickets,
        product=computed, recorded_by=actor, recorded_at=timezone.now())
    with register_language():
        payload = {"date": date.isoformat(), "device": device.number, "station": station, "avances": str(avances),
                   "physical": str(physical), "electronic": str(_("(%(in)s − %(out)s) × %(stake)s € = %(amount)s €")
                                                               % {"in": units_in, "out": units_out, "stake": stake,
                                                                  "amount": electronic}),
                   "tickets": str(tickets), "product": str(computed),
                   "signed_by": f"{display_name(actor)} ({Role(role).label})"}
    _write(est, REGISTRE_10_BIS.code, actor=actor, role=role, payload=payload, qualifier=device.number)
    return result


@transaction.atomic
def device_day_visa(*, device: ElectronicDevice, date: datetime.date, actor: AbstractBaseUser) -> DeviceDay:
    """The daily visa of a comité member on the device's modèle 10 bis (COUNT-51): it covers the
    register up to its head and fixes the device's product of the day (Σ of its stations)."""
    device = ElectronicDevice.objects.select_related("establishment").get(pk=device.pk)
    est = device.establishment
    role_named_by_text(actor, est, (Role.COMITE,), "COUNT-51", _(
        "Le registre de comptabilité est visé chaque jour par un membre du comité de direction."))
    lines = StationResult.objects.filter(device=device, date=date)
    if not lines.exists():
        raise ValidationError(_("Aucun poste n'est inscrit pour cette journée."))
    if DeviceDay.objects.filter(device=device, date=date).exists():
        raise impossible(_("La journée du %(day)s de cet appareil est visée.") % {"day": f"{date:%d/%m/%Y}"})
    register = current_register(est, REGISTRE_10_BIS.code, device.number)
    last = register.entries.filter(kind="record", payload__date=date.isoformat()).order_by("-seq").first()
    if last is None:
        raise ValidationError(_("Aucun poste n'est inscrit pour cette journée."))
    entry: Entry = visa_sign(register=register, actor=actor, up_to_seq=last.seq, statement=str(
        _("Visa de la journée du %(day)s") % {"day": f"{date:%d/%m/%Y}"}))
    product = rules.within_money_limit(lines.aggregate(t=Sum("product"))["t"])
    return DeviceDay.objects.create(device=device, date=date, product=product,
                                    visa_seq=entry.seq, visaed_by=actor, visaed_at=timezone.now())

