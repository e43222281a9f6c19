"""Pages of the slot room's change points and cash desk (SLOT-21, SLOT-48, SLOT-49): the register
of change points with the séance's assignments, and one form per act."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from ledgers.core.exports import ListExportMixin

from ..forms import cashdesk as cashdesk_forms
from ..models import ChangeAssignment, ChangePoint, CounterfeitItem, SlotStaffing
from ..services import cashdesk, staffing
from .common import ServiceFormView, SlotsView


class CashDeskView(SlotsView, ListExportMixin, TemplateView):
    """The change points, their assignments and the counterfeit box, each list exported in full."""

    template_name = "slots/cashdesk.html"

    def lists(self) -> dict:
        est = self.establishment
        return {
            "points": ChangePoint.objects.filter(establishment=est),
            "assignments": ChangeAssignment.objects.filter(point__establishment=est).select_related(
                "point", "seance", "person"
            ),
            "counterfeits": CounterfeitItem.objects.filter(establishment=est).select_related("destruction"),
        }

    def export_lists(self):
        lists = self.lists()
        return {
            "points-de-change": (
                [
                    _("Nature"),
                    _("Désignation"),
                    _("Espèces de l'encaisse (€)"),
                    _("Jetons de l'encaisse (€)"),
                    _("Somme fixe (€)"),
                ],
                ((p.get_kind_display(), p.name, p.cash, p.chips, p.fixed_sum) for p in lists["points"]),
            ),
            "affectations": (
                [_("Séance"), _("Point de change"), _("Affecté"), _("Statut")],
                (
                    (str(a.seance), a.point.name, a.person.get_full_name() or a.person.username, a.get_status_display())
                    for a in lists["assignments"]
                ),
            ),
            "fausses-pieces": (
                [
                    _("Nature"),
                    _("Description"),
                    _("Quantité"),
                    _("Trouvée lors de"),
                    _("Destruction des fausses pièces"),
                ],
                (
                    (
                        i.get_kind_display(),
                        i.description,
                        i.quantity,
                        f"{i.get_found_during_display()} — {self.establishment.localtime(i.found_at):%d/%m/%Y}",
                        str(i.destruction or ""),
                    )
                    for i in lists["counterfeits"]
                ),
            ),
        }

    def get_context_data(self, **kwargs):
        lists = self.lists()
        return super().get_context_data(
            points=lists["points"],
            assignments=lists["assignments"][:50],
            counterfeits=lists["counterfeits"][:50],
            **kwargs,
        )


class CashDeskFormView(ServiceFormView):
    def get_success_url(self) -> str:
        return reverse("slots:cashdesk")


class ChangePointView(CashDeskFormView):
    form_class = cashdesk_forms.ChangePointForm
    title = _("Nouveau point de change")

    def perform(self, form):
        return cashdesk.change_point_create(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class PointFormView(CashDeskFormView):
    @cached_property
    def point(self) -> ChangePoint:
        return get_object_or_404(ChangePoint, pk=self.kwargs["pk"], establishment=self.establishment)


class AssignView(PointFormView):
    form_class = cashdesk_forms.AssignForm
    title = _("Affectation pour la séance")

    def perform(self, form):
        return cashdesk.change_assign(point=self.point, actor=self.request.user, **form.cleaned_data)


class ChangeView(PointFormView):
    form_class = cashdesk_forms.ChangeForm
    title = _("Change")

    def perform(self, form):
        return cashdesk.change_record(point=self.point, actor=self.request.user, **form.cleaned_data)


class AssignmentFormView(CashDeskFormView):
    @cached_property
    def assignment(self) -> ChangeAssignment:
        return get_object_or_404(ChangeAssignment, pk=self.kwargs["pk"], point__establishment=self.establishment)


class JustifyView(AssignmentFormView):
    form_class = cashdesk_forms.JustifyForm
    title = _("Justification de l'encaisse")

    def perform(self, form):
        items = {k: v for k, v in form.cleaned_data.items() if v is not None}
        return cashdesk.encaisse_justify(assignment=self.assignment, items=items, actor=self.request.user)


class RestoreView(AssignmentFormView):
    form_class = cashdesk_forms.RestoreForm
    title = _("Reconstitution de l'encaisse")

    def perform(self, form):
        return cashdesk.encaisse_restore(assignment=self.assignment, actor=self.request.user, **form.cleaned_data)


class AssignmentCloseView(AssignmentFormView):
    form_class = cashdesk_forms.AssignmentCloseForm
    title = _("Encaisse reconstituée")
    submit = _("Clore")

    def perform(self, form):
        return cashdesk.change_assignment_close(
            assignment=self.assignment, actor=self.request.user, **form.cleaned_data
        )


class CounterfeitView(CashDeskFormView):
    form_class = cashdesk_forms.CounterfeitForm
    title = _("Versement au coffret des fausses pièces")

    def perform(self, form):
        return cashdesk.counterfeit_deposit(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class DestructionView(CashDeskFormView):
    form_class = cashdesk_forms.DestructionForm
    title = _("Destruction des fausses pièces")

    def perform(self, form):
        return cashdesk.counterfeit_destroy(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class CommonDeskView(CashDeskFormView):
    form_class = cashdesk_forms.CommonDeskForm
    title = _("Caisse commune")

    def perform(self, form):
        return cashdesk.common_desk_enable(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class StaffingView(ListExportMixin, ServiceFormView):
    """FR SLOT-50: the day's slot-room staffing, before the séance opens, and the days recorded
    (all exported)."""

    template_name = "slots/staffing.html"
    form_class = cashdesk_forms.StaffingForm
    title = _("Personnel de la salle des machines")
    export_name = "personnel-salle-machines"

    def get_queryset(self):
        return SlotStaffing.objects.filter(establishment=self.establishment).select_related(
            "comite", "cashier", "maintainer", "cashier_approval"
        )

    def export_headers(self) -> list:
        return [
            _("Journée"),
            _("Machines en exploitation"),
            _("Membre du comité de direction"),
            _("Caissier"),
            _("Mécanicien ou employé chargé de l'entretien"),
            _("Formation préalable à l'entretien"),
        ]

    def export_rows(self, staffings):
        def name(user):
            return (user.get_full_name() or user.username) if user else ""

        for s in staffings:
            cashier = f"{name(s.cashier)} ({s.cashier_approval.reference})"
            yield (f"{s.date:%d/%m/%Y}", s.machines, name(s.comite), cashier, name(s.maintainer), s.training)

    def get_context_data(self, **kwargs):
        return super().get_context_data(staffings=self.get_queryset()[:60], **kwargs)

    def get_success_url(self) -> str:
        return reverse("slots:staffing")

    def perform(self, form):
        return staffing.staffing_record(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)
