from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ledgers.core.api.actions import Signature
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_inputs
from ledgers.core.models import GamingTable, Location, LocationKind, TableSession

from .. import breakdowns
from ..models import (
    BaccaraBank,
    BadBeatConfig,
    BadBeatCount,
    BadBeatLog,
    BadBeatStop,
    BadBeatTable,
    BadBeatWin,
    BankerSegment,
    BoxHolderDesignation,
    CagnotteCount,
    CardTableNumber,
    CercleDeviceDay,
    ChangeurFloat,
    ChangeurFloatFix,
    ChipCensus,
    ChipSeries,
    ControlDay,
    DeviceDay,
    ElectronicDevice,
    ElectronicMeterStatement,
    LevyMachine,
    Orphan,
    SfeAdvance,
    Slip,
    SlipBook,
    StationResult,
    TableBox,
    TableCagnotte,
    TableCount,
    TableFloat,
    TicketBook,
    TicketStamp,
)

# Numbers are stored in PostgreSQL integers: a larger one is bad input (400), not a database error.
INT_MAX = 2_147_483_647


class LineSerializer(serializers.Serializer):
    value = serializers.DecimalField(max_digits=14, decimal_places=2)
    quantity = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    kind = serializers.ChoiceField(choices=breakdowns.Piece.ALL, default=breakdowns.Piece.CHIP)


def session_field() -> EstablishmentPK:
    return EstablishmentPK(queryset=TableSession.objects.all(), path="seance__establishment")


class FloatInput(serializers.Serializer):
    table_session = session_field()
    kind = serializers.ChoiceField(choices=TableFloat.Kind.choices, default=TableFloat.Kind.INITIAL)
    breakdown = LineSerializer(many=True)
    box_number = serializers.CharField(required=False, allow_blank=True, default="")
    transport_box = serializers.CharField(required=False, allow_blank=True, default="")
    counted_by = serializers.CharField(required=False, allow_blank=True, default="")
    called_aloud = serializers.BooleanField(default=False)
    carry_note = serializers.CharField(required=False, allow_blank=True, default="")
    carnet_on_table = serializers.BooleanField(default=False)
    locals().update(countersignature_inputs("receiver", required=False))


class FloatOutput(serializers.ModelSerializer):
    class Meta:
        model = TableFloat
        fields = (
            "id",
            "table_session",
            "kind",
            "amount",
            "required",
            "breakdown",
            "box_number",
            "signed_role",
            "flags",
        )


class SlipBookInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SlipBook.Kind.choices)
    number = serializers.CharField()
    first_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    last_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class SlipBookOutput(serializers.ModelSerializer):
    class Meta:
        model = SlipBook
        fields = ("id", "kind", "number", "first_number", "last_number")


class SlipInput(serializers.Serializer):
    book = EstablishmentPK(queryset=SlipBook.objects.all())
    number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    table_session = session_field()
    requested = LineSerializer(many=True)
    handed = LineSerializer(many=True)
    runner = serializers.CharField(required=False, allow_blank=True, default="")
    currency = serializers.CharField(max_length=3, required=False, default="EUR")
    locals().update(countersignature_inputs("supervisor", required=False))


class SlipOutput(serializers.ModelSerializer):
    book = serializers.CharField(source="book.number")

    class Meta:
        model = Slip
        fields = (
            "id",
            "book",
            "number",
            "status",
            "table_session",
            "total",
            "requested",
            "handed",
            "supervisor_role",
            "served_at",
            "void_reason",
            "voided_by",
        )


class ServeInput(serializers.Serializer):
    desk = serializers.SlugRelatedField(slug_field="code", queryset=Location.objects.all())

    def validate_desk(self, desk):
        if desk.establishment_id != self.context["establishment"].pk:
            raise serializers.ValidationError("Caisse inconnue.")
        return desk


class VoidInput(serializers.Serializer):
    book = EstablishmentPK(queryset=SlipBook.objects.all())
    number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    reason = serializers.CharField()
    locals().update(countersignature_inputs("cosigner", required=False))


class EncaisseCountInput(serializers.Serializer):
    table_session = session_field()
    breakdown = LineSerializer(many=True)
    tips = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)
    count_room = serializers.BooleanField(default=False)
    cctv_reference = serializers.CharField(required=False, allow_blank=True, default="")
    present = serializers.ListField(child=serializers.CharField(), default=list)
    called_aloud = serializers.BooleanField(default=False)


