"""The table cash: the models, one module per topic."""

from .baccara import BaccaraBank, BankerSegment
from .bbj import (
    BadBeatConfig,
    BadBeatCount,
    BadBeatLog,
    BadBeatOpening,
    BadBeatStop,
    BadBeatStopNotice,
    BadBeatTable,
    BadBeatWin,
)
from .cagnottes import CagnotteCount, TableCagnotte
from .changeurs import ChangeurFloat, ChangeurFloatFix
from .control import ControlDay
from .counts import TableCount
from .electronic import CercleDeviceDay, DeviceDay, ElectronicDevice, ElectronicMeterStatement, StationResult
from .floats import MONEY, BoxHolderDesignation, TableBox, TableFloat
from .orphans import Orphan
from .plaques import ChipCensus, ChipSeries
from .rakes import PotRake
from .slips import SfeAdvance, Slip, SlipBook
from .tickets import CardTableNumber, LevyMachine, TicketBook, TicketStamp

__all__ = [
    "MONEY",
    "BaccaraBank",
    "BadBeatConfig",
    "BadBeatCount",
    "BadBeatLog",
    "BadBeatOpening",
    "BadBeatStop",
    "BadBeatStopNotice",
    "BadBeatTable",
    "BadBeatWin",
    "BankerSegment",
    "BoxHolderDesignation",
    "CagnotteCount",
    "CardTableNumber",
    "CercleDeviceDay",
    "ChangeurFloat",
    "ChangeurFloatFix",
    "ChipCensus",
    "ChipSeries",
    "ControlDay",
    "DeviceDay",
    "ElectronicDevice",
    "ElectronicMeterStatement",
    "LevyMachine",
    "Orphan",
    "PotRake",
    "SfeAdvance",
    "Slip",
    "SlipBook",
    "StationResult",
    "TableBox",
    "TableCagnotte",
    "TableCount",
    "TableFloat",
    "TicketBook",
    "TicketStamp",
]
