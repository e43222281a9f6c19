"""Web pages of the table cash, one module per topic. Each form calls one service; a refusal shows its
requirement ID and article and keeps what was typed."""

from .baccara import BaccaraBankView, BankerView
from .bbj import (
    BadBeatBreakdownView,
    BadBeatConfigView,
    BadBeatFinalStopView,
    BadBeatJackpotMixin,
    BadBeatJackpotView,
    BadBeatLogView,
    BadBeatRestoreView,
    BadBeatResumeView,
    BadBeatStopNoticeView,
    BadBeatSuspendView,
    BadBeatView,
    BadBeatWinView,
)
from .cagnottes import CagnotteComputeView, CagnotteCountView, TableCagnotteView
from .changeurs import ChangeurFloatFixView, ChangeurFloatView
from .common import CashFormView, DayView
from .control import ControlView, ControlVisaView, ExceptionsView
from .counts import CertifyView, CountView, PotRakesView, RakeView
from .electronic import (
    CercleCertifyView,
    CercleDayView,
    DeviceFormView,
    DevicesView,
    DeviceVisaView,
    MeterStatementView,
    StationResultView,
)
from .floats import BoxHolderView, FixBankView, FloatView, RefaitThresholdView
from .levy import LevyMonthView
from .orphans import OrphanView, RestitutionView
from .plaques import ChipAllocateView, ChipSeriesView, PlaquesView
from .slips import CentraliseView, SfeAdvanceView, SlipBookView, SlipServeView, SlipVoidView, SlipWriteView
from .tickets import LevyMachineView, MachineHistoryView, TicketBookView, TicketStampView, TicketsView

__all__ = [
    "BaccaraBankView",
    "BadBeatBreakdownView",
    "BadBeatConfigView",
    "BadBeatFinalStopView",
    "BadBeatJackpotMixin",
    "BadBeatJackpotView",
    "BadBeatLogView",
    "BadBeatRestoreView",
    "BadBeatResumeView",
    "BadBeatStopNoticeView",
    "BadBeatSuspendView",
    "BadBeatView",
    "BadBeatWinView",
    "BankerView",
    "BoxHolderView",
    "CagnotteComputeView",
    "CagnotteCountView",
    "CashFormView",
    "CentraliseView",
    "CercleCertifyView",
    "CercleDayView",
    "CertifyView",
    "ChangeurFloatFixView",
    "ChangeurFloatView",
    "ChipAllocateView",
    "ChipSeriesView",
    "ControlView",
    "ControlVisaView",
    "CountView",
    "DayView",
    "DeviceFormView",
    "DeviceVisaView",
    "DevicesView",
    "ExceptionsView",
    "FixBankView",
    "FloatView",
    "LevyMachineView",
    "LevyMonthView",
    "MachineHistoryView",
    "MeterStatementView",
    "OrphanView",
    "PlaquesView",
    "PotRakesView",
    "RakeView",
    "RefaitThresholdView",
    "RestitutionView",
    "SfeAdvanceView",
    "SlipBookView",
    "SlipServeView",
    "SlipVoidView",
    "SlipWriteView",
    "StationResultView",
    "TableCagnotteView",
    "TicketBookView",
    "TicketStampView",
    "TicketsView",
]
