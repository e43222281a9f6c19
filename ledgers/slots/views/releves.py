"""Pages for relèves."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView

from ledgers.core.countersign import signed_data

from .. import forms, services
from ..models import Releve
from .common import ServiceFormView, SlotsView


class ReleveDetailView(SlotsView, DetailView):
    template_name = "slots/releve.html"
    context_object_name = "releve"

    def get_queryset(self):
        return Releve.objects.filter(establishment=self.establishment)

    def get_context_data(self, **kwargs):
        releve = self.object
        return super().get_context_data(
            readings=releve.readings.select_related("meter__machine").order_by("meter__machine_id", "meter_id")[:500],
            boxes=releve.boxes.select_related("machine"),
            counts=releve.counts.select_related("machine"),
            **kwargs,
        )


class ReleveFormView(ServiceFormView):
    @cached_property
    def releve(self) -> Releve:
        return get_object_or_404(Releve, pk=self.kwargs["pk"], establishment=self.establishment)

    def get_context_data(self, **kwargs):
        return super().get_context_data(releve=self.releve, **kwargs)

    def get_success_url(self) -> str:
        return reverse("slots:releve", kwargs={"pk": self.releve.pk})


class ReleveOpenView(ServiceFormView):
    form_class = forms.ReleveForm
    title = _("Ouverture d'une relève")

    def perform(self, form):
        return services.releve_open(establishment=self.establishment, actor=self.request.user, **signed_data(form))

    def get_success_url(self) -> str:
        return reverse("slots:releve", kwargs={"pk": self.result.pk})


class ImportView(ReleveFormView):
    form_class = forms.ImportForm
    title = _("Import des compteurs de la relève")
    submit = _("Importer")

    def perform(self, form):
        return services.releve_readings_import(
            releve=self.releve, rows=form.cleaned_data["file"], actor=self.request.user
        )

    def get_success_message(self) -> str:
        return str(_("%(n)s relevés enregistrés.") % {"n": self.result.readings})


class BoxView(ReleveFormView):
    form_class = forms.BoxForm
    title = _("Échange de boîte")

    def perform(self, form):
        return services.box_exchange(releve=self.releve, actor=self.request.user, **form.cleaned_data)


class CountView(ReleveFormView):
    form_class = forms.CountForm
    title = _("Comptage d'une machine")

    def perform(self, form):
        return services.drop_count_record(releve=self.releve, actor=self.request.user, **form.cleaned_data)


class ReleveCloseView(ReleveFormView):
    form_class = forms.CloseReleveForm
    title = _("Clôture de la relève")

    def perform(self, form):
        return services.releve_close(
            releve=self.releve, actor=self.request.user, sworn_agent=form.cleaned_data.get("sworn_agent")
        )


class VarianceThresholdView(ServiceFormView):
    """The reconciliation threshold the establishment chooses (SLOT-11)."""

    form_class = forms.VarianceThresholdForm
    title = _("Seuil d'écart des comptages")
    template_name = "slots/thresholds.html"

    def get_context_data(self, **kwargs):
        threshold = services.variance_threshold(self.establishment)
        current = " / ".join(
            f"{threshold[k]} {unit}" for k, unit in (("percent", "%"), ("amount", "€")) if threshold[k] is not None
        )
        return super().get_context_data(current=current, **kwargs)

    def perform(self, form):
        return services.variance_threshold_choose(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )

    def get_success_url(self) -> str:
        return reverse("slots:variance_threshold")