class EncaisseCountOutput(serializers.ModelSerializer):
    """The figures of the counts appear only once both are in: the second counter is blind."""

    class Meta:
        model = TableCount
        fields = (
            "id",
            "table_session",
            "status",
            "first_total",
            "second_total",
            "encaisse",
            "result",
            "tips",
            "certification",
            "certified_role",
            "resolution",
            "insurance_premiums",
        )

    def to_representation(self, count):
        data = super().to_representation(count)
        if count.status == TableCount.Status.AWAITING_SECOND:
            data["first_total"] = None
        return data


class CertifyInput(Signature):
    words = serializers.CharField()
    encaisse = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)
    resolution = serializers.CharField(required=False, allow_blank=True, default="")
    insurance_premiums = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=0, required=False, allow_null=True, default=None
    )


class RakeQuery(serializers.Serializer):
    game = serializers.CharField()
    pot = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    cave = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    recorded = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)


class ControlCloseInput(serializers.Serializer):
    date = serializers.DateField()


class VisaInput(Signature):
    statement = serializers.CharField(required=False, allow_blank=True, default="")


class ControlDayOutput(serializers.ModelSerializer):
    class Meta:
        model = ControlDay
        fields = (
            "id",
            "date",
            "status",
            "contrepartie_total",
            "cercle_total",
            "total",
            "total_words",
            "season_total",
            "visas",
        )


class TableBoxInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    box_id = serializers.CharField(allow_blank=True)
    key_reference = serializers.CharField(allow_blank=True)
    banknotes_accepted = serializers.BooleanField(default=False)
    coffret_id = serializers.CharField(required=False, allow_blank=True, default="")
    coffret_key_reference = serializers.CharField(required=False, allow_blank=True, default="")


class TableBoxOutput(serializers.ModelSerializer):
    class Meta:
        model = TableBox
        fields = (
            "id",
            "table",
            "box_id",
            "key_reference",
            "banknotes_accepted",
            "coffret_id",
            "coffret_key_reference",
            "recorded_at",
        )


class TicketBookInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    cover_number = serializers.CharField()
    ticket_value = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    first_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    last_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class TicketBookOutput(serializers.ModelSerializer):
    class Meta:
        model = TicketBook
        fields = (
            "id",
            "table",
            "cover_number",
            "ticket_value",
            "first_number",
            "last_number",
            "next_number",
            "finished_on",
        )


class DetachedSerializer(serializers.Serializer):
    book = EstablishmentPK(queryset=TicketBook.objects.all())
    last_number = serializers.IntegerField(min_value=0, max_value=INT_MAX)


class CagnotteComputeInput(serializers.Serializer):
    table_session = session_field()
    detached = DetachedSerializer(many=True)


class CagnotteCountInput(serializers.Serializer):
    table_session = session_field()
    breakdown = LineSerializer(many=True)
    words = serializers.CharField(required=False, allow_blank=True, default="")
    balancing_ticket = serializers.IntegerField(required=False, allow_null=True, default=None, max_value=INT_MAX)


class CagnotteOutput(serializers.ModelSerializer):
    class Meta:
        model = CagnotteCount
        fields = (
            "id",
            "table_session",
            "status",
            "tickets",
            "computed",
            "counted",
            "surplus",
            "shortfall",
            "balancing_ticket",
            "retained",
            "certification",
        )


class BadBeatInput(serializers.Serializer):
    table_session = session_field()
    counted = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    statement = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    displayed = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    present = serializers.ListField(child=serializers.CharField(), default=list)
    locals().update(countersignature_inputs("comite", required=False))


class BadBeatOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatCount
        fields = (
            "id",
            "table_session",
            "counted",
            "statement",
            "retained",
            "adjustment",
            "contribution",
            "displayed",
            "present",
        )


class OrphanInput(serializers.Serializer):
    category = serializers.ChoiceField(choices=Orphan.Category.choices)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    initial_stake = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )
    winnings = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)
    place = serializers.CharField()
    found_by = serializers.CharField()
    witness = serializers.CharField(required=False, allow_blank=True, default="")
    paid_into = serializers.CharField()


