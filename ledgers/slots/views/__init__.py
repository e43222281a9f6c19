"""Web pages of the slot room, one module per topic."""

from .common import ServiceFormView, SlotsView
from .interventions import (
    ApprovalView,
    InterventionCloseView,
    InterventionNewView,
    InterventionOpenView,
    SfmVisitView,
    TransmittalView,
)
from .machines import (
    HopperLidView,
    MachineDetailView,
    MachineFormView,
    MachineListView,
    MachineRegisterView,
    MoveNoticeView,
    MoveView,
    SheetView,
    SocleCreateView,
    SocleWithdrawView,
)
from .meters import RamClearView
from .monitoring import EventsImportView, FilesCopyView, OrphanView
from .payments import DisputeView, JackpotThresholdView, JackpotView, TopUpView
from .releves import (
    BoxView,
    CountView,
    ImportView,
    ReleveCloseView,
    ReleveDetailView,
    ReleveFormView,
    ReleveOpenView,
    VarianceThresholdView,
)

__all__ = [
    "ApprovalView",
    "BoxView",
    "CountView",
    "DisputeView",
    "EventsImportView",
    "FilesCopyView",
    "HopperLidView",
    "ImportView",
    "InterventionCloseView",
    "InterventionNewView",
    "InterventionOpenView",
    "JackpotThresholdView",
    "JackpotView",
    "MachineDetailView",
    "MachineFormView",
    "MachineListView",
    "MachineRegisterView",
    "MoveNoticeView",
    "MoveView",
    "OrphanView",
    "RamClearView",
    "ReleveCloseView",
    "ReleveDetailView",
    "ReleveFormView",
    "ReleveOpenView",
    "ServiceFormView",
    "SfmVisitView",
    "SheetView",
    "SlotsView",
    "SocleCreateView",
    "SocleWithdrawView",
    "TopUpView",
    "TransmittalView",
    "VarianceThresholdView",
]
