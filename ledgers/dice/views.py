"""Web pages of the dice flows. Views parse the form, call one service, and show a refusal with
its requirement ID and article without losing what was typed."""

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import DetailView, TemplateView
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from ledgers.core import hooks, service_views
from ledgers.core.authz import refusal_of
from ledgers.core.errors import RuleViolation
from ledgers.core.exports import ListExportMixin, TableExportMixin
from ledgers.core.models import Seance, TableSession
from ledgers.core.selectors import open_seances
from ledgers.core.services import table_session_close, table_session_open, table_session_prepare
from ledgers.core.templatetags.ledgers import person
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession, PurchaseOrder
from ledgers.custody.views import SupplierApprovalMixin
from ledgers.incidents.selectors import open_incidents

from . import forms, selectors, services
from .domains import DICE
from .filtersets import DieFilter
from .tables import DestructionTable, DieTable, OrderTable, SupplierTable


class DiceView(LoginRequiredMixin):
    """Every dice page works inside the establishment the user chose."""

    def dispatch(self, request: HttpRequest, *args, **kwargs):
        if request.user.is_authenticated:
            self.establishment = request.establishment
            if self.establishment is None:
                raise PermissionDenied(_("Vous n'êtes affecté à aucun établissement."))
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["jurisdiction"] = self.establishment.jurisdiction
        # The menu offers the receipt only to whom its service lets take dice in.
        context["receive_refusal"] = refusal_of(lambda: services.receiver_role(self.request.user, self.establishment))
        return context

    def session_or_404(self, pk: int) -> TableSession:
        return get_object_or_404(
            TableSession.objects.select_related("seance", "table"), pk=pk, seance__establishment=self.establishment
        )


def refusal_context(exc: Exception) -> dict[str, Any]:
    if isinstance(exc, RuleViolation):
        return {"violation": exc}
    return {"denied": refusal_text(exc)}


def refusal_text(exc: Exception) -> str:
    return " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)


# What a service refuses with: a rule, a role, or bad input.
REFUSALS = (RuleViolation, PermissionDenied, ValidationError, ValueError)


class ServiceFormView(DiceView, service_views.ServiceFormView):
    """The dice pages' form: one template with a title, a submit label and an introduction."""

    template_name = "dice/form.html"
    title = ""
    submit = _("Enregistrer")
    intro = ""
    errors_on_fields = True
    success_name = "dice:day"  # where a success leads, unless get_success_url says otherwise

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_context_data(self, **kwargs):
        kwargs = {"title": self.title, "submit": self.submit, "intro": self.intro, **kwargs}
        return super().get_context_data(**kwargs)

    def get_success_url(self) -> str:
        return reverse(self.success_name)


# --- the day, a table, the stock --------------------------------------------------------------


class DayView(DiceView, TemplateView):
    """The dice day of the cartier and the sous-directeur: the dice tables of the séances, their
    allocation, swaps and check, the stock, the destruction queue and open dice incidents."""

    template_name = "dice/day.html"

    def get_template_names(self):
        if getattr(self.request, "htmx", False):
            return ["dice/_day_tables.html"]
        return [self.template_name]

    def get_context_data(self, **kwargs):
        est = self.establishment
        try:
            date = datetime.date.fromisoformat(self.request.GET.get("date", ""))
        except ValueError:
            date = timezone.localdate()
        sessions = list(selectors.sessions_with_dice(est, date))
        prepared = {(s.seance_id, s.table_id) for s in sessions}
        seances = open_seances(est).order_by("date", "opened_at")
        unprepared = [
            (seance, table)
            for seance in seances
            for table in selectors.dice_tables(est)
            if (seance.pk, table.pk) not in prepared
        ]
        return super().get_context_data(
            date=date,
            previous=date - datetime.timedelta(days=1),
            next=date + datetime.timedelta(days=1),
            sessions=sessions,
            unprepared=unprepared,
            statement=selectors.stock_statement(est),
            incidents=open_incidents(est).filter(category="dice_anomaly"),
            unclosed_days=selectors.unclosed_annex_days(est),
            # The table's acts link only for whom their services let do them; the others read the status.
            allocate_refusal=refusal_of(lambda: services.allocator_role(self.request.user, est)),
            end_check_refusal=refusal_of(lambda: services.end_check_signer_role(self.request.user, est)),
            day_close_refusal=refusal_of(lambda: custody.depot_keeper_role(self.request.user, est, DICE)),
            **kwargs,
        )


