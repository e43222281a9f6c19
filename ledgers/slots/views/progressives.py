"""Pages of FR progressive jackpots, JPM, TITO tickets and modèle 31: the overview, and one form
per act, each calling one service of ``progressives`` or ``unclaimed``."""

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.dateparse import parse_date
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from ledgers.core.countersign import signed_data
from ledgers.core.errors import RuleViolation
from ledgers.core.exports import ListExportMixin
from ledgers.core.templatetags.ledgers import money

from ..forms import progressives as f
from ..models import Progressive, Releve, Ticket
from ..services import jpm, progressives, unclaimed
from .common import NOTICE_GIVEN, ServiceFormView, SlotsView


class ProgressivesView(SlotsView, ListExportMixin, TemplateView):
    """The progressives and JPMs with their last lines, transmissions due, tickets to expire; the
    progressives and the tickets exported."""

    template_name = "slots/progressives.html"

    def progressives(self):
        return Progressive.objects.filter(establishment=self.establishment).prefetch_related(
            "machines", "readings", "jpm_readings", "stop_notices"
        )

    def tickets(self):
        return Ticket.objects.filter(establishment=self.establishment).select_related("machine")

    def export_lists(self):
        def last_reading(p) -> str:
            reading = (p.jpm_readings if p.multisite else p.readings).all()[:1]
            return next((f"{r.day:%d/%m/%Y} — {money(r.displayed)}" for r in reading), "")

        progressives = (
            (
                f"{p} (JPM)" if p.multisite else str(p),
                " ".join(m.number for m in p.machines.all()),
                p.start_amount,
                p.get_status_display(),
                last_reading(p),
            )
            for p in self.progressives()
        )
        tickets = (
            (
                t.number,
                f"{self.establishment.localtime(t.issued_at):%d/%m/%Y %H:%M}",
                t.amount,
                t.machine.number if t.machine else "",
                t.get_status_display(),
            )
            for t in self.tickets()
        )
        return {
            "jackpots-progressifs": (
                [_("Jackpot"), _("Machines"), _("Montant de départ (€)"), _("Statut"), _("Dernier relevé")],
                progressives,
            ),
            "tickets": ([_("Numéro du ticket"), _("Émis le"), _("Montant (€)"), _("Machine"), _("Statut")], tickets),
        }

    def get_context_data(self, **kwargs):
        est = self.establishment
        today = est.localtime().date()
        return super().get_context_data(
            today=today,
            month_start=today.replace(day=1),
            progressives=self.progressives(),
            due=jpm.transmissions_due(est),
            expired=unclaimed.expired_unposted(est).count(),
            tickets=self.tickets()[:50],
            **kwargs,
        )


class ActView(ServiceFormView):
    def get_success_url(self) -> str:
        return reverse("slots:progressives")

    def inputs(self, form) -> dict:
        data = signed_data(form)
        return {**data, "actor": self.request.user}


class ProgressiveCreateView(ActView):
    form_class, title = f.ProgressiveForm, _("Nouveau jackpot progressif")

    def perform(self, form):
        return progressives.progressive_create(establishment=self.establishment, **self.inputs(form))


class ProgressiveReadingView(ActView):
    form_class, title = f.ProgressiveReadingForm, _("Montant affiché à la fermeture")

    def perform(self, form):
        return progressives.progressive_reading_record(**self.inputs(form))


class StopNoticeView(ActView):
    form_class, title = f.StopNoticeForm, _("Information du ministre de l'intérieur donnée")
    submit = NOTICE_GIVEN
    intro = _(
        "L'information est enregistrée à l'heure où vous la validez ; l'arrêt, le transfert ou le retrait n'est "
        "possible qu'après le délai de préavis compté depuis cette heure (art. 68-20-1, 68-20-2)."
    )

    def perform(self, form):
        return progressives.progressive_stop_notify(**self.inputs(form))