class RestitutionInput(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    name = serializers.CharField()
    address = serializers.CharField()
    proof = serializers.CharField()


class OrphanOutput(serializers.ModelSerializer):
    class Meta:
        model = Orphan
        fields = (
            "id",
            "category",
            "amount",
            "initial_stake",
            "winnings",
            "place",
            "paid_into",
            "entry_seq",
            "refunded",
            "restitutions",
        )


class BadBeatTableInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    machine_approval = serializers.CharField(allow_blank=True)
    cagnotte_number = serializers.CharField(allow_blank=True)


class BadBeatTableOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatTable
        fields = ("id", "table", "machine_approval", "cagnotte_number", "activated_at")


class PlayLineInput(serializers.Serializer):
    table_session = session_field()
    line = serializers.ChoiceField(choices=["interruption", "resumption", "new_book"])
    book = EstablishmentPK(queryset=TicketBook.objects.all(), required=False, allow_null=True, default=None)


class TirelireInput(serializers.Serializer):
    tirelire = serializers.CharField()
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    witnesses = serializers.ListField(child=serializers.CharField(), allow_empty=False)


class SeasonClearInput(serializers.Serializer):
    season_start = serializers.DateField()
    account_balance = serializers.DecimalField(max_digits=14, decimal_places=2)

    def validate_season_start(self, value):
        if not 2000 <= value.year <= 9000:
            raise serializers.ValidationError(_("Saison hors limites."))
        return value


class CarnetEntryOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    payload = serializers.JSONField()


class LevyMonthInput(serializers.Serializer):
    year = serializers.IntegerField(min_value=2000, max_value=INT_MAX)
    month = serializers.IntegerField(min_value=1, max_value=12)
    slot_total = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )


class LevySheetOutput(serializers.Serializer):
    sheet = serializers.IntegerField(max_value=INT_MAX)


# --- bad beat jackpot (COUNT-44 to COUNT-48, INC-15) ----------------------------------------------


def jackpot_field() -> EstablishmentPK:
    return EstablishmentPK(queryset=BadBeatTable.objects.all(), path="table__establishment")


def money_field(**kwargs) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, **kwargs)


def bounded_datetime(value):
    if not 2000 <= value.year <= 9000:
        raise serializers.ValidationError(_("Date hors limites."))
    return value


class BadBeatConfigInput(serializers.Serializer):
    jackpot = jackpot_field()
    starting_value = money_field()
    increment_kind = serializers.ChoiceField(choices=BadBeatConfig.Increment.choices)
    increment_value = money_field()
    rounding = serializers.CharField(max_length=200, allow_blank=True)
    side_pot_rule = serializers.CharField(max_length=250, allow_blank=True)
    minimum_pot = money_field()
    restart = serializers.ChoiceField(choices=BadBeatConfig.Restart.choices)
    reassign = serializers.BooleanField(default=False)


class BadBeatConfigOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatConfig
        fields = (
            "id",
            "jackpot",
            "version",
            "starting_value",
            "increment_kind",
            "increment_value",
            "rounding",
            "side_pot_rule",
            "minimum_pot",
            "house_rules_version",
            "restart",
            "reassigned",
            "effective_at",
        )


class BadBeatFinalStopInput(serializers.Serializer):
    jackpot = jackpot_field()
    minister_notified_at = serializers.DateTimeField(validators=[bounded_datetime])
    minister_reference = serializers.CharField(max_length=120, allow_blank=True)


class BadBeatBreakdownInput(serializers.Serializer):
    jackpot = jackpot_field()
    down_at = serializers.DateTimeField(validators=[bounded_datetime])
    police_informed_at = serializers.DateTimeField(allow_null=True, validators=[bounded_datetime])
    police_service = serializers.CharField(max_length=150, allow_blank=True)


class BadBeatRestoreInput(serializers.Serializer):
    restored_at = serializers.DateTimeField(validators=[bounded_datetime])


class BadBeatLogInput(serializers.Serializer):
    table_session = session_field()
    csv = serializers.CharField(
        trim_whitespace=False,
        help_text=_(
            "Export CSV de la machine agréée : en-tête heure,pot,retenue_maison,retenue_bbj,gains_payes,montant_bbj,"
            "paiements ; une ligne par partie (COUNT-46)."
        ),
    )


class BadBeatLogOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatLog
        fields = ("id", "table_session", "rows", "bbj_total", "house_total", "flags", "imported_at")


class BadBeatSuspendInput(serializers.Serializer):
    jackpot = jackpot_field()


class BadBeatResumeInput(serializers.Serializer):
    """The resumption of a temporary stop is taken at the time it is recorded."""


class BadBeatStopOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatStop
        fields = (
            "id",
            "jackpot",
            "kind",
            "stopped_at",
            "increment",
            "minister_notified_at",
            "minister_reference",
            "orphan",
            "incident",
            "police_informed_at",
            "police_service",
            "restored_at",
            "restored_by",
        )


