"""Slot machines (appareils automatiques): the models, one module per topic."""

from .accounting import AccountingLine, MachineAvance, MeterStatement, MonthlyStatement
from .cashdesk import (
    ChangeAssignment,
    ChangeMovement,
    ChangePoint,
    CommonDeskValidation,
    CounterfeitDestruction,
    CounterfeitItem,
    EncaisseJustification,
)
from .counts import SlotCount, SlotCountLine
from .interventions import DailyTransmittal, Intervention, SfmVisit, StaffApproval
from .jpm import IncrementBon, JpmReading, JpmTransmission, JpmWin
from .machines import USER, Machine, MachineMove, MachineMoveNotice, Medium, Place, Socle, TechnicalSheet
from .meters import Meter, MeterCode, RamClear, meter_key
from .monitoring import FileCopy, MonitoringEvent, Orphan
from .payments import JackpotPayment, JackpotThreshold, PaymentDispute, PaymentMethod, TopUp
from .progressives import Progressive, ProgressiveReading, ProgressiveStop, ProgressiveStopNotice
from .releves import BoxExchange, DropCount, MeterReading, Releve
from .staffing import SlotStaffing
from .tickets import Reconciliation, ReconciliationLine, Ticket

__all__ = [
    "USER",
    "AccountingLine",
    "BoxExchange",
    "ChangeAssignment",
    "ChangeMovement",
    "ChangePoint",
    "CommonDeskValidation",
    "CounterfeitDestruction",
    "CounterfeitItem",
    "DailyTransmittal",
    "DropCount",
    "EncaisseJustification",
    "FileCopy",
    "IncrementBon",
    "Intervention",
    "JackpotPayment",
    "JackpotThreshold",
    "JpmReading",
    "JpmTransmission",
    "JpmWin",
    "Machine",
    "MachineAvance",
    "MachineMove",
    "MachineMoveNotice",
    "Medium",
    "Meter",
    "MeterCode",
    "MeterReading",
    "MeterStatement",
    "MonitoringEvent",
    "MonthlyStatement",
    "Orphan",
    "PaymentDispute",
    "PaymentMethod",
    "Place",
    "Progressive",
    "ProgressiveReading",
    "ProgressiveStop",
    "ProgressiveStopNotice",
    "RamClear",
    "Reconciliation",
    "ReconciliationLine",
    "Releve",
    "SfmVisit",
    "SlotCount",
    "SlotCountLine",
    "SlotStaffing",
    "Socle",
    "StaffApproval",
    "TechnicalSheet",
    "Ticket",
    "TopUp",
    "meter_key",
]
