"""Pages of the roulette cylinders, boule plateaux and wheels: the list, one wheel with its checks,
its registration and service, the check before the séance, the lid lock and the launchers."""

from django.contrib import messages
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from ledgers.core.exports import ListExportMixin, TableExportMixin, listed, table_list

from .. import forms, selectors, services
from ..filtersets import WheelFilter
from ..models import Wheel
from ..specs import spec_items
from ..tables import (
    WheelCheckTable,
    WheelTable,
)
from . import EquipmentFormView, EquipmentPageMixin, ObjectServiceView, TableFlowView


class WheelListView(EquipmentPageMixin, TableExportMixin, SingleTableMixin, FilterView):
    template_name = "equipment/list.html"
    table_class = WheelTable
    filterset_class = WheelFilter
    extra_context = {
        "title": _("Cylindres, plateaux et roues"),
        "create_url": "equipment:wheel_create",
        "create_label": _("Enregistrer un matériel"),
    }

    def get_queryset(self):
        return Wheel.objects.filter(establishment=self.establishment).select_related("table")


class WheelDetailView(EquipmentPageMixin, ListExportMixin, DetailView):
    """A wheel and its checks (the last 30 shown, all exported)."""

    template_name = "equipment/wheel_detail.html"
    context_object_name = "wheel"

    def get_queryset(self):
        return Wheel.objects.filter(establishment=self.establishment).select_related("table")

    def checks(self, wheel: Wheel):
        return wheel.checks.select_related("table_session__seance", "signer", "cosigner", "wheel")

    def export_lists(self):
        wheel = self.get_object()
        return {f"verifications-{slugify(wheel.number)}": table_list(WheelCheckTable(self.checks(wheel)))}

    def get_context_data(self, **kwargs):
        checks = WheelCheckTable(self.checks(self.object)[:30])
        return super().get_context_data(
            checks=listed(checks, f"verifications-{slugify(self.object.number)}"),
            spec=spec_items(self.object.spec),
            **kwargs,
        )


class WheelCreateView(EquipmentFormView):
    form_class = forms.WheelRegisterForm
    title = _("Enregistrer un cylindre, un plateau ou une roue")
    requirements = ("WHEEL-01", "WHEEL-03", "WHEEL-04", "WHEEL-05", "WHEEL-07")
    template_name = "equipment/wheel_form.html"

    def get_initial(self):
        # The text's specification for the chosen kind; what was already typed is kept.
        typed = {key: self.request.GET[key] for key in ("number", "serial") if key in self.request.GET}
        return {**forms.WheelRegisterForm.initial_for(self.request.GET.get("kind", "roulette_europeenne")), **typed}

    def get_template_names(self):
        # HTMX: changing the kind reloads the fields with the text's specification for it.
        if self.request.htmx:
            return ["equipment/_wheel_fields.html"]
        return [self.template_name]

    def act(self, data):
        return services.wheel_register(
            establishment=self.establishment,
            number=data["number"],
            kind=data["kind"],
            spec=data["spec"],
            actor=self.request.user,
            serial=data["serial"],
        )

    def success_url_for(self, result):
        return reverse("equipment:wheel_detail", args=[result.pk])


class WheelObjectView(ObjectServiceView):
    model = Wheel

    def success_url_for(self, result):
        return reverse("equipment:wheel_detail", args=[self.object.pk])


class WheelCommissionView(WheelObjectView):
    form_class = forms.ConfirmForm
    title = _("Mise en service : validation des caractéristiques")
    requirements = ("WHEEL-01", "WHEEL-03", "WHEEL-04", "WHEEL-05", "WHEEL-07")

    def act(self, data):
        return services.wheel_commission(wheel=self.object, actor=self.request.user)


class WheelInstallView(WheelObjectView):
    form_class = forms.WheelInstallForm
    title = _("Installer à une table")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "kind": self.object.kind}

    def act(self, data):
        return services.wheel_install(wheel=self.object, table=data["table"], actor=self.request.user)


class WheelCheckView(TableFlowView):
    form_class = forms.WheelCheckForm
    title = _("Vérification du matériel avant la séance")
    requirements = ("WHEEL-06", "WHEEL-08", "INC-08", "REG-11", "REG-12")
    submit_label = _("Signer la vérification")

    def act(self, data):
        check = services.wheel_check_record(
            session=data["session"],
            actor=self.request.user,
            cosigner=data["cosigner"],
            points=data["points_list"],
            passed=data["passed"],
            observations=data["observations"],
        )
        if check.incident:
            messages.error(
                self.request,
                _("Vérification non conforme : incident n° %(n)s ouvert, la table reste fermée.")
                % {"n": check.incident.pk},
            )
        return check


class LidLockView(TableFlowView):
    form_class = forms.LidLockForm
    title = _("Fin de partie : cylindre recouvert et fermé à clé")
    requirements = ("WHEEL-02", "KEY-08")

    def act(self, data):
        return services.wheel_lid_lock(
            session=data["session"], actor=self.request.user, key_holder=data["key_holder"] or self.request.user
        )


# --- Launchers at roulette and boule (WHEEL-09) --------------------------------------------------


class LaunchRosterView(TableFlowView):
    form_class = forms.LaunchRosterForm
    title = _("Ordre de roulement des lanceurs")
    requirements = ("WHEEL-09",)
    success_message = _("Ordre de roulement établi.")

    def get_initial(self):
        """The table-partie asked for, and the order in force there, to start from."""
        initial = super().get_initial()
        session_id = initial["session"] or ""
        table_session = (
            selectors.live_sessions(self.establishment).filter(pk=session_id).first() if session_id.isdigit() else None
        )
        roster = selectors.roster_in_force(table_session) if table_session else None
        if roster is not None:
            initial.update({f"place_{place.position}": place.croupier_id for place in roster.places.all()})
        return initial

    def act(self, data):
        return services.launch_roster_set(
            session=data["session"], croupiers=data["croupiers"], actor=self.request.user, note=data["note"]
        )


class LaunchTurnView(TableFlowView):
    form_class = forms.LaunchTurnForm
    title = _("Lanceur et relève")
    requirements = ("WHEEL-09",)
    success_message = _("Tour de lancement inscrit.")

    def act(self, data):
        turn = services.launch_turn_record(
            session=data["session"],
            launcher=data["launcher"],
            actor=self.request.user,
            started_at=data["started_at"],
            observations=data["observations"],
        )
        self.report_flags(turn.flags)
        return turn