class BadBeatWinInput(serializers.Serializer):
    table_session = session_field()
    combination = serializers.CharField(max_length=200, allow_blank=True)
    pot = money_field()
    amount = money_field()
    players_present = serializers.IntegerField(min_value=1, max_value=100)
    bons = serializers.ListField(child=money_field(), max_length=100)
    winner_name = serializers.CharField(max_length=200, allow_blank=True)
    restart_value = money_field()
    locals().update(countersignature_inputs("comite", required=False))


class BadBeatWinOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatWin
        fields = (
            "id",
            "jackpot",
            "table_session",
            "won_at",
            "combination",
            "pot",
            "amount",
            "players_present",
            "winner_name",
            "bons",
            "restart_value",
        )


class TableCagnotteInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    number = serializers.CharField(max_length=40, allow_blank=True)


class TableCagnotteOutput(serializers.ModelSerializer):
    class Meta:
        model = TableCagnotte
        fields = ("id", "table", "number", "recorded_at")


class SfeAdvanceInput(serializers.Serializer):
    table_session = session_field()
    customer = serializers.CharField(max_length=200)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    authorisation = serializers.CharField(max_length=80, allow_blank=True)


class SfeAdvanceOutput(serializers.ModelSerializer):
    class Meta:
        model = SfeAdvance
        fields = ("id", "table_session", "customer", "amount", "authorisation", "advanced_at")


class ChangeurFloatFixInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class ChangeurFloatFixOutput(serializers.ModelSerializer):
    class Meta:
        model = ChangeurFloatFix
        fields = ("id", "table", "amount", "fixed_at")


class ChangeurFloatInput(serializers.Serializer):
    table_session = session_field()
    changeur = serializers.SlugRelatedField(slug_field="username", queryset=get_user_model().objects.all())
    breakdown = LineSerializer(many=True)


class ChangeurFloatOutput(serializers.ModelSerializer):
    class Meta:
        model = ChangeurFloat
        fields = ("id", "table_session", "changeur", "amount", "breakdown", "recorded_at")


class BoxHolderInput(serializers.Serializer):
    table_session = session_field()
    employee = serializers.SlugRelatedField(slug_field="username", queryset=get_user_model().objects.all())


class BoxHolderOutput(serializers.ModelSerializer):
    class Meta:
        model = BoxHolderDesignation
        fields = ("id", "table_session", "employee", "designated_at")


# --- modèle 16 (COUNT-58) and ticket books (COUNT-39 to COUNT-41) ------------------------------


class SeriesPieceSerializer(serializers.Serializer):
    value = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    quantity = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class ChipSeriesInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ChipSeries.Kind.choices)
    description = serializers.CharField(max_length=200)
    manufacturer = serializers.CharField(max_length=150)
    series_count = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    reserve_series = serializers.IntegerField(min_value=0, max_value=INT_MAX)
    pieces = SeriesPieceSerializer(many=True, required=False, default=list)
    cards_per_series = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0)


class ChipSeriesOutput(serializers.ModelSerializer):
    class Meta:
        model = ChipSeries
        fields = (
            "id",
            "kind",
            "description",
            "manufacturer",
            "series_count",
            "pieces",
            "cards_per_series",
            "reserve_series",
            "in_service_series",
        )


class ChipAllocateInput(serializers.Serializer):
    in_service_series = serializers.IntegerField(min_value=0, max_value=INT_MAX)


class CensusLineSerializer(serializers.Serializer):
    series = EstablishmentPK(queryset=ChipSeries.objects.all())
    value = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, default=0)
    quantity = serializers.IntegerField(min_value=0, max_value=INT_MAX)


class ChipCensusInput(serializers.Serializer):
    census_date = serializers.DateField()
    counted = CensusLineSerializer(many=True, allow_empty=False)
    counted_by = serializers.CharField(max_length=300)
    account_balance = serializers.DecimalField(max_digits=14, decimal_places=2)


class ChipCensusOutput(serializers.ModelSerializer):
    class Meta:
        model = ChipCensus
        fields = (
            "id",
            "season",
            "period",
            "census_date",
            "lines",
            "counted_total",
            "taken_in_charge",
            "player_held",
            "account_balance",
            "counted_by",
            "flags",
        )


class CardTableNumberInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    serial = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class CardTableNumberOutput(serializers.ModelSerializer):
    class Meta:
        model = CardTableNumber
        fields = ("id", "table", "season", "serial")


class TicketStampInput(serializers.Serializer):
    book = EstablishmentPK(queryset=TicketBook.objects.all())
    blue_line = serializers.BooleanField()