class ProgressiveStopView(ActView):
    form_class, title = f.ProgressiveStopForm, _("Arrêt du jackpot progressif")

    def perform(self, form):
        return progressives.progressive_stop(**self.inputs(form))


class RecoverView(ActView):
    form_class, title = f.RecoverForm, _("Reprise de l'incrémentation")

    def perform(self, form):
        return progressives.progressive_increment_recover(**self.inputs(form))


class JpmReadingView(ActView):
    form_class, title = f.JpmReadingForm, _("Relevé avant l'ouverture")

    def perform(self, form):
        return jpm.jpm_reading_record(**self.inputs(form))


class JpmConnectView(ActView):
    form_class, title = f.JpmConnectForm, _("Machine reliée au JPM")

    def perform(self, form):
        return jpm.jpm_connect(**self.inputs(form))


class JpmTechnicalView(ActView):
    form_class, title = f.JpmTechnicalForm, _("Registre de contrôle technique « JPM » (modèle 26)")

    def perform(self, form):
        signers, data = form.signed()
        return jpm.jpm_technical_record(actor=self.request.user, signers=signers, **data)


class JpmWinView(ActView):
    form_class, title = f.JpmWinForm, _("Gain du JPM")

    def perform(self, form):
        return jpm.jpm_win_record(**self.inputs(form))


class JpmRestartView(ActView):
    form_class, title = f.JpmRestartForm, _("Remise en service après gain")

    def perform(self, form):
        return jpm.jpm_restart(**self.inputs(form))


class TransmissionView(ActView):
    form_class, title = f.TransmissionForm, _("Transmission au SCCJ")

    def perform(self, form):
        return jpm.jpm_transmission_record(**self.inputs(form))


class TransmissionCsvView(SlotsView, TemplateView):
    """The SLOT-39 file for a JPM and a period (?start=YYYY-MM-DD&end=YYYY-MM-DD), before sending."""

    def get(self, request, pk):
        jackpot = get_object_or_404(Progressive, pk=pk, establishment=self.establishment, multisite=True)
        start, end = parse_date(request.GET.get("start", "")), parse_date(request.GET.get("end", ""))
        if start is None or end is None:
            return HttpResponse(_("Indiquez la période (start, end)."), status=400)
        try:
            content = jpm.transmission_csv(jackpot, start, end)
        except (RuleViolation, ValidationError) as exc:
            return HttpResponse(getattr(exc, "message", exc), status=400, content_type="text/plain")
        response = HttpResponse(content, content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="jpm-{jackpot.pk}-{start}-{end}.csv"'
        return response


class WithdrawView(ActView):
    form_class, title = f.WithdrawForm, _("Retrait du casino du JPM")

    def perform(self, form):
        return jpm.jpm_withdraw(**self.inputs(form))


class TicketsImportView(ActView):
    form_class, title = f.TicketsImportForm, _("Import des tickets émis")

    def perform(self, form):
        return unclaimed.tickets_import(establishment=self.establishment, **self.inputs(form))


class TicketRedeemView(ActView):
    form_class, title = f.TicketRedeemForm, _("Paiement d'un ticket")

    def perform(self, form):
        return unclaimed.ticket_redeem(establishment=self.establishment, **self.inputs(form))


class TicketsExpireView(ActView):
    form_class, title = f.TicketsExpireForm, _("Tickets périmés aux orphelins")

    def perform(self, form):
        return unclaimed.tickets_expire(establishment=self.establishment, **self.inputs(form))


class ReconciliationView(ActView):
    form_class, title = f.ReconciliationForm, _("État de rapprochement modèle 31")

    @cached_property
    def releve(self) -> Releve:
        return get_object_or_404(Releve, pk=self.kwargs["pk"], establishment=self.establishment)

    def get_context_data(self, **kwargs):
        return super().get_context_data(releve=self.releve, **kwargs)

    def perform(self, form):
        return unclaimed.reconciliation_draw_up(releve=self.releve, **self.inputs(form))

    def get_success_url(self) -> str:
        return reverse("slots:releve", args=[self.releve.pk])