class SessionView(DiceView, TemplateView):
    template_name = "dice/session.html"

    def get_context_data(self, **kwargs):
        session = self.session_or_404(self.kwargs["pk"])
        allocations = session.dice_allocations.prefetch_related("lines__die").order_by("recorded_at")
        user, est = self.request.user, self.establishment
        return super().get_context_data(
            session=session,
            # Each act asked of its service's own check: offered, or shown disabled with the refusal.
            allocate_refusal=refusal_of(lambda: services.allocator_role(user, est)),
            swap_refusal=refusal_of(lambda: services.swapper_role(user, est)),
            end_check_refusal=refusal_of(lambda: services.end_check_signer_role(user, est)),
            allocations=allocations,
            dice=selectors.dice_at_table(session),
            swaps=session.dice_swaps.all(),
            check=getattr(session, "dice_check", None),
            **kwargs,
        )


class SessionActionView(DiceView, View):
    """Prepare, open or close a dice table (core services): the dice hooks may refuse."""

    action = ""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        session = self.session_or_404(pk)
        change = table_session_open if self.action == "open" else table_session_close
        try:
            if self.action == "open":
                hooks.opening_confirmation(session, confirmed=bool(request.POST.get("confirm_missing")))
            change(session=session, actor=request.user)
        except REFUSALS as exc:
            # The table page again, with the refusal (ID, article, message) above the dice.
            view = SessionView(request=request, kwargs={"pk": pk}, establishment=self.establishment)
            status = 409 if isinstance(exc, RuleViolation) else 403 if isinstance(exc, PermissionDenied) else 400
            return view.render_to_response(view.get_context_data(**refusal_context(exc)), status=status)
        return redirect("dice:session", pk=pk)


class SessionPrepareView(DiceView, View):
    """Prepare the table-partie of a dice table for an open séance, so that it can be allocated."""

    def post(self, request: HttpRequest, seance: int, table: int) -> HttpResponse:
        try:
            session = table_session_prepare(
                seance=get_object_or_404(Seance, pk=seance, establishment=self.establishment),
                table=get_object_or_404(selectors.dice_tables(self.establishment), pk=table),
                actor=request.user,
            )
        except REFUSALS as exc:
            messages.error(request, refusal_text(exc))
            return redirect("dice:day")
        return redirect("dice:allocate", pk=session.pk)


class StockView(DiceView, ListExportMixin, TemplateView):
    """The stock statement, computed now; its lines by place exported."""

    template_name = "dice/stock.html"
    export_name = "stock-des"

    def get_queryset(self):
        return selectors.stock_statement(self.establishment).lines

    def export_headers(self) -> list:
        return [
            _("Emplacement"),
            _("Neufs"),
            _("Déjà utilisés / usagés"),
            _("Abîmés"),
            _("En service aux tables"),
            _("Total"),
        ]

    def export_rows(self, lines):
        for line in lines:
            place = _("Tables") if line.place == "—" else line.place
            yield (str(place), line.new, line.used, line.damaged, line.at_table, line.total)

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            statement=selectors.stock_statement(est),
            queue=selectors.destruction_queue(est),
            withdraw_refusal=refusal_of(lambda: services.withdrawer_role(self.request.user, est)),
            transfer_refusal=refusal_of(lambda: custody.depot_keeper_role(self.request.user, est, DICE)),
            verification_refusal=refusal_of(lambda: custody.verifier_role(self.request.user, est)),
            **kwargs,
        )


class DieListView(DiceView, TableExportMixin, SingleTableMixin, FilterView):
    template_name = "dice/list.html"
    table_class = DieTable
    filterset_class = DieFilter
    table_pagination = {"per_page": 50}  # the table alone pages: a ListView page would count the rows again

    def get_queryset(self):
        return selectors.dice_of(self.establishment).select_related("table_session__table")

    def get_context_data(self, **kwargs):
        return super().get_context_data(title=_("Dés"), **kwargs)


class DieDetailView(DiceView, DetailView):
    template_name = "dice/die.html"
    context_object_name = "die"

    def get_queryset(self):
        return selectors.dice_of(self.establishment)

    def get_context_data(self, **kwargs):
        die = self.object
        return super().get_context_data(
            history=die.history.select_related("history_user").order_by("-history_date")[:50],
            allocations=die.allocations.select_related(
                "allocation__table_session__table", "allocation__table_session__seance"
            ),
            incidents=selectors.die_incidents(die),
            **kwargs,
        )