class TicketStampOutput(serializers.ModelSerializer):
    class Meta:
        model = TicketStamp
        fields = ("id", "book", "kind", "first_ticket", "stamped_on", "blue_line")


class LevyMachineInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    approval_reference = serializers.CharField(max_length=80, allow_blank=True)


class LevyMachineOutput(serializers.ModelSerializer):
    class Meta:
        model = LevyMachine
        fields = ("id", "table", "approval_reference", "activated_at")


class PartieSerializer(serializers.Serializer):
    time = serializers.TimeField()
    pot = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    levy = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    win = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class MachineHistoryInput(serializers.Serializer):
    table_session = session_field()
    history_total = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    printout_reference = serializers.CharField(max_length=120, allow_blank=True)
    parties = PartieSerializer(many=True, required=False, default=list)


# --- modèle 10 bis (COUNT-51) ----------------------------------------------------------------


class DeviceInput(serializers.Serializer):
    family = serializers.ChoiceField(
        choices=ElectronicDevice.Family.choices, default=ElectronicDevice.Family.CONTREPARTIE
    )
    number = serializers.CharField(max_length=30)
    game = serializers.CharField(max_length=100)
    stations = serializers.IntegerField(min_value=1, max_value=1000)


class DeviceOutput(serializers.ModelSerializer):
    class Meta:
        model = ElectronicDevice
        fields = ("id", "family", "number", "game", "stations")


class StationResultInput(serializers.Serializer):
    device = EstablishmentPK(queryset=ElectronicDevice.objects.all())
    date = serializers.DateField()
    station = serializers.IntegerField(min_value=1, max_value=1000)
    avances = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    physical_count = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    units_in = serializers.IntegerField(min_value=0, max_value=INT_MAX)
    units_out = serializers.IntegerField(min_value=0, max_value=INT_MAX)
    unit_stake = serializers.DecimalField(max_digits=8, decimal_places=2, min_value=0)
    tickets_issued = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    product = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)


class StationResultOutput(serializers.ModelSerializer):
    class Meta:
        model = StationResult
        fields = (
            "id",
            "device",
            "date",
            "station",
            "avances",
            "physical_count",
            "electronic_count",
            "tickets_issued",
            "product",
        )


class DeviceDayInput(Signature):
    date = serializers.DateField()


class DeviceDayOutput(serializers.ModelSerializer):
    class Meta:
        model = DeviceDay
        fields = ("id", "device", "date", "product", "visa_seq")


class MeterStatementInput(Signature):
    year = serializers.IntegerField(min_value=2000, max_value=2100)
    month = serializers.IntegerField(min_value=1, max_value=12)
    locals().update(countersignature_inputs("comite"))


class MeterStatementOutput(serializers.ModelSerializer):
    class Meta:
        model = ElectronicMeterStatement
        fields = ("id", "year", "month", "lines", "total", "drawn_up_by", "comite", "certified_at")


class CercleDayInput(serializers.Serializer):
    device = EstablishmentPK(queryset=ElectronicDevice.objects.all())
    date = serializers.DateField()
    parties = serializers.IntegerField(min_value=0, max_value=INT_MAX)
    levies = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class CercleCertifyInput(Signature):
    words = serializers.CharField(max_length=40, allow_blank=True)


class CercleDayOutput(serializers.ModelSerializer):
    class Meta:
        model = CercleDeviceDay
        fields = ("id", "device", "date", "parties", "levies", "certification", "certified_at")


# --- baccara à deux tableaux (COUNT-54) -------------------------------------------------------


class BaccaraBankInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    kind = serializers.CharField(max_length=10)


class BaccaraBankOutput(serializers.ModelSerializer):
    class Meta:
        model = BaccaraBank
        fields = ("id", "table", "kind")


class BankerSegmentInput(serializers.Serializer):
    table_session = session_field()
    banker = serializers.CharField(max_length=150, allow_blank=True)
    bank = LineSerializer(many=True)


class BankerSegmentOutput(serializers.ModelSerializer):
    class Meta:
        model = BankerSegment
        fields = ("id", "table_session", "banker", "bank", "bank_amount", "started_at")


class FixBankInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class FixBankOutput(serializers.Serializer):
    table = serializers.CharField(help_text="Numéro de la table.")
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)


class CentraliseInput(serializers.Serializer):
    desk = EstablishmentPK(queryset=Location.objects.filter(kind=LocationKind.CAISSE_CENTRALE))


class CentraliseOutput(serializers.Serializer):
    centralised = serializers.IntegerField(help_text="Bons centralisés.")
