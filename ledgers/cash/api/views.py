"""Table cash API: one POST endpoint per flow, calling its service (201), and the rake
calculator (GET). RuleViolation answers 409 with code, article and detail."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api.actions import service_action as action
from ledgers.core.api.scoping import EstablishmentList, EstablishmentScoped
from ledgers.core.countersign import countersigner_from
from ledgers.core.models import Seance

from .. import selectors, services
from ..models import (
    BadBeatStop,
    CercleDeviceDay,
    ChipSeries,
    ControlDay,
    ElectronicDevice,
    Orphan,
    Slip,
    TableCount,
    TicketBook,
)
from ..services import (
    baccara,
    bbj,
    bbj_stops,
    box_holders,
    changeurs,
    electronic,
    plaques,
    sfe,
    table_cagnottes,
    tickets,
)
from . import serializers as s


def _lines(data: dict, key: str) -> list[dict]:
    return [{**line, "value": str(line["value"])} for line in data[key]]


def _float(request, est, data):
    return services.float_record(
        session=data["table_session"],
        breakdown=_lines(data, "breakdown"),
        actor=request.user,
        kind=data["kind"],
        box_number=data["box_number"],
        transport_box=data["transport_box"],
        counted_by=data["counted_by"],
        called_aloud=data["called_aloud"],
        carry_note=data["carry_note"],
        carnet_on_table=data["carnet_on_table"],
        receiver=countersigner_from(request, data, "receiver"),
    )


def _book(request, est, data):
    return services.slip_book_open(establishment=est, actor=request.user, **data)


def _slip(request, est, data):
    return services.slip_write(
        book=data["book"],
        number=data["number"],
        session=data["table_session"],
        requested=_lines(data, "requested"),
        handed=_lines(data, "handed"),
        actor=request.user,
        runner=data["runner"],
        currency=data["currency"],
        supervisor=countersigner_from(request, data, "supervisor"),
    )


def _serve(request, est, data, pk):
    return services.slip_serve(
        slip=get_object_or_404(Slip, pk=pk, book__establishment=est), desk=data["desk"], actor=request.user
    )


def _void(request, est, data):
    return services.slip_void(
        book=data["book"],
        number=data["number"],
        reason=data["reason"],
        actor=request.user,
        cosigner=countersigner_from(request, data, "cosigner"),
    )


def _count(request, est, data):
    return services.count_record(
        session=data["table_session"],
        breakdown=_lines(data, "breakdown"),
        actor=request.user,
        tips=data["tips"],
        present=data["present"],
        called_aloud=data["called_aloud"],
        count_room=data["count_room"],
        cctv_reference=data["cctv_reference"],
    )


def _certify(request, est, data, pk):
    count = get_object_or_404(TableCount, pk=pk, table_session__seance__establishment=est)
    return services.count_certify(count=count, actor=request.user, **data)


def _control_close(request, est, data):
    return services.control_day_close(establishment=est, date=data["date"], actor=request.user)


def _control_visa(request, est, data, pk):
    day = get_object_or_404(ControlDay, pk=pk, establishment=est)
    return services.control_day_visa(day=day, actor=request.user, statement=data["statement"])


def _table_box(request, est, data):
    return services.table_box_record(actor=request.user, **data)


def _ticket_book(request, est, data):
    return services.ticket_book_register(actor=request.user, **data)


def _cagnotte_compute(request, est, data):
    return services.cagnotte_compute(session=data["table_session"], detached=data["detached"], actor=request.user)


def _cagnotte_count(request, est, data):
    return services.cagnotte_count(
        session=data["table_session"],
        breakdown=_lines(data, "breakdown"),
        actor=request.user,
        words=data["words"],
        balancing_ticket=data["balancing_ticket"],
    )


def _bad_beat(request, est, data):
    return services.bad_beat_record(
        session=data["table_session"],
        counted=data["counted"],
        statement=data["statement"],
        displayed=data["displayed"],
        present=data["present"],
        actor=request.user,
        comite=countersigner_from(request, data, "comite"),
    )


def _orphan(request, est, data):
    return services.orphan_record(establishment=est, actor=request.user, **data)


def _restitution(request, est, data, pk):
    return services.orphan_restitute(
        orphan=get_object_or_404(Orphan, pk=pk, establishment=est), actor=request.user, **data
    )


def _bad_beat_table(request, est, data):
    return services.bad_beat_activate(actor=request.user, **data)


def _play_line(request, est, data):
    return services.cagnotte_play_line(
        session=data["table_session"], line=data["line"], book=data["book"], actor=request.user
    )


def _tirelire(request, est, data):
    return services.tirelire_open(establishment=est, actor=request.user, **data)


def _season_clear(request, est, data):
    return services.orphans_season_clear(establishment=est, actor=request.user, **data)


def _levy_month(request, est, data):
    return {"sheet": services.levy_month_close(establishment=est, actor=request.user, **data)}


FloatView = action("FloatView", s.FloatInput, s.FloatOutput, _float)
SlipBookView = action("SlipBookView", s.SlipBookInput, s.SlipBookOutput, _book)
SlipView = action("SlipView", s.SlipInput, s.SlipOutput, _slip)
SlipServeView = action("SlipServeView", s.ServeInput, s.SlipOutput, _serve)
SlipVoidView = action("SlipVoidView", s.VoidInput, s.SlipOutput, _void)
CountView = action("CountView", s.EncaisseCountInput, s.EncaisseCountOutput, _count)
CertifyView = action("CertifyView", s.CertifyInput, s.EncaisseCountOutput, _certify)
ControlCloseView = action("ControlCloseView", s.ControlCloseInput, s.ControlDayOutput, _control_close)
TableBoxView = action("TableBoxView", s.TableBoxInput, s.TableBoxOutput, _table_box)


class TicketBookView(
    EstablishmentList, action("TicketBookAction", s.TicketBookInput, s.TicketBookOutput, _ticket_book)
):
    """GET: the ticket books of the establishment (filter by table, cover number); POST: register one."""

    queryset = TicketBook.objects.select_related("table")
    serializer_class = s.TicketBookOutput
    filterset_fields = ("table", "cover_number")


CagnotteComputeView = action("CagnotteComputeView", s.CagnotteComputeInput, s.CagnotteOutput, _cagnotte_compute)
CagnotteCountView = action("CagnotteCountView", s.CagnotteCountInput, s.CagnotteOutput, _cagnotte_count)
BadBeatView = action("BadBeatView", s.BadBeatInput, s.BadBeatOutput, _bad_beat)
OrphanView = action("OrphanView", s.OrphanInput, s.OrphanOutput, _orphan)
RestitutionView = action("RestitutionView", s.RestitutionInput, s.OrphanOutput, _restitution)
BadBeatTableView = action("BadBeatTableView", s.BadBeatTableInput, s.BadBeatTableOutput, _bad_beat_table)
PlayLineView = action("PlayLineView", s.PlayLineInput, s.CarnetEntryOutput, _play_line)
TirelireView = action("TirelireView", s.TirelireInput, s.CarnetEntryOutput, _tirelire)
SeasonClearView = action("SeasonClearView", s.SeasonClearInput, s.CarnetEntryOutput, _season_clear)
LevyMonthView = action("LevyMonthView", s.LevyMonthInput, s.LevySheetOutput, _levy_month)
ControlVisaView = action("ControlVisaView", s.VisaInput, s.ControlDayOutput, _control_visa)


def _bbj_config(request, est, data):
    return bbj.bad_beat_configure(actor=request.user, **data)


def _bbj_stop_notice(request, est, data):
    return bbj_stops.bad_beat_stop_notify(actor=request.user, **data)


def _bbj_final_stop(request, est, data):
    return bbj_stops.bad_beat_stop_final(actor=request.user, **data)


def _bbj_breakdown(request, est, data):
    return bbj_stops.bad_beat_breakdown(actor=request.user, **data)


def _bbj_restore(request, est, data, pk):
    stop = get_object_or_404(BadBeatStop, pk=pk, jackpot__table__establishment=est)
    return bbj_stops.bad_beat_restore(stop=stop, actor=request.user, **data)


def _bbj_suspend(request, est, data):
    return bbj_stops.bad_beat_suspend(actor=request.user, **data)


def _bbj_resume(request, est, data, pk):
    return bbj_stops.bad_beat_resume(
        stop=get_object_or_404(BadBeatStop, pk=pk, jackpot__table__establishment=est), actor=request.user
    )


def _bbj_log(request, est, data):
    return bbj.bad_beat_log_import(session=data["table_session"], content=data["csv"], actor=request.user)


def _bbj_win(request, est, data):
    return bbj.bad_beat_win(
        session=data["table_session"],
        combination=data["combination"],
        pot=data["pot"],
        amount=data["amount"],
        players_present=data["players_present"],
        bons=data["bons"],
        winner_name=data["winner_name"],
        restart_value=data["restart_value"],
        actor=request.user,
        comite=countersigner_from(request, data, "comite"),
    )


BadBeatConfigView = action("BadBeatConfigView", s.BadBeatConfigInput, s.BadBeatConfigOutput, _bbj_config)
BadBeatStopNoticeView = action(
    "BadBeatStopNoticeView", s.BadBeatStopNoticeInput, s.BadBeatStopNoticeOutput, _bbj_stop_notice
)
BadBeatFinalStopView = action("BadBeatFinalStopView", s.BadBeatFinalStopInput, s.BadBeatStopOutput, _bbj_final_stop)
BadBeatBreakdownView = action("BadBeatBreakdownView", s.BadBeatBreakdownInput, s.BadBeatStopOutput, _bbj_breakdown)
BadBeatRestoreView = action("BadBeatRestoreView", s.BadBeatRestoreInput, s.BadBeatStopOutput, _bbj_restore)
BadBeatLogView = action("BadBeatLogView", s.BadBeatLogInput, s.BadBeatLogOutput, _bbj_log)
BadBeatSuspendView = action("BadBeatSuspendView", s.BadBeatSuspendInput, s.BadBeatStopOutput, _bbj_suspend)
BadBeatResumeView = action("BadBeatResumeView", s.BadBeatResumeInput, s.BadBeatStopOutput, _bbj_resume)


def _table_cagnotte(request, est, data):
    return table_cagnottes.table_cagnotte_record(actor=request.user, **data)


def _sfe_advance(request, est, data):
    return sfe.sfe_advance_record(session=data.pop("table_session"), actor=request.user, **data)


def _changeur_fix(request, est, data):
    return changeurs.changeur_float_fix(actor=request.user, **data)


def _changeur_float(request, est, data):
    return changeurs.changeur_float_record(
        session=data["table_session"],
        changeur=data["changeur"],
        breakdown=_lines(data, "breakdown"),
        actor=request.user,
    )


ChangeurFloatFixView = action("ChangeurFloatFixView", s.ChangeurFloatFixInput, s.ChangeurFloatFixOutput, _changeur_fix)
ChangeurFloatView = action("ChangeurFloatView", s.ChangeurFloatInput, s.ChangeurFloatOutput, _changeur_float)


def _box_holder(request, est, data):
    return box_holders.box_holder_designate(
        session=data["table_session"], employee=data["employee"], actor=request.user
    )


BoxHolderView = action("BoxHolderView", s.BoxHolderInput, s.BoxHolderOutput, _box_holder)
SfeAdvanceView = action("SfeAdvanceView", s.SfeAdvanceInput, s.SfeAdvanceOutput, _sfe_advance)
TableCagnotteView = action("TableCagnotteView", s.TableCagnotteInput, s.TableCagnotteOutput, _table_cagnotte)
BadBeatWinView = action("BadBeatWinView", s.BadBeatWinInput, s.BadBeatWinOutput, _bbj_win)


def _chip_series(request, est, data):
    return plaques.chip_series_record(
        establishment=est,
        actor=request.user,
        **{**data, "pieces": [{**p, "value": str(p["value"])} for p in data["pieces"]]},
    )


def _chip_allocate(request, est, data, pk):
    return plaques.chip_series_allocate(
        series=get_object_or_404(ChipSeries, pk=pk, establishment=est), actor=request.user, **data
    )


def _chip_census(request, est, data):
    counted = [{**line, "value": str(line["value"])} for line in data["counted"]]
    return plaques.chip_census_record(establishment=est, actor=request.user, **{**data, "counted": counted})


def _card_number(request, est, data):
    return tickets.card_table_number(actor=request.user, **data)


def _ticket_stamp(request, est, data):
    return tickets.ticket_seance_stamp(actor=request.user, **data)


def _levy_machine(request, est, data):
    return tickets.levy_machine_activate(actor=request.user, **data)


def _machine_history(request, est, data):
    return tickets.cagnotte_machine_compute(
        session=data["table_session"],
        history_total=data["history_total"],
        printout_reference=data["printout_reference"],
        parties=data["parties"],
        actor=request.user,
    )


ChipSeriesView = action("ChipSeriesView", s.ChipSeriesInput, s.ChipSeriesOutput, _chip_series)
ChipAllocateView = action("ChipAllocateView", s.ChipAllocateInput, s.ChipSeriesOutput, _chip_allocate)
ChipCensusView = action("ChipCensusView", s.ChipCensusInput, s.ChipCensusOutput, _chip_census)
CardTableNumberView = action("CardTableNumberView", s.CardTableNumberInput, s.CardTableNumberOutput, _card_number)
TicketStampView = action("TicketStampView", s.TicketStampInput, s.TicketStampOutput, _ticket_stamp)
LevyMachineView = action("LevyMachineView", s.LevyMachineInput, s.LevyMachineOutput, _levy_machine)
MachineHistoryView = action("MachineHistoryView", s.MachineHistoryInput, s.CagnotteOutput, _machine_history)


def _device(request, est, data):
    return electronic.device_register(establishment=est, actor=request.user, **data)


def _station(request, est, data):
    return electronic.station_result_record(actor=request.user, **data)


def _device_visa(request, est, data, pk):
    return electronic.device_day_visa(
        device=get_object_or_404(ElectronicDevice, pk=pk, establishment=est), actor=request.user, **data
    )


def _cercle_day(request, est, data):
    return electronic.cercle_day_record(actor=request.user, **data)


def _cercle_certify(request, est, data, pk):
    return electronic.cercle_day_certify(
        day=get_object_or_404(CercleDeviceDay, pk=pk, device__establishment=est), actor=request.user, **data
    )


def _meter_statement(request, est, data):
    return electronic.meter_statement_certify(
        establishment=est,
        year=data["year"],
        month=data["month"],
        comite=countersigner_from(request, data, "comite"),
        actor=request.user,
    )


DeviceView = action("DeviceView", s.DeviceInput, s.DeviceOutput, _device)
StationResultView = action("StationResultView", s.StationResultInput, s.StationResultOutput, _station)
DeviceDayVisaView = action("DeviceDayVisaView", s.DeviceDayInput, s.DeviceDayOutput, _device_visa)
MeterStatementView = action("MeterStatementView", s.MeterStatementInput, s.MeterStatementOutput, _meter_statement)
CercleDayView = action("CercleDayView", s.CercleDayInput, s.CercleDayOutput, _cercle_day)
CercleCertifyView = action("CercleCertifyView", s.CercleCertifyInput, s.CercleDayOutput, _cercle_certify)


def _baccara_bank(request, est, data):
    return baccara.baccara_bank_record(actor=request.user, **data)


def _banker(request, est, data):
    return baccara.banker_segment_start(
        session=data["table_session"], banker=data["banker"], bank=_lines(data, "bank"), actor=request.user
    )


BaccaraBankView = action("BaccaraBankView", s.BaccaraBankInput, s.BaccaraBankOutput, _baccara_bank)
BankerSegmentView = action("BankerSegmentView", s.BankerSegmentInput, s.BankerSegmentOutput, _banker)


class RakeView(EstablishmentScoped, APIView):
    @extend_schema(parameters=[s.RakeQuery], responses=dict)
    def get(self, request: Request) -> Response:
        """The rake allowed on a pot (COUNT-18, COUNT-19); ``over`` flags a recorded rake above it."""
        query = s.RakeQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(selectors.rake_for(self.establishment, **query.validated_data))


def _fix_bank(request, est, data):
    """MC: the Direction des Jeux fixes the somme mise en banque of a table (COUNT-01, SET-06)."""
    services.float_amount_fix(table=data["table"], amount=data["amount"], actor=request.user)
    return {"table": data["table"].number, "amount": data["amount"]}


def _refait_threshold(request, est, data):
    """MC: the Direction des Jeux fixes the stake from which the refait insurance is offered (GAME-24, SET-23)."""
    fixed = services.refait_threshold_fix(establishment=est, amount=data["amount"], actor=request.user)
    return {"amount": services.refait_threshold(fixed)}


def _centralise(request, est, data, pk):
    """FR: the ravitaillement bons served during the séance centralised in one desk (art. 37, COUNT-29)."""
    seance = get_object_or_404(Seance, pk=pk, establishment=est)
    return {"centralised": services.slips_centralise(seance=seance, desk=data["desk"], actor=request.user)}


FixBankView = action("FixBankView", s.FixBankInput, s.FixBankOutput, _fix_bank)
RefaitThresholdView = action(
    "RefaitThresholdView", s.RefaitThresholdSerializer, s.RefaitThresholdSerializer, _refait_threshold
)
CentraliseView = action("CentraliseView", s.CentraliseInput, s.CentraliseOutput, _centralise)