# --- receipt, allocation, swap, check, withdrawal --------------------------------------------------


class ReceiptView(ServiceFormView):
    form_class = forms.ReceiptForm
    title = _("Réception de dés")
    submit = _("Prendre en charge")

    def act_refusal(self):
        return refusal_of(lambda: services.receiver_role(self.request.user, self.establishment))

    def perform(self, form):
        data = form.cleaned_data
        return services.dice_receive(
            establishment=self.establishment,
            location=data["location"],
            dice=form.dice(),
            actor=self.request.user,
            order=data.get("order"),
            supplier=data.get("supplier"),
            delivery_note=data["delivery_note"],
        )

    def get_success_message(self) -> str:
        return str(_("%(n)s dés pris en charge et inscrits au registre.") % {"n": len(self.result)})

    success_name = "dice:stock"


class SessionFormView(ServiceFormView):
    @cached_property
    def session(self) -> TableSession:
        return self.session_or_404(self.kwargs["pk"])

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "session": self.session}

    def get_context_data(self, **kwargs):
        return super().get_context_data(session=self.session, at_table=selectors.dice_at_table(self.session), **kwargs)

    def get_success_url(self) -> str:
        return reverse("dice:session", kwargs={"pk": self.session.pk})


class AllocationView(SessionFormView):
    form_class = forms.AllocationForm
    title = _("Dotation de la table en dés")
    submit = _("Signer et mettre en service")
    template_name = "dice/allocation.html"

    def act_refusal(self):
        return refusal_of(lambda: services.allocator_role(self.request.user, self.establishment))

    def perform(self, form):
        data = form.cleaned_data
        return services.dice_allocate(
            session=self.session,
            actor=self.request.user,
            signer=form.cleaned_data.get("signer"),
            dice=data.get("dice_objects", ()),
            pairs=data.get("pairs", ()),
            supplementary=data["supplementary"],
            observations=data["observations"],
        )

    def get_initial(self):
        return {"supplementary": bool(self.request.GET.get("supplementary"))}

    def get_context_data(self, **kwargs):
        est = self.establishment
        available = (
            selectors.new_dice(est)[:40]
            if est.jurisdiction == "MC"
            else selectors.allocatable_pairs(est).prefetch_related("dice")
        )
        return super().get_context_data(available=available, **kwargs)

    def get_success_message(self) -> str:
        return str(
            _("Dotation signée par %(name)s : la table peut ouvrir.")
            % {"name": person(self.result.signed_by, self.result.signed_role)}
        )


class SwapView(SessionFormView):
    form_class = forms.SwapForm
    title = _("Changement de dés en cours de partie")

    def act_refusal(self):
        return refusal_of(lambda: services.swapper_role(self.request.user, self.establishment))

    def perform(self, form):
        data = form.cleaned_data
        return services.dice_swap(
            session=self.session,
            brought_in=data.get("brought_in_objects", []),
            reason=data["reason"],
            actor=self.request.user,
            withdrawn=data.get("withdrawn_objects", []),
            damaged=data.get("damaged_objects", []),
            during_rampo_attempt=data.get("during_rampo_attempt", False),
            observations=data["observations"],
        )


class EndCheckView(SessionFormView):
    form_class = forms.EndCheckForm
    title = _("Contrôle des dés de fin de séance")
    submit = _("Signer le contrôle")
    template_name = "dice/end_check.html"

    def act_refusal(self):
        return refusal_of(lambda: services.end_check_signer_role(self.request.user, self.establishment))

    def get(self, request, *args, **kwargs):
        # One check per partie: once signed, the partie's page shows it.
        if selectors.is_checked(self.session):
            messages.info(request, _("Le contrôle de fin de séance de cette partie est déjà signé."))
            return redirect(self.get_success_url())
        return super().get(request, *args, **kwargs)

    def perform(self, form):
        return services.dice_end_check(
            session=self.session,
            results=form.results(),
            actor=self.request.user,
            return_to=form.cleaned_data["return_to"],
            observations=form.cleaned_data["observations"],
            cosigner=form.cleaned_data.get("cosigner") if self.establishment.jurisdiction == "FR" else None,
            instruments=form.instruments() if self.establishment.jurisdiction == "FR" else None,
        )

    def get_success_message(self) -> str:
        if self.result.incident_id:
            return str(_("Contrôle enregistré ; anomalie : incident n° %(n)s ouvert.") % {"n": self.result.incident_id})
        return str(_("Contrôle enregistré : la partie peut être close."))


