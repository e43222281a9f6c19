"""The slot rules that are data: the meter sets the texts require, the incident categories of the
slot room, the reconciliation thresholds."""

from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.incidents.categories import Category, incident_category
from ledgers.incidents.models import IncidentNotice

from .models import Medium, MeterCode

E, EM = "electronic", "electromechanical"

# INC-12: a meter anomaly (reset, rollback, failure). MC: the Direction decides (INC-01 default);
# FR: the police service is informed of anomalies (68-30, INC-16).
METER_ANOMALY = incident_category(
    Category(
        code="slot_meter",
        label=_("Anomalie de compteur de machine à sous"),
        requirement={"MC": "INC-12", "FR": "INC-12"},
        notices={"MC": (Role.DIRECTEUR_EXPLOITATION,), "FR": (Role.POLICE,)},
    )
)
# INC-06: the agents' hierarchy is the Direction des Casinos, which the control staff report to (art.
# 23), held in this system by the directeur des jeux; and the superviseur of the slot room.
SURVEILLANCE_INCIDENT = incident_category(
    Category(
        code="slot_surveillance",
        label=_("Incident constaté par un agent de surveillance des machines à sous"),
        requirement={"MC": "INC-06", "FR": "INC-06"},
        notices={"MC": (Role.DIRECTEUR_JEUX, Role.SUPERVISEUR)},
    )
)
# INC-16: urgent, the police is informed without delay (any channel); otherwise by written report.
URGENT_ANOMALY = incident_category(
    Category(
        code="slot_anomaly_urgent",
        label=_("Anomalie urgente d'une machine à sous ou d'un système agréé"),
        requirement={"MC": "INC-16", "FR": "INC-16"},
        notices={"FR": (Role.POLICE,)},
        notice_delay_setting={"FR": "INC-16"},  # "sans délai": informed later than the setting is flagged
    )
)
ANOMALY = incident_category(
    Category(
        code="slot_anomaly",
        label=_("Anomalie d'une machine à sous ou d'un système agréé"),
        requirement={"MC": "INC-16", "FR": "INC-16"},
        notices={"FR": (Role.POLICE,)},
        notice_channels={"FR": (IncidentNotice.Channel.WRITTEN,)},
    )
)

FR_MIN_DIGITS = 7  # SLOT-30, SLOT-31


def required_meters(jurisdiction: str, media: list[str], *, hopper: bool = False) -> list[tuple[str, str]]:
    """The (code, nature) pairs every station of a machine must have.

    MC (SLOT-05, 12, 13): in, out, jackpots; cash box on coin or chip machines; bills with a bill
    validator; ticket or card in/out with TITO or cards. The nature is free (electronic).
    FR type A (SLOT-30): in, receipts, out, jackpots, bills, each electronic and electromechanical.
    FR type B (SLOT-31): in and out in both natures; receipts, bills, jackpots electronic; ticket
    in/out on TITO; card in/out on card machines."""
    coins = bool({Medium.COINS, Medium.CHIPS} & set(media)) or hopper
    bills = Medium.BANKNOTES in media
    tito, card = Medium.TITO in media, Medium.CARD in media
    if jurisdiction == "MC":
        codes = [MeterCode.IN, MeterCode.OUT, MeterCode.JACKPOTS]
        codes += [MeterCode.CASH_BOX] if coins else []
        codes += [MeterCode.BILLS] if bills else []
        codes += [MeterCode.TICKET_IN, MeterCode.TICKET_OUT] if tito else []
        codes += [MeterCode.CARD_IN, MeterCode.CARD_OUT] if card else []
        return [(str(code), E) for code in codes]
    if not (tito or card):
        codes = [MeterCode.IN, MeterCode.CASH_BOX, MeterCode.OUT, MeterCode.JACKPOTS]
        codes += [MeterCode.BILLS] if bills else []
        return [(str(code), nature) for code in codes for nature in (E, EM)]
    pairs = [(str(code), nature) for code in (MeterCode.IN, MeterCode.OUT) for nature in (E, EM)]
    pairs += [(str(MeterCode.CASH_BOX), E), (str(MeterCode.BILLS), E), (str(MeterCode.JACKPOTS), E)]
    pairs += [(str(MeterCode.TICKET_IN), E), (str(MeterCode.TICKET_OUT), E)] if tito else []
    pairs += [(str(MeterCode.CARD_IN), E), (str(MeterCode.CARD_OUT), E)] if card else []
    return pairs


# Reconciliation of the meter deltas with the counted drop (SLOT-11): every difference is flagged
# (the text's FLAG). The texts fix no figure, so the Direction grades the differences with a
# threshold of its choice: a difference beyond its amount OR its percentage (the way US MICS set
# both) is graded "au-delà du seuil". Until it chooses one, nothing is graded.
NO_GRADING: dict[str, Decimal | None] = {"amount": None, "percent": None}
VARIANCE_PRESETS: dict[str, dict[str, Decimal | None]] = {
    "5pc_200": {"amount": Decimal("200"), "percent": Decimal("5")},
    "3pc_150": {"amount": Decimal("150"), "percent": Decimal("3")},
    "strict_2pc": {"amount": None, "percent": Decimal("2")},
    "strict_100": {"amount": Decimal("100"), "percent": None},
    "strict_2pc_100": {"amount": Decimal("100"), "percent": Decimal("2")},
}
VARIANCE_PRESET_LABELS = {
    "5pc_200": _("5 % ou 200 €"),
    "3pc_150": _("3 % ou 150 €"),
    "strict_2pc": _("Strict : 2 %"),
    "strict_100": _("Strict : 100 €"),
    "strict_2pc_100": _("Strict : 2 % ou 100 €"),
}

# A fall in a meter's value is read as a rollover at capacity only when the increase it implies
# (capacity − previous + value) is less than half the capacity: a small fall is a rollback.
ROLLOVER_MAX_SHARE = Decimal("0.5")
