"""Key pages: the register of keys, hand-over and return, socle key surrender, blind inventory,
the exceptions list, who held which key when (printable) and the sanity report. Views parse the
form, call one service and show a refusal with its requirement ID without losing the input."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from ledgers.core import service_views
from ledgers.core.exports import TableExportMixin
from ledgers.core.service_views import EstablishmentRequiredMixin

from . import forms, selectors, services
from .models import KeyIssue
from .tables import KeyTable


class FormView(EstablishmentRequiredMixin, service_views.ServiceFormView):
    template_name = "keys/form.html"
    title = ""
    submit = _("Enregistrer")
    intro = ""

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_context_data(self, **kwargs):
        return super().get_context_data(title=self.title, submit=self.submit, intro=self.intro, **kwargs)

    def get_success_url(self) -> str:
        return reverse("keys:list")


def _signers(data: dict, *prefixes: str) -> list:
    return [data[p] for p in prefixes if data.get(p) is not None]


class KeyListView(EstablishmentRequiredMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "keys/list.html"
    table_class = KeyTable
    export_name = "registre-des-cles"

    @cached_property
    def out_issues(self) -> list:
        return list(selectors.out_issues(self.establishment))

    def get_table_data(self):
        return selectors.keys_of(self.establishment).order_by("code")

    def get_table_kwargs(self):
        return {
            "out": frozenset(issue.key_id for issue in self.out_issues),
            "places": selectors.place_names(self.establishment),
        }

    def get_context_data(self, **kwargs):
        return super().get_context_data(out_issues=self.out_issues, **kwargs)


class KeyDetailView(EstablishmentRequiredMixin, TemplateView):
    template_name = "keys/key.html"

    def get_context_data(self, **kwargs):
        key = get_object_or_404(selectors.keys_of(self.establishment), pk=self.kwargs["pk"])
        return super().get_context_data(
            key=key,
            assets=selectors.assets_text(key.assets, selectors.place_names(self.establishment)),
            issues=selectors.issues_of(self.establishment).filter(key=key).prefetch_related("signatures__user"),
            **kwargs,
        )


class KeyCreateView(FormView):
    form_class = forms.KeyForm
    title = _("Inscrire une clé au registre")
    success_message = _("Clé inscrite au registre des clés.")

    def perform(self, form):
        return services.key_register(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class IssueView(FormView):
    form_class = forms.IssueForm
    title = _("Remettre une clé")
    intro = _(
        "La clé sort pour un objet ouvert (relève, intervention, comptée, séance…), jusqu'à l'heure de retour "
        "prévue. Le détenteur et, si la clé le demande, les autres personnes signent avec leur mot de passe."
    )
    success_message = _("Remise de la clé inscrite au registre.")

    def get_initial(self):
        return {"key": self.request.GET.get("key")}

    def perform(self, form):
        data = form.cleaned_data
        purpose_type, purpose_id = data["purpose"]
        return services.key_issue(
            key=data["key"],
            actor=self.request.user,
            holder=data["holder"],
            co_releasers=_signers(data, "co1", "co2"),
            witness=data.get("witness"),
            purpose_type=purpose_type,
            purpose_id=purpose_id,
            due_at=data["due_at"],
            note=data["note"],
        )


class ReturnView(FormView):
    form_class = forms.ReturnForm
    title = _("Reprendre une clé")
    success_message = _("Restitution de la clé inscrite au registre.")

    def get_issue(self) -> KeyIssue:
        return get_object_or_404(KeyIssue, pk=self.kwargs["pk"], key__establishment=self.establishment)

    def get_context_data(self, **kwargs):
        return super().get_context_data(issue=self.get_issue(), **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return services.key_return(
            issue=self.get_issue(),
            actor=self.request.user,
            returned_by=data["holder"],
            co_receivers=_signers(data, "co1", "co2"),
            note=data["note"],
        )


class SurrenderView(FormView):
    form_class = forms.SurrenderForm
    title = _("Socle sorti de l'exploitation : remise de la serrure et de la clé")
    success_message = _("Remise au caissier principal inscrite au registre.")

    def perform(self, form):
        data = form.cleaned_data
        return services.socle_key_surrender(
            key=data["key"],
            actor=self.request.user,
            receiver=data["receiver"],
            socle_ref=data["socle_ref"],
            lock_ref=data["lock_ref"],
            reason=data["reason"],
        )


class InventoryView(FormView):
    form_class = forms.InventoryForm
    title = _("Inventaire des clés (à l'aveugle)")
    intro = _(
        "Comptez les exemplaires présents de chaque clé dans son lieu de garde ; les écarts apparaissent une "
        "fois l'inventaire enregistré."
    )
    success_message = _("Inventaire des clés enregistré.")

    def perform(self, form):
        return services.key_inventory_record(
            establishment=self.establishment, actor=self.request.user, counted=form.counted()
        )

    def get_success_url(self) -> str:
        return reverse("keys:sanity")


class ExceptionsView(EstablishmentRequiredMixin, TemplateView):
    template_name = "keys/exceptions.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(exceptions=selectors.exceptions(self.establishment), **kwargs)


class HoldingsView(EstablishmentRequiredMixin, TemplateView):
    """Who held which key when: a date range, for one key or one asset; printable."""

    template_name = "keys/holdings.html"

    def get_context_data(self, **kwargs):
        form = forms.HoldingsForm(self.request.GET or None, establishment=self.establishment)
        rows = None
        if form.is_valid():
            data = form.cleaned_data
            rows = selectors.holdings(
                self.establishment, start=data["start"], end=data["end"], key=data["key"], asset_ref=data["asset_ref"]
            ).prefetch_related("signatures__user")
        return super().get_context_data(form=form, rows=rows, **kwargs)


class SanityView(EstablishmentRequiredMixin, TemplateView):
    template_name = "keys/sanity.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(report=selectors.sanity(self.establishment), **kwargs)