class WithdrawView(ServiceFormView):
    form_class = forms.WithdrawForm
    title = _("Retrait de dés usagés ou abîmés")
    submit = _("Retirer du service")

    def act_refusal(self):
        return refusal_of(lambda: services.withdrawer_role(self.request.user, self.establishment))

    def perform(self, form):
        data = form.cleaned_data
        return services.dice_withdraw(
            dice=data["dice_objects"], reason=data["reason"], actor=self.request.user, observations=data["observations"]
        )

    success_name = "dice:stock"


class PairsCapView(ServiceFormView):
    form_class = forms.PairsCapForm
    title = _("Nombre maximal de paires de dés (décision ministérielle)")

    def get_initial(self):
        return self.establishment.setting("SET-14") or {}

    def perform(self, form):
        return services.dice_pairs_cap_set(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )

    success_name = "dice:stock"


# --- depots, suppliers, orders, verification (shared custody services) ----------------------------


class TransferView(ServiceFormView):
    form_class = forms.TransferForm
    title = _("Transfert de dés entre dépôts")

    def act_refusal(self):
        return refusal_of(lambda: custody.depot_keeper_role(self.request.user, self.establishment, DICE))

    def perform(self, form):
        data = form.cleaned_data
        return custody.items_transfer(
            domain=DICE,
            items=data["dice_objects"],
            to_location=data["to_location"],
            actor=self.request.user,
            received_by=data["received_by"],
        )

    success_name = "dice:stock"


class DayCloseView(ServiceFormView):
    form_class = forms.DayCloseForm
    title = _("Arrêté journalier de la comptabilité annexe")
    submit = _("Arrêter la journée")

    def act_refusal(self):
        return refusal_of(lambda: custody.depot_keeper_role(self.request.user, self.establishment, DICE))

    def perform(self, form):
        return custody.depot_day_close(
            domain=DICE, establishment=self.establishment, date=form.cleaned_data["date"], actor=self.request.user
        )

    success_name = "dice:stock"


class SupplierListView(DiceView, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "dice/list.html"
    table_class = SupplierTable

    def get_table_data(self):
        return self.establishment.suppliers.filter(domain=DICE.code)

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            title=_("Fournisseurs de dés"), create_url=reverse("dice:supplier_create"), **kwargs
        )


class SupplierCreateView(ServiceFormView):
    form_class = forms.SupplierForm
    title = _("Nouveau fournisseur de dés")

    def perform(self, form):
        return custody.supplier_register(
            establishment=self.establishment, domain=DICE, actor=self.request.user, **form.cleaned_data
        )

    success_name = "dice:suppliers"


class SupplierApprovalView(SupplierApprovalMixin, ServiceFormView):
    domain = DICE
    form_class = forms.SupplierApprovalForm
    success_message = _("Agrément du fournisseur inscrit au carnet des bons de commande.")
    success_name = "dice:suppliers"

    @property
    def title(self) -> str:
        return _("Agrément du fournisseur « %(name)s »") % {"name": self.supplier.name}


class OrderListView(DiceView, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "dice/list.html"
    table_class = OrderTable

    def get_table_data(self):
        return PurchaseOrder.objects.filter(establishment=self.establishment, domain=DICE.code).select_related(
            "supplier", "visa_by"
        )

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            title=_("Bons de commande de dés"), create_url=reverse("dice:order_create"), **kwargs
        )


class OrderCreateView(ServiceFormView):
    form_class = forms.OrderForm
    title = _("Nouveau bon de commande de dés")

    def perform(self, form):
        data = form.cleaned_data
        return custody.purchase_order_issue(
            establishment=self.establishment,
            domain=DICE,
            supplier=data["supplier"],
            lines=form.lines(),
            carnet=data.get("carnet", ""),
            actor=self.request.user,
        )

    success_name = "dice:orders"


class OrderActionView(ServiceFormView):
    def get_order(self) -> PurchaseOrder:
        return get_object_or_404(
            PurchaseOrder, pk=self.kwargs["pk"], establishment=self.establishment, domain=DICE.code
        )

    def get_context_data(self, **kwargs):
        return super().get_context_data(intro=str(self.get_order()), **kwargs)

    success_name = "dice:orders"


