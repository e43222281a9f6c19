"""Forms of the table cash pages, one module per topic. Nomenclatures are typed one line per
denomination: "valeur x quantité [jeton|plaque|billet]"."""

from .baccara import BaccaraBankForm, BankerForm
from .bbj import (
    BadBeatBreakdownForm,
    BadBeatConfigForm,
    BadBeatForm,
    BadBeatLogForm,
    BadBeatRestoreForm,
    BadBeatStopNoticeForm,
    BadBeatWinForm,
)
from .cagnottes import CagnotteComputeForm, CagnotteCountForm, TableCagnotteForm
from .changeurs import ChangeurFloatFixForm, ChangeurFloatForm
from .common import BREAKDOWN_HELP, DATETIME, BreakdownField, CashForm
from .control import ControlCloseForm, ControlVisaForm
from .counts import CertifyForm, CountForm, PotRakeForm, RakeForm
from .electronic import (
    CercleCertifyForm,
    CercleDayForm,
    DeviceForm,
    DeviceVisaForm,
    MeterStatementForm,
    StationResultForm,
)
from .floats import BoxHolderForm, FixBankForm, FloatForm, RefaitThresholdForm
from .levy import LevyMonthForm
from .orphans import OrphanForm, RestitutionForm
from .plaques import ChipAllocateForm, ChipCensusForm, ChipSeriesForm
from .slips import DeskForm, SfeAdvanceForm, SlipBookForm, SlipVoidForm, SlipWriteForm
from .tickets import CardTableNumberForm, LevyMachineForm, MachineHistoryForm, TicketBookForm, TicketStampForm

__all__ = [
    "BREAKDOWN_HELP",
    "DATETIME",
    "BaccaraBankForm",
    "BadBeatBreakdownForm",
    "BadBeatConfigForm",
    "BadBeatForm",
    "BadBeatLogForm",
    "BadBeatRestoreForm",
    "BadBeatStopNoticeForm",
    "BadBeatWinForm",
    "BankerForm",
    "BoxHolderForm",
    "BreakdownField",
    "CagnotteComputeForm",
    "CagnotteCountForm",
    "CardTableNumberForm",
    "CashForm",
    "CercleCertifyForm",
    "CercleDayForm",
    "CertifyForm",
    "ChangeurFloatFixForm",
    "ChangeurFloatForm",
    "ChipAllocateForm",
    "ChipCensusForm",
    "ChipSeriesForm",
    "ControlCloseForm",
    "ControlVisaForm",
    "CountForm",
    "DeskForm",
    "DeviceForm",
    "DeviceVisaForm",
    "FixBankForm",
    "FloatForm",
    "LevyMachineForm",
    "LevyMonthForm",
    "MachineHistoryForm",
    "MeterStatementForm",
    "OrphanForm",
    "PotRakeForm",
    "RakeForm",
    "RefaitThresholdForm",
    "RestitutionForm",
    "SfeAdvanceForm",
    "SlipBookForm",
    "SlipVoidForm",
    "SlipWriteForm",
    "StationResultForm",
    "TableCagnotteForm",
    "TicketBookForm",
    "TicketStampForm",
]
