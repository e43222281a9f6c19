"""Pages of the card room: the cartier's day, the inspecteur's queue, the stock statement, the
exceptions report, the unit lists, and one form per flow. Every form calls one service; a
refusal shows the catalogue ID, the article and the message above the form, input kept."""

from django.shortcuts import get_object_or_404
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django.views.generic import TemplateView
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from ledgers.core.authz import holds_one_of
from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.exports import ListExportMixin, TableExportMixin
from ledgers.core.jurisdictions import requirements_of
from ledgers.core.roles import REGULATOR_ROLES, Role
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView
from ledgers.custody import services as custody
from ledgers.custody.models import DepotDay, PurchaseOrder, StockVerification, Supplier
from ledgers.custody.views import SupplierApprovalMixin

from . import forms, selectors, services
from .deck_rules import rules_table
from .domains import CARDS
from .filtersets import CardUnitFilter
from .models import CardExchange
from .tables import CardUnitTable, DestructionTable, FlagTable, OrderTable


def roles_for(actors, est) -> tuple[str, ...]:
    """The roles ``actors`` names in ``est``: a tuple, a tuple per jurisdiction, or a function of
    the establishment (as the services pass them to ``require_role``)."""
    if callable(actors):
        return tuple(actors(est))
    if isinstance(actors, dict):
        return tuple(actors.get(est.jurisdiction, ()))
    return tuple(actors)


class CardsMixin(EstablishmentRequiredMixin):
    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.establishment
        context.update(
            est=est,
            mc=est.jurisdiction == "MC",
            roles=self.roles,
            operations=operations_for(self.roles, est),
            may=may_set(self.roles, est),
            keeps_cards=keeps_the_cards(self.roles, est),
            inspects_cards=holds_one_of(self.roles, (Role.INSPECTEUR, *custody.DIRECTION[est.jurisdiction])),
            reads_cards=holds_one_of(self.roles, REGULATOR_ROLES),
        )
        return context


# --- Overview pages -------------------------------------------------------------------------


class DayView(CardsMixin, TemplateView):
    """The cartier's day: what is out, what awaits control, what awaits destruction."""

    template_name = "cards/day.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.establishment
        today = timezone.localdate()
        context.update(
            tables=selectors.out_at_tables(est),
            awaiting_control=selectors.awaiting_control(est),
            awaiting_destruction=selectors.awaiting_destruction(est),
            planned=selectors.destruction_sessions(est).filter(status="planned"),
            day_closed=DepotDay.objects.filter(establishment=est, domain=CARDS.code, date=today).exists(),
            today=today,
        )
        return context


class InspectorView(CardsMixin, TemplateView):
    """The inspecteur's queue: returns to supervise, card incidents, exchanges, visas to sign."""

    template_name = "cards/inspector.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.establishment
        context.update(
            tables=selectors.out_at_tables(est),
            incidents=selectors.card_incidents(est).prefetch_related("notices"),
            exchanges=selectors.open_exchanges(est).select_related(
                "table_unit", "replacement_unit", "table_session__table"
            ),
            visas=selectors.visas_due(est, self.roles),
            exceptions_count=len(selectors.exceptions(est)),
        )
        return context


