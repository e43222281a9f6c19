"""Bad beat jackpot serializers: counts, tables, configurations, stops, machine logs and wins."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ledgers.core.api.fields import DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_inputs
from ledgers.core.models import GamingTable
from ledgers.incidents.models import IncidentNotice

from ...models import (
    BadBeatConfig,
    BadBeatCount,
    BadBeatLog,
    BadBeatStop,
    BadBeatStopNotice,
    BadBeatTable,
    BadBeatWin,
)
from .common import session_field


# The bad beat jackpot's inputs and outputs (COUNT-44 to COUNT-48, INC-15).
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


class BadBeatTableInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    machine_approval = serializers.CharField(allow_blank=True)
    cagnotte_number = serializers.CharField(allow_blank=True)


class BadBeatTableOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatTable
        fields = ("id", "table", "machine_approval", "cagnotte_number", "activated_at")


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


class BadBeatStopNoticeInput(serializers.Serializer):
    """The Minister's notice of the final stop is recorded at the time it is given (the request's)."""

    jackpot = jackpot_field()
    channel = serializers.ChoiceField(choices=IncidentNotice.Channel.choices)
    reference = serializers.CharField(max_length=120)


class BadBeatStopNoticeOutput(serializers.ModelSerializer):
    class Meta:
        model = BadBeatStopNotice
        fields = ("id", "jackpot", "notified_at", "channel", "reference", "recorded_by")


class BadBeatFinalStopInput(serializers.Serializer):
    """The final stop counts the SET-42 lead from the Minister's notice the system recorded."""

    jackpot = jackpot_field()


class BadBeatBreakdownInput(serializers.Serializer):
    jackpot = jackpot_field()
    down_at = DateTimeField(validators=[bounded_datetime])
    police_informed_at = DateTimeField(allow_null=True, validators=[bounded_datetime])
    police_service = serializers.CharField(max_length=150, allow_blank=True)


class BadBeatRestoreInput(serializers.Serializer):
    restored_at = DateTimeField(validators=[bounded_datetime])


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
