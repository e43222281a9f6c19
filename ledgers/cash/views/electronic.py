"""Pages for electronic games."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from .. import forms
from ..models import (
    CercleDeviceDay,
    ElectronicDevice,
    ElectronicMeterStatement,
    StationResult,
)
from ..services import (
    electronic,
)
from .common import CashFormView


class DevicesView(CashFormView):
    """The electronic contrepartie devices, their recent days and visas; the form adds a device."""

    form_class = forms.DeviceForm
    template_name = "cash/devices.html"
    title = _("Jeux de contrepartie électroniques (registre modèle 10 bis)")

    def get_context_data(self, **kwargs):
        devices = ElectronicDevice.objects.filter(establishment=self.establishment)
        results = StationResult.objects.filter(device__establishment=self.establishment).select_related("device")
        cercle_days = CercleDeviceDay.objects.filter(device__establishment=self.establishment).select_related("device")
        statements = ElectronicMeterStatement.objects.filter(establishment=self.establishment)
        return super().get_context_data(
            devices=devices,
            results=results.order_by("-date", "device", "station")[:50],
            cercle_days=cercle_days.order_by("-date")[:50],
            statements=statements[:24],
            **kwargs,
        )

    def get_success_url(self) -> str:
        return reverse("cash:devices")

    def perform(self, form):
        return electronic.device_register(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class DeviceFormView(CashFormView):
    @cached_property
    def device(self) -> ElectronicDevice:
        return get_object_or_404(ElectronicDevice, pk=self.kwargs["pk"], establishment=self.establishment)

    def get_success_url(self) -> str:
        return reverse("cash:devices")


class StationResultView(DeviceFormView):
    form_class = forms.StationResultForm

    @property
    def title(self):
        return _("Résultat d'un poste de jeu — appareil %(device)s") % {"device": self.device}

    def perform(self, form):
        return electronic.station_result_record(device=self.device, actor=self.request.user, **form.cleaned_data)


class DeviceVisaView(DeviceFormView):
    form_class = forms.DeviceVisaForm
    submit = _("Viser")

    @property
    def title(self):
        return _("Visa journalier du modèle 10 bis — appareil %(device)s") % {"device": self.device}

    def perform(self, form):
        return electronic.device_day_visa(device=self.device, actor=self.request.user, date=form.cleaned_data["date"])


class MeterStatementView(CashFormView):
    form_class = forms.MeterStatementForm
    title = _("État mensuel du relevé des compteurs des jeux électroniques (modèle 33)")
    submit = _("Certifier")

    def get_success_url(self) -> str:
        return reverse("cash:devices")

    def perform(self, form):
        data = form.cleaned_data
        return electronic.meter_statement_certify(
            establishment=self.establishment,
            year=data["year"],
            month=data["month"],
            comite=data.get("comite"),
            actor=self.request.user,
        )


class CercleDayView(DeviceFormView):
    form_class = forms.CercleDayForm

    @property
    def title(self):
        return _("État journalier (modèle 7) et carnet 11 quater — appareil %(device)s") % {"device": self.device}

    def perform(self, form):
        return electronic.cercle_day_record(device=self.device, actor=self.request.user, **form.cleaned_data)


class CercleCertifyView(CashFormView):
    form_class = forms.CercleCertifyForm
    submit = _("Certifier")

    @cached_property
    def day(self) -> CercleDeviceDay:
        return get_object_or_404(
            CercleDeviceDay.objects.select_related("device"),
            pk=self.kwargs["pk"],
            device__establishment=self.establishment,
        )

    @property
    def title(self):
        return _("Certification du carnet 11 quater — %(day)s") % {"day": self.day}

    def get_success_url(self) -> str:
        return reverse("cash:devices")

    def perform(self, form):
        return electronic.cercle_day_certify(day=self.day, actor=self.request.user, words=form.cleaned_data["words"])