class StockView(CardsMixin, ListExportMixin, TemplateView):
    """The stock statement, computed now, and the depots' closed days; each list exported."""

    template_name = "cards/stock.html"

    def depot_days(self):
        return DepotDay.objects.filter(establishment=self.establishment, domain=CARDS.code).select_related("location")

    def export_lists(self):
        statement = selectors.stock_statement(self.establishment)
        labels = dict(statement.categories)

        def counts(by_category: dict) -> str:
            return ", ".join(f"{labels.get(code, code)} : {n}" for code, n in by_category.items())

        days = (
            (
                f"{d.date:%d/%m/%Y}",
                str(d.location),
                *(counts(c) for c in (d.opening, d.transfers_in, d.transfers_out, d.closing)),
            )
            for d in self.depot_days()
        )
        entries = pgettext_lazy("mouvements de stock", "Entrées")
        return {
            "stock-categories": (
                [_("Catégorie"), _("Stock comptable"), _("Unités localisées"), _("Écart")],
                ((label, book, located, book - located) for label, book, located in statement.by_category()),
            ),
            "stock-emplacements": (
                [_("Emplacement"), _("Catégorie"), _("Unités")],
                ((line.place, line.category, line.count) for line in statement.lines),
            ),
            "journees-depots": (
                [_("Journée"), _("Dépôt"), _("Ouverture"), entries, _("Sorties"), _("Clôture")],
                days,
            ),
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.establishment
        statement = selectors.stock_statement(est)
        labels = dict(statement.categories)
        context.update(
            statement=statement,
            verifications=StockVerification.objects.filter(establishment=est, domain=CARDS.code)[:10],
            # Each count of a day by category, the category named (the day stores its code).
            depot_days=[
                (
                    day,
                    [
                        {labels.get(code, code): n for code, n in counts.items()}
                        for counts in (day.opening, day.transfers_in, day.transfers_out, day.closing)
                    ],
                )
                for day in self.depot_days()[:20]
            ],
        )
        return context


class ExceptionsView(CardsMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "cards/exceptions.html"
    table_class = FlagTable
    table_pagination = False
    export_name = "exceptions-cartes"

    def get_table_data(self):
        return selectors.exceptions(self.establishment)


class RulesView(CardsMixin, ListExportMixin, TemplateView):
    """The cards each game requires here, exported."""

    template_name = "cards/rules.html"
    export_name = "cartes-par-jeu"

    def get_queryset(self):
        return [
            (label, rule, REQUIREMENTS[rule.requirement].article) for label, rule in rules_table(self.establishment)
        ]

    def export_headers(self) -> list:
        return [_("Jeu"), _("Composition"), _("Fraîcheur"), _("Exigence"), _("Observations")]

    def export_rows(self, rules):
        for label, rule, article in rules:
            composition = f"{rule.describe()}, {_('dos à teinte unie')}" if rule.plain_back else rule.describe()
            note = (
                f"{rule.note} {_('(nombre fixé par la Direction, réglage SET-02)')}"
                if rule.direction_fixed
                else rule.note
            )
            yield (
                str(label),
                str(composition),
                str(rule.freshness_label),
                f"{rule.requirement} — {article}",
                str(note).strip(),
            )

    def get_context_data(self, **kwargs):
        return super().get_context_data(rules=self.get_queryset(), **kwargs)


class UnitListView(CardsMixin, TableExportMixin, SingleTableMixin, FilterView):
    table_class = CardUnitTable
    filterset_class = CardUnitFilter
    template_name = "cards/units.html"
    table_pagination = {"per_page": 50}  # the table alone pages: a ListView page would count the rows again

    def get_queryset(self):
        return selectors.units_of(self.establishment).order_by("serial")


class UnitDetailView(CardsMixin, TemplateView):
    template_name = "cards/unit.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        unit = get_object_or_404(selectors.units_of(self.establishment), pk=kwargs["pk"])
        context.update(
            unit=unit,
            members=unit.members.order_by("position"),
            events=selectors.events_of(unit)[:200],
            incidents=selectors.incidents_of(unit),
        )
        return context


class OrderListView(CardsMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "cards/orders.html"
    table_class = OrderTable
    export_name = "bons-de-commande-cartes"

    def get_table_data(self):
        return selectors.purchase_orders(self.establishment).order_by("-issued_at")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["suppliers"] = Supplier.objects.filter(establishment=self.establishment, domain=CARDS.code)
        return context


class DestructionListView(CardsMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "cards/destructions.html"
    table_class = DestructionTable
    export_name = "destructions-cartes"

    def get_table_data(self):
        return selectors.destruction_sessions(self.establishment).prefetch_related("items").order_by("-planned_at")


# --- Flow forms -----------------------------------------------------------------------------


class FlowView(CardsMixin, ServiceFormView):
    """One form, one service; the aside cites the requirements the service applies."""

    template_name = "cards/form.html"
    title = ""
    intro = ""
    errors_on_fields = True
    requirements: tuple[str, ...] = ()
    success_url = reverse_lazy("cards:day")
    submit = _("Enregistrer")
    # Who may do the act: the role tuple its service passes to ``require_role`` (by jurisdiction,
    # or one tuple), so that the form is offered only to them and refused, with its reason, to others.
    actors: dict[str, tuple[str, ...]] | tuple[str, ...] = ()
    actors_requirement = ""

    @property
    def page_roles(self) -> tuple[str, ...]:
        return roles_for(self.actors, self.establishment)

    @property
    def page_requirement(self) -> str:
        return self.actors_requirement

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_initial(self):
        """Pre-fill from the query string (links of the day view: ?unit=…, ?units=…&units=…)."""
        initial = super().get_initial()
        for key in self.request.GET:
            values = self.request.GET.getlist(key)
            initial[key] = values if len(values) > 1 or key == "units" else values[0]
        return initial

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            title=self.title,
            intro=self.intro,
            submit=self.submit,
            requirements=requirements_of(self.requirements, self.establishment.jurisdiction),
        )
        return context


class SupplierCreateView(FlowView):
    actors = custody.DIRECTION
    actors_requirement = "CARD-32"
    form_class = forms.SupplierForm
    title = _("Enregistrer un fabricant de cartes")
    requirements = ("CARD-32",)
    success_message = _("Fabricant enregistré.")
    success_url = reverse_lazy("cards:orders")

    def perform(self, form):
        return custody.supplier_register(
            establishment=self.establishment, domain=CARDS, actor=self.request.user, **form.cleaned_data
        )


class SupplierApprovalView(SupplierApprovalMixin, FlowView):
    actors = custody.DIRECTION
    actors_requirement = "CARD-32"
    domain = CARDS
    form_class = forms.SupplierApprovalForm
    requirements = ("CARD-32",)
    success_message = _("Agrément du fabricant inscrit au carnet des bons de commande.")
    success_url = reverse_lazy("cards:orders")

    @property
    def title(self) -> str:
        return _("Agrément du fabricant « %(name)s »") % {"name": self.supplier.name}


class OrderCreateView(FlowView):
    actors = custody.DIRECTION
    actors_requirement = "CARD-07"
    form_class = forms.OrderForm
    title = _("Établir un bon de commande de cartes")
    requirements = ("CARD-07", "CARD-32", "CARD-33")
    success_message = _("Bon de commande établi et inscrit au carnet des bons de commande.")
    success_url = reverse_lazy("cards:orders")

    def perform(self, form):
        return custody.purchase_order_issue(
            establishment=self.establishment,
            domain=CARDS,
            supplier=form.cleaned_data["supplier"],
            lines=form.lines(),
            carnet=form.cleaned_data["carnet"],
            actor=self.request.user,
        )


class OrderMixin:
    @property
    def order(self) -> PurchaseOrder:
        return get_object_or_404(selectors.purchase_orders(self.establishment), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["subject"] = self.order
        return context


class OrderVisaView(OrderMixin, FlowView):
    actors = custody.AUTHORITY
    actors_requirement = "CARD-33"
    form_class = forms.OrderVisaForm
    title = _("Viser un bon de commande")
    requirements = ("CARD-07", "CARD-33")
    success_message = _("Bon de commande visé.")
    success_url = reverse_lazy("cards:orders")
    submit = _("Viser")

    def perform(self, form):
        return custody.purchase_order_visa(
            order=self.order, actor=self.request.user, statement=form.cleaned_data["statement"]
        )


class OrderSendView(OrderMixin, FlowView):
    actors = custody.DIRECTION
    actors_requirement = "CARD-33"
    form_class = forms.ConfirmForm
    title = _("Envoyer un bon de commande au fabricant")
    requirements = ("CARD-33",)
    success_message = _("Bon de commande envoyé.")
    success_url = reverse_lazy("cards:orders")
    submit = _("Envoyer")

    def perform(self, form):
        return custody.purchase_order_send(order=self.order, domain=CARDS, actor=self.request.user)


class ReceiveView(FlowView):
    actors = services.RECEIVERS
    actors_requirement = "CARD-03"
    form_class = forms.ReceiveForm
    title = _("Réception de cartes (prise en charge)")
    intro = _(
        "Les numéros d'ordre sont reportés au registre de prise en charge (Monaco) ou au carnet de prise en "
        "charge modèle 19 (France)."
    )
    requirements = ("CARD-02", "CARD-03", "CARD-04", "CARD-25", "CARD-26", "CARD-32", "CARD-33")
    success_message = _("Cartes prises en charge.")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_receive(
            establishment=self.establishment,
            location=data["location"],
            supplier=data["supplier"],
            units=form.units(),
            actor=self.request.user,
            order=data["order"],
            delivery_note=data["delivery_note"],
        )


class TransferView(FlowView):
    actors = staticmethod(lambda est: custody.domain_writer_roles(CARDS, est))
    actors_requirement = "CARD-05"
    form_class = forms.TransferForm
    title = _("Transfert entre dépôts (comptabilité annexe)")
    requirements = ("CARD-05", "CARD-08", "CARD-17")
    success_message = _("Transfert inscrit à la comptabilité annexe.")

    def perform(self, form):
        data = form.cleaned_data
        return custody.items_transfer(
            domain=CARDS,
            items=list(data["units"]),
            to_location=data["to_location"],
            actor=self.request.user,
            received_by=data["received_by"],
        )


class DepotDayView(FlowView):
    actors = staticmethod(lambda est: custody.domain_writer_roles(CARDS, est))
    actors_requirement = "CARD-05"
    form_class = forms.DepotDayForm
    title = _("Arrêter la journée des dépôts")
    intro = _("Stock d'ouverture, transferts entrés et sortis, stock de clôture de chaque dépôt, par catégorie.")
    requirements = ("CARD-05",)
    success_message = _("Journée arrêtée.")
    success_url = reverse_lazy("cards:stock")
    submit = _("Arrêter la journée")

    def get_initial(self):
        return {"date": timezone.localdate(), **super().get_initial()}

    def perform(self, form):
        return custody.depot_day_close(
            domain=CARDS, establishment=self.establishment, date=form.cleaned_data["date"], actor=self.request.user
        )


class IssueView(FlowView):
    actors = services.KEEPERS
    form_class = forms.IssueForm
    title = _("Sortie de cartes pour une table")
    intro = _(
        "Les cartes ne sortent du dépôt qu'au moment où il en est fait usage, pour une partie de table "
        "préparée ou ouverte, dans la composition exigée par le jeu."
    )
    requirements = ("CARD-12", "CARD-14", "CARD-17", "CARD-19", "CARD-20", "CARD-21", "CARD-34", "CARD-38", "CARD-39")
    success_message = _("Cartes sorties pour la table.")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_issue(
            table_session=data["table_session"],
            units=list(data["units"]),
            actor=self.request.user,
            received_by=data["received_by"],
        )


class UnsealView(FlowView):
    actors = services.TABLE_STAFF
    form_class = forms.UnsealForm
    title = _("Décachetage à table")
    requirements = ("CARD-13", "CARD-35")
    success_message = _("Décachetage inscrit.")

    def perform(self, form):
        return services.cards_unseal(actor=self.request.user, **form.cleaned_data)


class TableControlView(FlowView):
    actors = services.TABLE_STAFF
    form_class = forms.TableControlForm
    title = _("Contrôle à table (comptée et vérification)")
    intro = _("Cartes étalées figures en dessus, vérifiées dans l'ordre du fabricant, devant les joueurs.")
    requirements = ("CARD-15", "CARD-36")
    success_message = _("Contrôle à table inscrit.")

    def perform(self, form):
        return services.cards_table_control(actor=self.request.user, **form.cleaned_data)


class FirstControlView(FlowView):
    actors = services.DEPOT_CONTROLLERS
    form_class = forms.ControlForm
    title = _("Premier contrôle par le cartier")
    requirements = ("CARD-14",)
    success_message = _("Contrôle inscrit.")

    def get_form_kwargs(self):
        units = selectors.depot_units(self.establishment).filter(status="in_stock", is_new=False)
        return {**super().get_form_kwargs(), "units": units}

    def perform(self, form):
        return services.cards_first_control(actor=self.request.user, **form.cleaned_data)


class PostControlView(FlowView):
    actors = services.POST_CONTROLLERS
    form_class = forms.ControlForm
    title = _("Contrôle après la partie")
    intro = _("Les jeux sont remis dans l'ordre du fabricant et examinés pour déceler d'éventuelles marques.")
    requirements = ("CARD-14", "CARD-16", "CARD-37")
    success_message = _("Contrôle après la partie inscrit.")

    def get_form_kwargs(self):
        est = self.establishment
        units = selectors.awaiting_control(est) if est.jurisdiction == "MC" else selectors.issued_units(est)
        return {**super().get_form_kwargs(), "units": units}

    def perform(self, form):
        return services.cards_post_control(actor=self.request.user, **form.cleaned_data)


class PAEPrepareView(FlowView):
    actors = (Role.DCC_STAFF,)
    form_class = forms.PAEPrepareForm
    title = _("Préparation de jeux prêts à l'emploi (Dépôt Central des Cartes)")
    requirements = ("CARD-20", "CARD-21")
    success_message = _("Préparation inscrite.")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_pae_prepare(actor=self.request.user, **{**data, "units": list(data["units"])})


class PAEConfirmView(FlowView):
    actors = services.TABLE_STAFF
    form_class = forms.PAEConfirmForm
    title = _("Second brassage et second mélange à table (prêt à l'emploi)")
    requirements = ("CARD-22",)
    success_message = _("Second brassage et mélange inscrits.")

    def perform(self, form):
        return services.cards_pae_confirm(actor=self.request.user, **form.cleaned_data)


class DesignateView(FlowView):
    actors = services.DESIGNATORS
    form_class = forms.DesignateForm
    title = _("Désigner le sixain de remplacement")
    requirements = ("CARD-16",)
    success_message = _("Sixain de remplacement désigné.")

    def perform(self, form):
        return services.cards_replacement_designate(actor=self.request.user, **form.cleaned_data)


class ExchangeView(FlowView):
    actors = services.EXCHANGERS
    form_class = forms.ExchangeForm
    title = _("Échange d'une carte détériorée")
    intro = _(
        "Le croupier montre la carte recto et verso ; l'inspecteur la remplace aussitôt par une carte du sixain "
        "prévu à cet effet."
    )
    requirements = ("CARD-16",)
    success_message = _("Échange inscrit.")

    def perform(self, form):
        return services.cards_exchange(actor=self.request.user, **form.cleaned_data)


class ReconcileView(FlowView):
    actors = services.WITHDRAWERS
    form_class = forms.ReconcileForm
    title = _("Rapprocher les cartes échangées")
    requirements = ("CARD-16", "CARD-17")
    success_message = _("Échange rapproché.")

    @property
    def exchange(self) -> CardExchange:
        return get_object_or_404(CardExchange, establishment=self.establishment, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "subject": self.exchange}

    def perform(self, form):
        return services.cards_exchange_reconcile(
            exchange=self.exchange, actor=self.request.user, note=form.cleaned_data["note"]
        )


class ReturnView(FlowView):
    actors = services.KEEPERS
    form_class = forms.ReturnForm
    title = _("Rentrée des cartes au dépôt")
    intro = _(
        "Monaco : sous la surveillance de l'inspecteur de service, qui contresigne. France : après le contrôle "
        "d'après-partie, par le détenteur de la clé de l'armoire."
    )
    requirements = ("CARD-18", "CARD-37", "CARD-08", "CARD-17", "CARD-28")
    success_message = _("Rentrée inscrite.")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_return(
            units=list(data["units"]),
            to_location=data["to_location"],
            actor=self.request.user,
            returned_by=data["returned_by"],
            inspecteur=forms.signer_of(form),
        )


class WithdrawView(FlowView):
    actors = services.WITHDRAWERS
    form_class = forms.WithdrawForm
    title = _("Retirer des cartes (hors d'usage, marquées, détériorées)")
    requirements = ("CARD-17", "CARD-39")
    success_message = _("Retrait inscrit.")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_withdraw(
            units=list(data["units"]), status=data["status"], reason=data["reason"], actor=self.request.user
        )


class AnomalyView(FlowView):
    actors = services.REPORTERS
    form_class = forms.AnomalyForm
    title = _("Signaler une anomalie de cartes")
    intro = _(
        "Carte manquante, en surnombre, marquée ou paraissant étrangère au jeu : signalement immédiat ; les "
        "unités sont mises en quarantaine."
    )
    requirements = ("CARD-19", "CARD-38", "INC-02", "INC-13")
    success_message = _("Anomalie signalée : incident ouvert.")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_anomaly_report(
            units=list(data["units"]),
            anomaly=data["anomaly"],
            cards=data["cards"],
            circumstances=data["circumstances"],
            found_at=data["found_at"],
            actor=self.request.user,
        )

    def get_success_url(self):
        return reverse("incidents:detail", args=[self.result.pk])


class ReshuffleView(FlowView):
    actors = custody.DIRECTION["MC"]
    form_class = forms.ReshuffleForm
    title = _("Ordonner un nouveau mélange en cours de taille")
    requirements = ("CARD-23",)
    success_message = _("Décision inscrite.")

    def perform(self, form):
        return services.cards_reshuffle_order(actor=self.request.user, **form.cleaned_data)


class DestructionPlanView(FlowView):
    actors = custody.DIRECTION
    actors_requirement = "CARD-10"
    form_class = forms.DestructionPlanForm
    title = _("Programmer une destruction")
    requirements = ("CARD-10", "CARD-11", "CARD-31")
    success_message = _("Destruction programmée.")
    success_url = reverse_lazy("cards:destructions")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_destruction_plan(
            establishment=self.establishment,
            units=list(data["units"]),
            method=data["method"],
            planned_at=data["planned_at"],
            actor=self.request.user,
        )


class DestructionMixin:
    @property
    def session(self):
        return get_object_or_404(selectors.destruction_sessions(self.establishment), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["subject"] = self.session
        context["subject_items"] = self.session.items.all()
        return context


class DestructionNotifyView(DestructionMixin, FlowView):
    actors = custody.DIRECTION
    actors_requirement = "CARD-11"
    form_class = forms.DestructionNotifyForm
    title = _("Information préalable du Service de Contrôle des Jeux")
    requirements = ("CARD-11",)
    success_message = _("Information du SCJ inscrite.")
    success_url = reverse_lazy("cards:destructions")

    def perform(self, form):
        return custody.destruction_notify(session=self.session, actor=self.request.user, **form.cleaned_data)


class DestructionCompleteView(DestructionMixin, FlowView):
    actors = custody.DIRECTION
    actors_requirement = "CARD-10"
    form_class = forms.DestructionCompleteForm
    title = _("Procès-verbal de destruction")
    intro = _(
        "France : en présence d'un fonctionnaire de police qui vérifie que les jeux sont complets et sans carte "
        "marquée ou détériorée, et vise le carnet modèle 19."
    )
    requirements = ("CARD-09", "CARD-11", "CARD-17", "CARD-30", "CARD-31", "CARD-39")
    success_message = _("Destruction effectuée et inscrite en sortie définitive.")
    success_url = reverse_lazy("cards:destructions")
    submit = _("Détruire")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "session": self.session}

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_destruction_complete(
            session=self.session,
            actor=self.request.user,
            witness=forms.signer_of(form),
            withheld=list(data["withheld"]),
            finding=data["finding"],
            observations=data["observations"],
        )


class VerificationView(FlowView):
    form_class = forms.VerificationForm
    title = _("Vérification du stock par l'autorité")
    intro = _("Comptez les unités de chaque dépôt ; un écart ouvre un incident ; les registres concernés sont visés.")
    requirements = ("CARD-06", "CARD-29", "INC-11", "INC-14")
    success_message = _("Vérification inscrite et registres visés.")
    success_url = reverse_lazy("cards:stock")
    submit = _("Signer la vérification")

    def perform(self, form):
        data = form.cleaned_data
        return services.cards_stock_verification(
            establishment=self.establishment,
            counted=form.counted(),
            actor=self.request.user,
            opened_by=data.get("opened_by", ""),
            remarks=data["remarks"],
        )


# The acts of the operations panel, in the order of a day: (URL name, label, its page, MC only,
# secondary). Each is offered to whom its service lets do it (``FlowView.actors``), and no one else.
OPERATIONS = (
    ("cards:receive", _("Réception"), ReceiveView, False, False),
    ("cards:transfer", _("Transfert entre dépôts"), TransferView, True, False),
    ("cards:issue", _("Sortie pour une table"), IssueView, False, False),
    ("cards:unseal", _("Décachetage"), UnsealView, False, False),
    ("cards:table-control", _("Contrôle à table"), TableControlView, False, False),
    ("cards:pae-prepare", _("Préparation PAE"), PAEPrepareView, True, False),
    ("cards:pae-confirm", _("Second mélange PAE"), PAEConfirmView, True, False),
    ("cards:post-control", _("Contrôle après la partie"), PostControlView, False, False),
    ("cards:return", _("Rentrée au dépôt"), ReturnView, False, False),
    ("cards:first-control", _("Premier contrôle"), FirstControlView, False, True),
    ("cards:withdraw", _("Retrait"), WithdrawView, False, True),
    ("cards:anomaly", _("Anomalie"), AnomalyView, False, True),
    ("cards:designate", _("Sixain de remplacement"), DesignateView, True, True),
    ("cards:exchange", _("Échange de carte"), ExchangeView, True, True),
    ("cards:reshuffle", _("Nouveau mélange"), ReshuffleView, True, True),
    ("cards:depot-day", _("Arrêter la journée"), DepotDayView, True, True),
)


def operations_for(roles, est) -> list[tuple[str, str, bool]]:
    """(label, URL, secondary) of the acts these roles may do in ``est``."""
    mc = est.jurisdiction == "MC"
    return [
        (label, reverse(name), secondary)
        for name, label, view, mc_only, secondary in OPERATIONS
        if (mc or not mc_only) and holds_one_of(roles, roles_for(view.actors, est))
    ]


# The acts offered on the orders' and destructions' pages, by the same names.
OFFICE = (
    ("cards:supplier-create", SupplierCreateView),
    ("cards:supplier-approval", SupplierApprovalView),
    ("cards:order-create", OrderCreateView),
    ("cards:order-visa", OrderVisaView),
    ("cards:order-send", OrderSendView),
    ("cards:destruction-plan", DestructionPlanView),
    ("cards:destruction-notify", DestructionNotifyView),
    ("cards:destruction-complete", DestructionCompleteView),
)


def may_set(roles, est) -> set[str]:
    """The acts these roles may do in ``est``, by the name of their page ("receive", "order_visa"),
    for the pages to offer those and no other."""
    pages = [(name, view) for name, _label, view, *_flags in OPERATIONS] + list(OFFICE)
    return {
        name.split(":")[1].replace("-", "_") for name, view in pages if holds_one_of(roles, roles_for(view.actors, est))
    }


def keeps_the_cards(roles, est) -> bool:
    """Whether these roles work the depot (receive, issue, return): the cartier's pages are theirs."""
    return any(
        holds_one_of(roles, roles_for(view.actors, est))
        for view in (ReceiveView, IssueView, ReturnView, FirstControlView)
    )
