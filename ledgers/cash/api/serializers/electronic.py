"""Electronic device serializers (modèle 10 bis): devices, station results, day visas, meter statements, cercle days."""

from rest_framework import serializers

from ledgers.core.api.actions import Signature
from ledgers.core.api.fields import DateField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_inputs

from ...models import CercleDeviceDay, DeviceDay, ElectronicDevice, ElectronicMeterStatement, StationResult
from .common import INT_MAX


# Modèle 10 bis (COUNT-51).
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
    date = DateField()
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
    date = DateField()


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
    date = DateField()
    parties = serializers.IntegerField(min_value=0, max_value=INT_MAX)
    levies = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class CercleCertifyInput(Signature):
    words = serializers.CharField(max_length=40, allow_blank=True)


class CercleDayOutput(serializers.ModelSerializer):
    class Meta:
        model = CercleDeviceDay
        fields = ("id", "device", "date", "parties", "levies", "certification", "certified_at")
