"""Pages for electronic games."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from ledgers.core.exports import ListExportMixin

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


class DevicesView(ListExportMixin, CashFormView):
    """The electronic contrepartie devices, their recent days and visas, each list exported in full;
    the form adds a device."""

    form_class = forms.DeviceForm
    template_name = "cash/devices.html"
    title = _("Jeux de contrepartie électroniques (registre modèle 10 bis)")

    def lists(self) -> dict:
        est = self.establishment
        return {
            "devices": ElectronicDevice.objects.filter(establishment=est),
            "results": StationResult.objects.filter(device__establishment=est)
            .select_related("device")
            .order_by("-date", "device", "station"),
            "cercle_days": CercleDeviceDay.objects.filter(device__establishment=est)
            .select_related("device")
            .order_by("-date"),
            "statements": ElectronicMeterStatement.objects.filter(establishment=est),
        }

    def export_lists(self):
        lists = self.lists()
        return {
            "appareils": (
                [_("Appareil n°"), _("Famille"), _("Jeu pratiqué"), _("Postes de jeu")],
                ((d.number, d.get_family_display(), str(d.game), d.stations) for d in lists["devices"]),
            ),
            "cagnottes-11-quater": (
                [_("Date"), _("Appareil n°"), _("Parties"), _("Retenues"), _("Observations")],
                (
                    (f"{c.date:%d/%m/%Y}", c.device.number, c.parties, c.levies, c.certification)
                    for c in lists["cercle_days"]
                ),
            ),
            "registre-10-bis": (
                [
                    _("Date"),
                    _("Appareil n°"),
                    _("Poste"),
                    _("Avances"),
                    _("Comptée physique"),
                    _("Comptée électronique"),
                    _("Tickets émis"),
                    _("Produit"),
                ],
                (
                    (
                        f"{r.date:%d/%m/%Y}",
                        r.device.number,
                        r.station,
                        r.avances,
                        r.physical_count,
                        r.electronic_count,
                        r.tickets_issued,
                        r.product,
                    )
                    for r in lists["results"]
                ),
            ),
            "etats-33": (
                [_("Mois"), _("Appareils"), _("Produit"), _("Certifié le")],
                (
                    (
                        f"{s.month:02d}/{s.year}",
                        ", ".join(str(line["device"]) for line in s.lines),
                        s.total,
                        f"{self.establishment.localtime(s.certified_at):%d/%m/%Y %H:%M}" if s.certified_at else "",
                    )
                    for s in lists["statements"]
                ),
            ),
        }

    def get_context_data(self, **kwargs):
        lists = self.lists()
        return super().get_context_data(
            devices=lists["devices"],
            results=lists["results"][:50],
            cercle_days=lists["cercle_days"][:50],
            statements=lists["statements"][:24],
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
