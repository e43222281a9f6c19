"""Pages for the registre de contrôle."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from ledgers.core.exports import ListExportMixin

from .. import forms, selectors, services
from ..models import ControlDay
from .common import CashFormView, CashPageMixin


class ControlView(ListExportMixin, CashFormView):
    """The registre de contrôle: the closed days (all exported), and the closing of a day."""

    form_class = forms.ControlCloseForm
    template_name = "cash/control.html"
    title = _("Registre de contrôle (modèle 12)")
    submit = _("Reporter et arrêter la journée")
    success_message = _("Journée reportée et arrêtée au registre de contrôle.")
    export_name = "registre-controle"

    def get_initial(self):
        return {"date": selectors.day_to_close(self.establishment)}

    def get_queryset(self):
        return ControlDay.objects.filter(establishment=self.establishment)

    def export_headers(self) -> list:
        return [_("Date"), _("Total"), _("Arrêté en toutes lettres"), _("Statut")]

    def export_rows(self, days):
        for day in days:
            yield (str(day), day.total, day.total_words, day.get_status_display())

    def get_context_data(self, **kwargs):
        return super().get_context_data(days=self.get_queryset()[:31], **kwargs)

    def get_success_url(self) -> str:
        return reverse("cash:control")

    def perform(self, form):
        return services.control_day_close(
            establishment=self.establishment, date=form.cleaned_data["date"], actor=self.request.user
        )


class ControlVisaView(CashFormView):
    form_class = forms.ControlVisaForm
    submit = _("Viser")

    @cached_property
    def day(self) -> ControlDay:
        return get_object_or_404(ControlDay, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Visa du registre de contrôle — journée du %(day)s") % {"day": self.day}

    def get_success_url(self) -> str:
        return reverse("cash:control")

    def perform(self, form):
        return services.control_day_visa(
            day=self.day, actor=self.request.user, statement=form.cleaned_data.get("statement", "")
        )


class ExceptionsView(CashPageMixin, ListExportMixin, TemplateView):
    """What the table cash reports without refusing it (FLAG rows); each list exported."""

    template_name = "cash/exceptions.html"

    def export_lists(self):
        est = self.establishment
        slips = ((str(row.get("slip") or row["book"]), str(row["what"])) for row in selectors.slip_exceptions(est))
        floats = ((str(f.table_session), " ; ".join(f.flags)) for f in selectors.float_flags(est))
        bad_beats = ((str(c.table_session), " ; ".join(c.flags)) for c in selectors.bad_beat_flags(est))
        return {
            "signalements-bons": ([_("Bon ou carnet"), _("Signalement")], slips),
            "signalements-avances": ([_("Partie"), _("Signalements")], floats),
            "signalements-bad-beat": ([_("Partie"), _("Signalements")], bad_beats),
        }

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            slips=selectors.slip_exceptions(est),
            floats=selectors.float_flags(est),
            bad_beats=selectors.bad_beat_flags(est),
            **kwargs,
        )
