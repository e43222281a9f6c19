"""Pages of FR slot accounting: a machine's carnet de comptabilité modèle 29 (its lines and open
bons) and one form per act, each calling one service of ``accounting``."""

from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView

from ledgers.core.countersign import signed_data
from ledgers.core.exports import ListExportMixin

from .. import selectors
from ..forms import accounting as accounting_forms
from ..services import accounting
from .common import ServiceFormView, SlotsView
from .machines import MachineFormView


class CarnetView(SlotsView, ListExportMixin, DetailView):
    """A machine's carnet de comptabilité, its lines exported."""

    template_name = "slots/carnet.html"
    context_object_name = "machine"

    def get_queryset(self):
        return selectors.machines_of(self.establishment)

    def export_lists(self):
        machine = self.get_object()
        lines = (
            (
                f"{line.day:%d/%m/%Y}",
                line.get_kind_display(),
                line.amount,
                line.entry.payload.get("detail", ""),
                line.entry.payload.get("signature", ""),
            )
            for line in machine.accounting_lines.select_related("entry")
        )
        headers = [_("Journée"), _("Nature"), _("Montant (€)"), _("Détail"), _("Visas")]
        return {f"carnet-{slugify(machine.number)}": (headers, lines)}

    def get_context_data(self, **kwargs):
        machine = self.object
        return super().get_context_data(
            lines=machine.accounting_lines.select_related("cashier", "comite"),
            open_totals=accounting.open_totals(machine),
            **kwargs,
        )


class MachineActView(MachineFormView):
    """An act on one machine's carnet; back to the carnet when done."""

    def get_success_url(self) -> str:
        return reverse("slots:carnet", args=[self.machine.pk])

    def cleaned(self, form) -> dict:
        data = signed_data(form)
        # The form took the writer's password again: the line is signed by them (REG-28).
        return {**data, "machine": self.machine, "actor": self.request.user, "signed_by": self.request.user}


class AvanceView(MachineActView):
    form_class = accounting_forms.AvanceForm
    title = _("Bon d'avance machine")

    def perform(self, form):
        return accounting.avance_issue(**self.cleaned(form))


class TicketsView(MachineActView):
    form_class = accounting_forms.TicketsForm
    title = _("Tickets émis par la machine")

    def perform(self, form):
        return accounting.tickets_record(**self.cleaned(form))


class CountView(MachineActView):
    form_class = accounting_forms.CountForm
    title = _("Comptage au carnet de comptabilité")

    def perform(self, form):
        return accounting.count_record(**self.cleaned(form))


class PaymentPostView(ServiceFormView):
    form_class = accounting_forms.PaymentPostForm
    title = _("Paiement à la caisse au carnet de comptabilité")

    def perform(self, form):
        return accounting.payment_post(
            payment=form.cleaned_data["payment"],
            comite=form.cleaned_data["comite"],
            actor=self.request.user,
            signed_by=self.request.user,  # re-authenticated by the form (REG-28)
        )

    def get_success_url(self) -> str:
        return reverse("slots:carnet", args=[self.result.machine_id])


class StatementView(ServiceFormView):
    form_class = accounting_forms.StatementForm
    title = _("État récapitulatif mensuel modèle 35")
    submit = _("Certifier")

    def perform(self, form):
        return accounting.statement_certify(**self.month_inputs(form))

    def month_inputs(self, form) -> dict:
        data = signed_data(form)
        return {**data, "establishment": self.establishment, "actor": self.request.user}


class MeterStatementView(StatementView):
    form_class = accounting_forms.MonthForm
    title = _("État mensuel du relevé des compteurs modèle 32")

    def perform(self, form):
        return accounting.meter_statement_certify(**self.month_inputs(form))
