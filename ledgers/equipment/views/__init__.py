"""Pages of the sabot, shuffler and wheel flows. Views shape input and call the services; a refused
action shows its requirement ID, article and message above the form, with the input kept."""

import datetime
from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, TemplateView
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from ledgers.core.authz import refusal_of
from ledgers.core.exports import ListExportMixin, TableExportMixin, listed, table_list
from ledgers.core.jurisdictions import requirements_of
from ledgers.core.models import GamingTable
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession
from ledgers.incidents.selectors import open_incidents
from ledgers.registers.models import Register

from .. import forms, selectors, services
from ..domains import SHOES
from ..filtersets import ShoeFilter, ShufflerFilter
from ..models import ApprovedModel, Shoe, ShoeAllocation, Shuffler, ShufflerUse, WheelCheck
from ..specs import ROTATION_GAMES
from ..tables import (
    AllocationTable,
    ApprovedModelTable,
    DestructionTable,
    ExceptionTable,
    LaunchTurnTable,
    ShoeTable,
    ShufflerTable,
    WheelCheckTable,
)
from ..volumes import required_volumes


class EquipmentPageMixin(EstablishmentRequiredMixin):
    """A page under the equipment menu, which offers the sabots' allocation and return only to
    whom their services let do them."""

    def get_context_data(self, **kwargs) -> dict[str, Any]:
        user, est = self.request.user, self.establishment
        return super().get_context_data(
            shoe_allocation_refusal=services.shoe_allocation_refusal(user, est),
            shoe_return_refusal=refusal_of(lambda: services.shoe_returner_role(user, est)),
            **kwargs,
        )


