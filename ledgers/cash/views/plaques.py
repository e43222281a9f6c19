"""Pages for the registre des plaques."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from ledgers.core.exports import ListExportMixin

from .. import forms
from ..models import ChipCensus, ChipSeries
from ..services import (
    plaques,
)
from .common import CashFormView


class PlaquesView(ListExportMixin, CashFormView):
    """Modèle 16: the series in the reserve and in service, the censuses (both exported), and the
    census form."""

    form_class = forms.ChipCensusForm
    template_name = "cash/plaques.html"
    title = _("Registre des plaques, jetons et cartes de paiement (modèle 16)")
    submit = _("Inscrire le recensement")

    def export_lists(self):
        est = self.establishment
        series = (
            (
                s.pk,
                s.get_kind_display(),
                s.description,
                s.manufacturer,
                " ; ".join(f"{p['quantity']} × {p['value']}" for p in s.pieces) or s.cards_per_series,
                s.reserve_series,
                s.in_service_series,
            )
            for s in ChipSeries.objects.filter(establishment=est)
        )
        censuses = (
            (
                f"{c.census_date:%d/%m/%Y}",
                c.get_period_display(),
                c.counted_total,
                c.taken_in_charge,
                c.player_held,
                c.account_balance,
                " ; ".join(c.flags),
            )
            for c in ChipCensus.objects.filter(establishment=est)
        )
        return {
            "series-plaques": (
                [
                    _("N° de série"),
                    _("Nature"),
                    _("Description sommaire"),
                    _("Fabricant"),
                    _("Valeurs et nombre par valeur d'une série"),
                    _("Séries à la réserve générale"),
                    _("Séries en service"),
                ],
                series,
            ),
            "recensements": (
                [
                    _("Date du recensement"),
                    _("Recensement"),
                    _("Montant recensé"),
                    _("Montant pris en charge"),
                    _("Montant conservé par les joueurs"),
                    _("Solde créditeur du compte"),
                    _("Observations"),
                ],
                censuses,
            ),
        }

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            series=ChipSeries.objects.filter(establishment=est),
            censuses=ChipCensus.objects.filter(establishment=est),
            due=plaques.censuses_due(est),
            taken_in_charge=plaques.taken_in_charge(est),
            **kwargs,
        )

    def get_success_url(self) -> str:
        return reverse("cash:plaques")

    def perform(self, form):
        return plaques.chip_census_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class ChipSeriesView(CashFormView):
    form_class = forms.ChipSeriesForm
    title = _("Séries de plaques, jetons ou cartes mises en service")

    def get_success_url(self) -> str:
        return reverse("cash:plaques")

    def perform(self, form):
        return plaques.chip_series_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class ChipAllocateView(CashFormView):
    form_class = forms.ChipAllocateForm

    @cached_property
    def series(self) -> ChipSeries:
        return get_object_or_404(ChipSeries, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Répartition entre la réserve générale et le service — %(series)s") % {"series": self.series}

    def get_initial(self):
        return {"in_service_series": self.series.in_service_series}

    def get_success_url(self) -> str:
        return reverse("cash:plaques")

    def perform(self, form):
        return plaques.chip_series_allocate(series=self.series, actor=self.request.user, **form.cleaned_data)
