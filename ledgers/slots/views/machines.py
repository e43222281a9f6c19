"""Pages for socles and machines."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, TemplateView
from django_tables2 import SingleTableMixin

from ledgers.core.exports import ListExportMixin, TableExportMixin

from .. import forms, locks, selectors, services
from ..models import Machine
from ..tables import MachineTable
from .common import NOTICE_GIVEN, ServiceFormView, SlotsView


class MachineListView(SlotsView, ListExportMixin, TableExportMixin, SingleTableMixin, TemplateView):
    """The inventory file and the socle file (REG-15), both exported, what is under way in the room."""

    template_name = "slots/machines.html"
    table_class = MachineTable
    export_name = "machines-a-sous"

    def get_table_data(self):
        return selectors.machines_of(self.establishment)

    def export_lists(self):
        socles = (
            (s.number, str(s.room), s.position, s.machine.number if s.machine else "")
            for s in selectors.socles_of(self.establishment)
        )
        return {"socles": ([_("Socle"), _("Salle"), _("Emplacement"), _("Machine")], socles)}

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
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
            move_notice=machine.move_notices.filter(move__isnull=True).first(),
            sheets=machine.sheets.all(),
            interventions=machine.interventions.all()[:20],
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


class MoveNoticeView(MachineFormView):
    form_class = forms.MoveNoticeForm
    title = _("Information de la police donnée avant le déplacement")
    submit = NOTICE_GIVEN
    intro = _(
        "L'information est enregistrée à l'heure où vous la validez ; le déplacement prévu n'est possible "
        "qu'après le délai de préavis compté depuis cette heure, et elle ne vaut que pour le prochain "
        "déplacement de la machine (art. 68-19)."
    )

    def perform(self, form):
        return services.machine_move_notify(machine=self.machine, actor=self.request.user, **form.cleaned_data)


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