class EquipmentFormView(EquipmentPageMixin, ServiceFormView):
    """A form whose valid input goes to one service (``act``); the page names the requirements
    that may refuse it."""

    template_name = "equipment/form.html"
    form_class: type[forms.EstablishmentForm]
    title = ""
    requirements: tuple[str, ...] = ()
    submit_label = _("Enregistrer")

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_context_data(self, **kwargs) -> dict[str, Any]:
        return super().get_context_data(
            title=self.title,
            submit_label=self.submit_label,
            subject=self.subject(),
            requirements=[
                (code, row.article) for code, row in requirements_of(self.requirements, self.establishment.jurisdiction)
            ],
            **kwargs,
        )

    def subject(self) -> Any:
        return None

    def perform(self, form) -> Any:
        return self.act(form.cleaned_data)

    def act(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def get_success_url(self) -> str:
        return self.success_url_for(self.result)

    def success_url_for(self, result: Any) -> str:
        return reverse("equipment:overview")


class TableFlowView(EquipmentFormView):
    """A flow at one table-partie, offered on the table page (``?session=``), which the user goes
    back to afterwards."""

    def get_initial(self) -> dict[str, Any]:
        return {"session": self.request.GET.get("session")}

    def success_url_for(self, result: Any) -> str:
        return reverse("equipment:table", args=[result.table_session.table_id])

    def report_flags(self, flags: list[dict]) -> None:
        """Show what the record flagged (allowed, but reported)."""
        for flag in flags:
            messages.warning(self.request, f"{flag['code']} — {flag['text']}")


class ObjectServiceView(EquipmentFormView):
    """A service form about one object of the establishment (``model``, by pk)."""

    model: type

    @cached_property
    def object(self) -> Any:
        return get_object_or_404(self.scoped(self.model.objects.all()), pk=self.kwargs["pk"])

    def scoped(self, qs: QuerySet) -> QuerySet:
        return qs.filter(establishment=self.establishment)

    def subject(self) -> Any:
        return self.object


# --- Overview ---------------------------------------------------------------------------------


class OverviewView(EquipmentPageMixin, ListExportMixin, TemplateView):
    """Each table with its partie and its equipment, exported as the page shows it."""

    template_name = "equipment/overview.html"
    export_name = "materiel-par-table"

    def get_queryset(self):
        return selectors.table_overview(self.establishment)

    def export_headers(self) -> list:
        return [_("Table"), _("Partie"), _("Sabot"), _("Mélangeur"), _("Cylindre / roue"), _("Vérification")]

    def export_rows(self, rows):
        for row in rows:
            session = f"{row.session.seance} — {row.session.get_status_display()}" if row.session else ""
            shufflers = ", ".join(f"{m} ({m.get_status_display().lower()})" for m in row.shufflers)
            check = (_("conforme") if row.check.passed else _("non conforme")) if row.check else ""
            yield (str(row.table), session, ", ".join(map(str, row.shoes)), shufflers, str(row.wheel or ""), str(check))

    def get_context_data(self, **kwargs) -> dict[str, Any]:
        opened = set(
            Register.objects.filter(establishment=self.establishment, status=Register.Status.OPEN).values_list(
                "kind", "qualifier"
            )
        )
        return super().get_context_data(
            rows=self.get_queryset(),
            missing=[
                (kind, qualifier)
                for kind, qualifier in required_volumes(self.establishment)
                if (kind, qualifier) not in opened
            ],
            flagged=selectors.exceptions(self.establishment)[:20],
            incidents=open_incidents(self.establishment).filter(
                category__in=("shuffler_malfunction", "equipment_check")
            ),
            **kwargs,
        )


class TableEquipmentView(EquipmentPageMixin, TemplateView):
    template_name = "equipment/table.html"

    def get_context_data(self, **kwargs) -> dict[str, Any]:
        table = get_object_or_404(GamingTable, establishment=self.establishment, pk=self.kwargs["pk"])
        row = next(r for r in selectors.table_overview(self.establishment) if r.table.pk == table.pk)
        allocations = ShoeAllocation.objects.filter(table_session__table=table).select_related(
            "shoe", "table_session__seance", "table_session__table", "allocated_by"
        )[:30]
        checks = WheelCheck.objects.filter(table_session__table=table).select_related(
            "wheel", "table_session__seance", "signer", "cosigner"
        )[:30]
        return super().get_context_data(
            row=row,
            allocations=listed(AllocationTable(allocations), "sabots-affectes"),
            checks=listed(WheelCheckTable(checks), "verifications"),
            uses=ShufflerUse.objects.filter(table_session__table=table).select_related(
                "shuffler", "table_session__seance"
            )[:30],
            rotation=self.rotation(row),
            allocate_refusal=services.shoe_allocation_refusal(self.request.user, self.establishment, table.game),
            shoe_offered=services.plays_with_shoe(table, self.establishment),
            **kwargs,
        )

    def rotation(self, row: selectors.TableEquipment) -> dict[str, Any] | None:
        """MC roulette and boule: the ordre de roulement in force, the launch turns of the partie,
        and the form the chef de table writes the next turn with (WHEEL-09)."""
        session = row.session
        if session is None or row.table.game not in ROTATION_GAMES[self.establishment.jurisdiction]:
            return None
        form = None
        if session.status == session.Status.OPEN:
            form = forms.LaunchTurnForm(
                establishment=self.establishment,
                request=self.request,
                initial={"session": session.pk, "launcher": selectors.next_launcher(session)},
            )
        return {
            "roster": selectors.roster_in_force(session),
            "turns": listed(LaunchTurnTable(selectors.launch_turns(session)), "lancements"),
            "counts": selectors.launch_counts(session),
            "form": form,
        }


# --- Models ------------------------------------------------------------------------------------


class ApprovedModelListView(EquipmentPageMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "equipment/list.html"
    table_class = ApprovedModelTable
    extra_context = {
        "title": _("Modèles agréés"),
        "create_url": "equipment:model_create",
        "create_label": _("Enregistrer un modèle"),
    }

    def get_table_data(self):
        return ApprovedModel.objects.filter(establishment=self.establishment)


class ApprovedModelCreateView(EquipmentFormView):
    form_class = forms.ApprovedModelForm
    title = _("Enregistrer un modèle de sabot ou de mélangeur")
    requirements = ("SHOE-04", "SHOE-07", "SHOE-08", "SHUF-01", "SHUF-11")

    def act(self, data):
        return services.approved_model_register(
            establishment=self.establishment,
            kind=data["kind"],
            manufacturer=data["manufacturer"],
            name=data["name"],
            actor=self.request.user,
            approval_reference=data["approval_reference"],
            approval_issuer=data["approval_issuer"],
            approved_on=data["approved_on"],
            approved_until=data["approved_until"],
        )

    def success_url_for(self, result):
        return reverse("equipment:model_list")


# --- Sabots ------------------------------------------------------------------------------------


class ShoeListView(EquipmentPageMixin, TableExportMixin, SingleTableMixin, FilterView):
    template_name = "equipment/list.html"
    table_class = ShoeTable
    filterset_class = ShoeFilter
    extra_context = {
        "title": _("Sabots"),
        "create_url": "equipment:shoe_receive",
        "create_label": _("Prendre en charge des sabots"),
    }

    def get_queryset(self):
        return Shoe.objects.filter(establishment=self.establishment).select_related(
            "model", "location", "table_session__table"
        )


class ShoeDetailView(EquipmentPageMixin, ListExportMixin, DetailView):
    """A sabot and its allocations, exported."""

    template_name = "equipment/shoe_detail.html"
    context_object_name = "shoe"

    def get_queryset(self):
        return Shoe.objects.filter(establishment=self.establishment).select_related("model", "location")

    def allocations(self, shoe: Shoe):
        rows = shoe.allocations.select_related("table_session__seance", "table_session__table", "allocated_by", "shoe")
        return listed(AllocationTable(rows), f"affectations-{slugify(shoe.serial)}")

    def export_lists(self):
        table = self.allocations(self.get_object())
        return {table.export_list: table_list(table)}

    def get_context_data(self, **kwargs):
        return super().get_context_data(allocations=self.allocations(self.object), **kwargs)


class ShoeReceiveView(EquipmentFormView):
    form_class = forms.ShoeReceiveForm
    title = _("Prise en charge de sabots")
    requirements = ("SHOE-01", "SHOE-02", "SHOE-09", "SHOE-10", "SHOE-11")
    success_message = _("Sabots pris en charge et inscrits à l'inventaire.")

    def act_refusal(self):
        return refusal_of(lambda: services.shoe_keeper_role(self.request.user, self.establishment))

    def act(self, data):
        return services.shoe_receive(
            establishment=self.establishment,
            model=data["model"],
            location=data["location"],
            shoes=data["numbers"],
            actor=self.request.user,
            delivery_note=data["delivery_note"],
        )

    def success_url_for(self, result):
        return reverse("equipment:shoe_list")


class ShoeUpdateView(ObjectServiceView):
    model = Shoe
    form_class = forms.ShoeUpdateForm
    title = _("Fiche du sabot")
    requirements = ("SHOE-10",)

    def act_refusal(self):
        return refusal_of(lambda: services.shoe_keeper_role(self.request.user, self.establishment))

    def get_initial(self):
        return {"number": self.object.serial, "model": self.object.model, "maker_serial": self.object.maker_serial}

    def act(self, data):
        return services.shoe_update(
            shoe=self.object,
            actor=self.request.user,
            number=data["number"],
            model=data["model"],
            maker_serial=data["maker_serial"],
        )

    def success_url_for(self, result):
        return reverse("equipment:shoe_detail", args=[result.pk])


class ShoeWithdrawView(ObjectServiceView):
    model = Shoe
    form_class = forms.ShoeWithdrawForm
    title = _("Déclarer le sabot hors d'usage")
    requirements = ("SHOE-03",)

    def act_refusal(self):
        return refusal_of(lambda: services.shoe_keeper_role(self.request.user, self.establishment))

    def act(self, data):
        return services.shoe_withdraw(
            shoe=self.object, actor=self.request.user, reason=data["reason"], to_location=data["to_location"]
        )

    def success_url_for(self, result):
        return reverse("equipment:shoe_detail", args=[result.pk])


class ShoeAllocateView(TableFlowView):
    form_class = forms.ShoeAllocateForm
    title = _("Sortie ou affectation d'un sabot à une table")
    requirements = ("SHOE-02", "SHOE-04", "SHOE-05", "SHOE-06", "SHOE-07", "SHOE-08", "SHOE-11", "SHOE-12", "SHOE-13")
    success_message = _("Sabot affecté à la table.")

    def act_refusal(self):
        # At the table the page was opened for, the allocators of its game; else those of any game.
        session = self.request.POST.get("session") or self.request.GET.get("session", "")
        game = (
            GamingTable.objects.filter(sessions__pk=session, sessions__seance__establishment=self.establishment)
            .values_list("game", flat=True)
            .first()
            if session.isdigit()
            else None
        )
        return services.shoe_allocation_refusal(self.request.user, self.establishment, game or "")

    def act(self, data):
        allocation = services.shoe_allocate(
            session=data["session"], shoe=data["shoe"], actor=self.request.user, received_by=data["received_by"]
        )
        self.report_flags(allocation.flags)
        return allocation


class ShoeReturnView(EquipmentFormView):
    form_class = forms.ShoeReturnForm
    title = _("Rentrée des sabots au dépôt")
    requirements = ("SHOE-02", "SHOE-09")
    success_message = _("Sabots rentrés au dépôt.")

    def act_refusal(self):
        return refusal_of(lambda: services.shoe_returner_role(self.request.user, self.establishment))

    def act(self, data):
        return services.shoe_return(
            shoes=list(data["shoes"]),
            to_location=data["to_location"],
            actor=self.request.user,
            returned_by=data["returned_by"],
        )


class RepeatedPairsView(EquipmentPageMixin, ListExportMixin, TemplateView):
    """The periodic report of sabot × table pairs (SHOE-05, SHOE-12), exported for the period asked."""

    template_name = "equipment/repeated_pairs.html"
    export_name = "affectations-repetees"

    @cached_property
    def form(self):
        today = timezone.localdate()
        query = {k: v for k, v in self.request.GET.items() if not k.startswith("_")}
        return forms.RepeatedPairsForm(
            query or {"date_from": today - datetime.timedelta(days=30), "date_to": today, "minimum": 2}
        )

    def get_queryset(self) -> list[dict]:
        if not self.form.is_valid():
            return []
        data = self.form.cleaned_data
        return selectors.repeated_pairs(self.establishment, data["date_from"], data["date_to"], data["minimum"])

    def export_headers(self) -> list:
        return [_("Sabot"), _("Table"), _("Affectations"), _("dont signalées"), _("Première"), _("Dernière")]

    def export_rows(self, rows):
        for row in rows:
            first, last = (f"{day:%d/%m/%Y}" if day else "" for day in (row["first"], row["last"]))
            yield (str(row["shoe"]), str(row["table"]), row["count"], row["flagged"], first, last)

    def get_context_data(self, **kwargs):
        window = self.establishment.setting("SET-20")
        return super().get_context_data(form=self.form, rows=self.get_queryset(), window=window, **kwargs)


class DestructionListView(EquipmentPageMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "equipment/destructions.html"
    table_class = DestructionTable
    export_name = "destructions-sabots"

    def get_table_data(self):
        return (
            DestructionSession.objects.filter(establishment=self.establishment, domain=SHOES.code)
            .select_related("officer", "witness")
            .prefetch_related("items")
            .order_by("-planned_at")
        )


class DestructionPlanView(EquipmentFormView):
    form_class = forms.DestructionPlanForm
    title = _("Programmer une destruction ou une neutralisation de sabots")
    requirements = ("SHOE-03", "CARD-10", "CARD-11")

    def act(self, data):
        return custody.destruction_plan(
            domain=SHOES,
            establishment=self.establishment,
            method=data["method"],
            planned_at=data["planned_at"],
            items=list(data["shoes"]),
            actor=self.request.user,
        )

    def success_url_for(self, result):
        return reverse("equipment:destruction_list")


class DestructionStepView(ObjectServiceView):
    model = DestructionSession

    def scoped(self, qs):
        return qs.filter(establishment=self.establishment, domain=SHOES.code)

    def success_url_for(self, result):
        return reverse("equipment:destruction_list")


class DestructionNotifyView(DestructionStepView):
    form_class = forms.DestructionNotifyForm
    title = _("Information préalable du Service de Contrôle des Jeux")
    requirements = ("SHOE-03", "CARD-11")

    def act(self, data):
        return custody.destruction_notify(
            session=self.object,
            channel=data["channel"],
            reference=data["reference"],
            actor=self.request.user,
        )


class DestructionCompleteView(DestructionStepView):
    form_class = forms.DestructionCompleteForm
    title = _("Exécution de la destruction")
    requirements = ("SHOE-03", "SHOE-11")
    submit_label = _("Détruire et inscrire les sorties")

    def act(self, data):
        return custody.destruction_complete(
            session=self.object,
            domain=SHOES,
            actor=self.request.user,
            witness=data["witness"],
            observations=data["observations"],
        )


# --- Shufflers -------------------------------------------------------------------------------


class ShufflerListView(EquipmentPageMixin, TableExportMixin, SingleTableMixin, FilterView):
    template_name = "equipment/list.html"
    table_class = ShufflerTable
    filterset_class = ShufflerFilter
    extra_context = {
        "title": _("Mélangeurs et mélangeurs distributeurs"),
        "create_url": "equipment:shuffler_create",
        "create_label": _("Enregistrer un mélangeur"),
    }

    def get_queryset(self):
        return Shuffler.objects.filter(establishment=self.establishment).select_related("model", "socle__table")


class ShufflerDetailView(EquipmentPageMixin, DetailView):
    template_name = "equipment/shuffler_detail.html"
    context_object_name = "shuffler"

    def get_queryset(self):
        return Shuffler.objects.filter(establishment=self.establishment).select_related("model", "socle__table")

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            uses=self.object.uses.select_related("table_session__seance", "table_session__table")[:30], **kwargs
        )


class ShufflerCreateView(EquipmentFormView):
    form_class = forms.ShufflerRegisterForm
    title = _("Enregistrer un mélangeur")
    requirements = ("SHUF-01", "SHUF-04", "SHUF-11")

    def act(self, data):
        return services.shuffler_register(
            establishment=self.establishment,
            number=data["number"],
            serial=data["serial"],
            model=data["model"],
            machine_type=data["machine_type"],
            actor=self.request.user,
            embout=data["embout"],
        )

    def success_url_for(self, result):
        return reverse("equipment:shuffler_detail", args=[result.pk])


class ShufflerObjectView(ObjectServiceView):
    model = Shuffler

    def success_url_for(self, result):
        return reverse("equipment:shuffler_detail", args=[self.object.pk])


class ShufflerCommissionView(ShufflerObjectView):
    form_class = forms.ShufflerCommissionForm
    title = _("Mise en service du mélangeur")
    requirements = ("SHUF-01", "SHUF-02", "SHUF-03", "SHUF-11")

    def act(self, data):
        return services.shuffler_commission(
            shuffler=self.object,
            actor=self.request.user,
            card_access_protection=data["card_access_protection"],
            malfunction_signal=data["malfunction_signal"],
            observations=data["observations"],
        )


class ShufflerMountView(ShufflerObjectView):
    form_class = forms.ShufflerMountForm
    title = _("Fixer le mélangeur sur un socle")
    requirements = ("SHUF-05", "SHUF-08", "SHUF-09", "SHUF-11")

    def act(self, data):
        return services.shuffler_mount(shuffler=self.object, socle=data["socle"], actor=self.request.user)


class ShufflerUnmountView(ShufflerObjectView):
    form_class = forms.ConfirmForm
    title = _("Déposer le mélangeur de son socle")

    def act(self, data):
        return services.shuffler_unmount(shuffler=self.object, actor=self.request.user)


class ShufflerMalfunctionView(ShufflerObjectView):
    form_class = forms.ShufflerMalfunctionForm
    title = _("Signaler un dysfonctionnement")
    requirements = ("INC-07", "SHUF-03")
    success_message = _("Incident ouvert : le mélangeur est hors service.")

    def act(self, data):
        return services.shuffler_malfunction_report(
            shuffler=self.object,
            actor=self.request.user,
            description=data["description"],
            action_taken=data["action_taken"],
            session=data["session"],
        )


class ShufflerReturnToServiceView(ShufflerObjectView):
    form_class = forms.ConfirmForm
    title = _("Remise en service après dysfonctionnement")
    requirements = ("INC-07",)

    def act(self, data):
        return services.shuffler_return_to_service(shuffler=self.object, actor=self.request.user)


class SocleCreateView(EquipmentFormView):
    form_class = forms.SocleForm
    title = _("Fixer un socle à une table")
    requirements = ("SHUF-05",)

    def get_initial(self):
        return {"table": self.request.GET.get("table")}

    def act(self, data):
        return services.socle_create(table=data["table"], code=data["code"], actor=self.request.user)

    def success_url_for(self, result):
        return reverse("equipment:table", args=[result.table_id])


class ShufflerUseStartView(TableFlowView):
    form_class = forms.ShufflerUseStartForm
    title = _("Mise en marche du mélangeur pour la séance")
    requirements = ("SHUF-05", "SHUF-08", "SHUF-09", "SHUF-14", "SHUF-15", "INC-07")

    def act(self, data):
        return services.shuffler_use_start(
            session=data["session"],
            shuffler=data["shuffler"],
            actor=self.request.user,
            embout=data["embout"],
            display=data["display"],
            decks_counted=data["decks_counted"],
            observations=data["observations"],
        )


class ShufflerUseView(ObjectServiceView):
    model = ShufflerUse

    def scoped(self, qs):
        return qs.filter(table_session__seance__establishment=self.establishment)

    def success_url_for(self, result):
        return reverse("equipment:table", args=[self.object.table_session.table_id])


class ShufflerUseEndView(ShufflerUseView):
    form_class = forms.ShufflerUseEndForm
    title = _("Fin de séance au mélangeur")
    requirements = ("SHUF-13", "SHUF-14", "SHUF-15", "INC-13")

    def act(self, data):
        return services.shuffler_use_end(
            use=self.object,
            actor=self.request.user,
            hood_opened=data["hood_opened"],
            empty=data["empty"],
            cards_removed=data["cards_removed"],
            disconnected=data["disconnected"],
            observations=data["observations"],
        )


class ShufflerPauseView(ShufflerUseView):
    form_class = forms.ConfirmForm
    title = _("Interruption de la partie : cartes dans l'appareil, cache posé")
    requirements = ("SHUF-07",)

    def act(self, data):
        return services.shuffler_pause_record(use=self.object, actor=self.request.user)


# --- Flags ------------------------------------------------------------------------------------


class ExceptionsView(EquipmentPageMixin, TableExportMixin, SingleTableMixin, TemplateView):
    """What the equipment records flagged — allowed, but reported to inspectors and authorities:
    repeated or irregular sabot allocations, launchers outside the ordre de roulement and
    specialisation in launching."""

    template_name = "equipment/list.html"
    table_class = ExceptionTable
    table_pagination = {"per_page": 50}
    extra_context = {"title": _("Signalements du matériel de jeu")}

    def get_table_data(self):
        return selectors.exceptions(self.establishment)


# The wheels' pages, after the base views they build on.
from .wheels import (  # noqa: E402
    LaunchRosterView,
    LaunchTurnView,
    LidLockView,
    WheelCheckView,
    WheelCommissionView,
    WheelCreateView,
    WheelDetailView,
    WheelInstallView,
    WheelListView,
)

__all__ = [
    "LaunchRosterView",
    "LaunchTurnView",
    "LidLockView",
    "WheelCheckView",
    "WheelCommissionView",
    "WheelCreateView",
    "WheelDetailView",
    "WheelInstallView",
    "WheelListView",
]
