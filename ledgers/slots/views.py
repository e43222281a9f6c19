"""Web pages of the slot room. Views parse the form, call one service, and show a refusal with its
requirement ID and article without losing what was typed."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, TemplateView

from ledgers.core import service_views

from . import forms, locks, selectors, services
from .models import Intervention, Machine, Releve


class SlotsView(service_views.EstablishmentRequiredMixin):
    def get_context_data(self, **kwargs):
        return super().get_context_data(jurisdiction=self.establishment.jurisdiction, **kwargs)


class ServiceFormView(SlotsView, service_views.ServiceFormView):
    template_name = "slots/form.html"
    title = ""
    submit = _("Enregistrer")
    errors_on_fields = True

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_context_data(self, **kwargs):
        return super().get_context_data(title=self.title, submit=self.submit, **kwargs)

    def get_success_url(self) -> str:
        return reverse("slots:machines")


class MachineListView(SlotsView, TemplateView):
    """The inventory file and the socle file (REG-15), what is under way in the room."""

    template_name = "slots/machines.html"

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            machines=selectors.machines_of(est),
            socles=selectors.socles_of(est),
            releves=selectors.open_releves(est),
            interventions=selectors.open_interventions(est),
            flagged=selectors.flagged_counts(est)[:20],
            **kwargs,
        )


class MachineDetailView(SlotsView, DetailView):
    template_name = "slots/machine.html"
    context_object_name = "machine"

    def get_queryset(self):
        return selectors.machines_of(self.establishment)

    def get_context_data(self, **kwargs):
        machine = self.object
        return super().get_context_data(
            last=selectors.last_values_of(machine),
            moves=machine.moves.all()[:20],
            sheets=machine.sheets.all(),
            interventions=machine.interventions.all()[:20],
            **kwargs,
        )


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


class MachineFormView(ServiceFormView):
    @cached_property
    def machine(self) -> Machine:
        return get_object_or_404(selectors.machines_of(self.establishment), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return super().get_context_data(machine=self.machine, **kwargs)

    def get_success_url(self) -> str:
        return reverse("slots:machine", kwargs={"pk": self.machine.pk})


class ReleveFormView(ServiceFormView):
    @cached_property
    def releve(self) -> Releve:
        return get_object_or_404(Releve, pk=self.kwargs["pk"], establishment=self.establishment)

    def get_context_data(self, **kwargs):
        return super().get_context_data(releve=self.releve, **kwargs)

    def get_success_url(self) -> str:
        return reverse("slots:releve", kwargs={"pk": self.releve.pk})


class SocleCreateView(ServiceFormView):
    form_class = forms.SocleForm
    title = _("Nouveau socle")

    def perform(self, form):
        data = form.cleaned_data
        return services.socle_create(
            establishment=self.establishment,
            room=data["room"],
            number=data["number"],
            position=data["position"],
            actor=self.request.user,
        )


class MachineRegisterView(ServiceFormView):
    form_class = forms.MachineForm
    title = _("Inscription d'une machine à l'inventaire")

    def perform(self, form):
        return services.machine_register(
            establishment=self.establishment,
            data=form.machine_input(),
            actor=self.request.user,
            photo=form.cleaned_data.get("photo"),
        )

    def get_success_url(self) -> str:
        return reverse("slots:machine", kwargs={"pk": self.result.pk})


class SheetView(MachineFormView):
    form_class = forms.SheetForm
    title = _("Nouvelle version de la fiche technique")

    def perform(self, form):
        return services.technical_sheet_record(machine=self.machine, actor=self.request.user, **form.cleaned_data)


class HopperLidView(MachineFormView):
    form_class = forms.ConfirmForm
    title = _("Constater le couvercle fixe de la trémie")

    def perform(self, form):
        return services.hopper_lid_confirm(machine=self.machine, actor=self.request.user)


class MoveView(MachineFormView):
    form_class = forms.MoveForm
    title = _("Déplacement de la machine")

    def perform(self, form):
        signers, data = form.move()
        return services.machine_move(machine=self.machine, actor=self.request.user, signers=signers, **data)


class RamClearView(MachineFormView):
    form_class = forms.RamClearForm
    title = _("Remise à zéro de la mémoire")

    def get_initial(self):
        keys = "\n".join(f"{m.key_at} " for m in self.machine.meters.filter(active=True))
        return {"before": keys, "after": keys}

    def perform(self, form):
        return services.ram_clear_record(machine=self.machine, actor=self.request.user, **form.cleaned_data)


class InterventionOpenView(MachineFormView):
    form_class = forms.InterventionForm
    title = _("Ouverture de la machine (fiche d'intervention)")

    def perform(self, form):
        data = form.cleaned_data
        return services.intervention_open(
            machine=self.machine, actor=self.request.user, reason=data["reason"], stopped_at=data.get("stopped_at")
        )


class InterventionCloseView(ServiceFormView):
    form_class = forms.InterventionCloseForm
    title = _("Fin d'intervention")

    @cached_property
    def intervention(self) -> Intervention:
        return get_object_or_404(Intervention, pk=self.kwargs["pk"], machine__establishment=self.establishment)

    def perform(self, form):
        return services.intervention_close(
            intervention=self.intervention, actor=self.request.user, work_done=form.cleaned_data["work_done"]
        )


class ReleveOpenView(ServiceFormView):
    form_class = forms.ReleveForm
    title = _("Ouverture d'une relève")

    def perform(self, form):
        return services.releve_open(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)

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


class TransmittalView(ServiceFormView):
    form_class = forms.TransmittalForm
    title = _("Remise des fiches du jour à la Direction de l'exploitation")

    def perform(self, form):
        return services.transmittal_hand_over(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class ApprovalView(ServiceFormView):
    form_class = forms.ApprovalForm
    title = _("Agrément d'un membre du personnel")

    def perform(self, form):
        return services.staff_approval_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class SfmVisitView(ServiceFormView):
    form_class = forms.SfmVisitForm
    title = _("Visite de révision de la SFM")

    def perform(self, form):
        return services.sfm_visit_record(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class JackpotView(ServiceFormView):
    form_class = forms.JackpotForm
    title = _("Paiement manuel d'un jackpot")

    def perform(self, form):
        return services.jackpot_pay(actor=self.request.user, **form.payment())


class DisputeView(ServiceFormView):
    form_class = forms.DisputeForm
    title = _("Contestation de paiement")

    def perform(self, form):
        return services.dispute_decide(actor=self.request.user, **form.cleaned_data)


class TopUpView(ServiceFormView):
    form_class = forms.TopUpForm
    title = _("Complément de paiement")

    def perform(self, form):
        return services.top_up_pay(actor=self.request.user, **form.cleaned_data)


class OrphanView(ServiceFormView):
    form_class = forms.OrphanForm
    title = _("Orphelin")

    def perform(self, form):
        return services.orphan_record(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class FilesCopyView(ServiceFormView):
    form_class = forms.FilesCopyForm
    title = _("Copie des fichiers au Secrétariat Général")

    def perform(self, form):
        return services.files_copy_deliver(
            establishment=self.establishment, actor=self.request.user, received_by=form.cleaned_data["received_by"]
        )


class EventsImportView(ServiceFormView):
    form_class = forms.EventsForm
    title = _("Import des événements du système de surveillance")
    submit = _("Importer")
    template_name = "slots/events.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(events=selectors.recent_events(self.establishment), **kwargs)

    def perform(self, form):
        return services.monitoring_events_import(
            establishment=self.establishment, rows=form.cleaned_data["file"], actor=self.request.user
        )

    def get_success_message(self) -> str:
        flagged = sum(1 for event in self.result if event.flag)
        return str(_("%(n)s événements importés, %(f)s non expliqués") % {"n": len(self.result), "f": flagged})


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


class JackpotThresholdView(ServiceFormView):
    """MC: the identity threshold fixed by the Direction, versioned by its effective date (SLOT-16)."""

    form_class = forms.JackpotThresholdForm
    title = _("Seuil d'identification des gagnants")
    template_name = "slots/thresholds.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(history=selectors.jackpot_thresholds(self.establishment), **kwargs)

    def perform(self, form):
        return services.jackpot_threshold_set(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )

    def get_success_url(self) -> str:
        return reverse("slots:jackpot_threshold")


class SocleWithdrawView(ServiceFormView):
    form_class = forms.SocleWithdrawForm
    title = _("Socle sorti de l'exploitation : remise de la serrure et de la clé")

    def perform(self, form):
        data = form.cleaned_data
        return locks.socle_withdraw_handing_over(
            socle=data["socle"],
            actor=self.request.user,
            reason=data["reason"],
            key=data["key"],
            receiver=data["receiver"],
            lock_ref=data["lock_ref"],
        )
