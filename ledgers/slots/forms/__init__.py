"""Forms of the slot pages, one module per topic. They parse input; the services apply the rules."""

from .common import DATE, LOCAL_DATETIME, ConfirmForm, people
from .interventions import (
    ApprovalForm,
    InterventionCloseForm,
    InterventionForm,
    InterventionNewForm,
    SfmVisitForm,
    TransmittalForm,
)
from .machines import (
    MOVE_COUNTERSIGNERS,
    MachineForm,
    MoveForm,
    MoveNoticeForm,
    SheetForm,
    SocleForm,
    SocleWithdrawForm,
    move_countersignature_fields,
    split_move_countersignatures,
)
from .meters import RamClearForm
from .monitoring import EventsForm, FilesCopyForm, OrphanForm
from .payments import DisputeForm, JackpotForm, JackpotThresholdForm, MachineChoiceForm, TopUpForm
from .releves import BoxForm, CloseReleveForm, CountForm, ImportForm, ReleveForm, VarianceThresholdForm

__all__ = [
    "DATE",
    "LOCAL_DATETIME",
    "MOVE_COUNTERSIGNERS",
    "ApprovalForm",
    "BoxForm",
    "CloseReleveForm",
    "ConfirmForm",
    "CountForm",
    "DisputeForm",
    "EventsForm",
    "FilesCopyForm",
    "ImportForm",
    "InterventionCloseForm",
    "InterventionForm",
    "InterventionNewForm",
    "JackpotForm",
    "JackpotThresholdForm",
    "MachineChoiceForm",
    "MachineForm",
    "MoveForm",
    "MoveNoticeForm",
    "OrphanForm",
    "RamClearForm",
    "ReleveForm",
    "SfmVisitForm",
    "SheetForm",
    "SocleForm",
    "SocleWithdrawForm",
    "TopUpForm",
    "TransmittalForm",
    "VarianceThresholdForm",
    "move_countersignature_fields",
    "people",
    "split_move_countersignatures",
]