class OrderVisaView(OrderActionView):
    form_class = forms.OrderVisaForm
    title = _("Visa du bon de commande")
    submit = _("Viser")

    def perform(self, form):
        return custody.purchase_order_visa(
            order=self.get_order(), actor=self.request.user, statement=form.cleaned_data["statement"]
        )


class OrderSendView(OrderActionView):
    form_class = forms.ConfirmForm
    title = _("Envoi du bon de commande au fournisseur")
    submit = _("Marquer comme envoyé")

    def perform(self, form):
        return custody.purchase_order_send(order=self.get_order(), domain=DICE, actor=self.request.user)


class VerificationView(ServiceFormView):
    form_class = forms.VerificationForm
    title = _("Vérification du stock de dés par l'autorité")
    submit = _("Signer la vérification et viser les registres")

    def act_refusal(self):
        return refusal_of(lambda: custody.verifier_role(self.request.user, self.establishment))

    def perform(self, form):
        data = form.cleaned_data
        return custody.stock_verification_record(
            domain=DICE,
            establishment=self.establishment,
            counted=form.counted(),
            actor=self.request.user,
            opened_by=data["opened_by"],
            remarks=data["remarks"],
            orders_seen=data.get("orders_seen", ()),
        )

    def get_success_message(self) -> str:
        if self.result.discrepancy:
            return str(_("Écart constaté : incident n° %(n)s ouvert.") % {"n": self.result.incident_id})
        return str(_("Stock conforme ; registres visés."))

    success_name = "dice:stock"


# --- destruction -------------------------------------------------------------------------------


class DestructionListView(DiceView, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "dice/list.html"
    table_class = DestructionTable

    def get_table_data(self):
        return selectors.destruction_sessions(self.establishment)

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            title=_("Destructions de dés"), create_url=reverse("dice:destruction_plan"), **kwargs
        )


class DestructionPlanView(ServiceFormView):
    form_class = forms.DestructionPlanForm
    title = _("Programmer une destruction de dés")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "queue": selectors.destruction_queue(self.establishment)}

    def perform(self, form):
        data = form.cleaned_data
        return services.dice_destruction_plan(
            establishment=self.establishment,
            dice=list(data["dice"]),
            planned_at=data["planned_at"],
            method=data["method"],
            actor=self.request.user,
        )

    def get_success_url(self) -> str:
        return reverse("dice:destruction", kwargs={"pk": self.result.pk})


class DestructionDetailView(DiceView, DetailView):
    template_name = "dice/destruction.html"
    context_object_name = "destruction"

    def get_queryset(self):
        return selectors.destruction_sessions(self.establishment)

    def get_context_data(self, **kwargs):
        return super().get_context_data(dice=selectors.destruction_dice(self.object), **kwargs)


class DestructionActionView(ServiceFormView):
    def get_destruction(self) -> DestructionSession:
        return get_object_or_404(selectors.destruction_sessions(self.establishment), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        destruction = self.get_destruction()
        return super().get_context_data(
            intro=str(destruction), destruction=destruction, dice=selectors.destruction_dice(destruction), **kwargs
        )

    def get_success_url(self) -> str:
        return reverse("dice:destruction", kwargs={"pk": self.kwargs["pk"]})


class DestructionNotifyView(DestructionActionView):
    form_class = forms.DestructionNotifyForm
    title = _("Information préalable du Service de Contrôle des Jeux")

    def perform(self, form):
        return custody.destruction_notify(session=self.get_destruction(), actor=self.request.user, **form.cleaned_data)


class DestructionCompleteView(DestructionActionView):
    form_class = forms.DestructionCompleteForm
    title = _("Exécution de la destruction")
    submit = _("Détruire et inscrire la sortie au registre")
    template_name = "dice/destruction_complete.html"

    def perform(self, form):
        fr = self.establishment.jurisdiction == "FR"
        return services.dice_destruction_complete(
            session=self.get_destruction(),
            actor=self.request.user,
            witness=form.cleaned_data.get("witness"),
            inspector=None if fr else form.cleaned_data.get("inspector"),
            loaded=form.finding("loaded") if fr else None,
            tampered=form.finding("tampered") if fr else None,
            police_service=form.cleaned_data.get("police_service", ""),
            observations=form.cleaned_data["observations"],
        )

    def get_success_message(self) -> str:
        if self.result.status == DestructionSession.Status.PLANNED:
            return str(_("Dés plombés ou pipés : destruction suspendue, incident ouvert."))
        return str(_("Destruction effectuée et inscrite au registre."))
