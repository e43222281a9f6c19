"""Key pages: the register of keys, hand-over and return, socle key surrender, blind inventory,
the exceptions list, who held which key when (printable) and the sanity report. Views parse the
form, call one service and show a refusal with its requirement ID without losing the input."""

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from ledgers.core import service_views
from ledgers.core.errors import RuleViolation
from ledgers.core.exports import ListExportMixin, TableExportMixin
from ledgers.core.service_views import EstablishmentRequiredMixin
from ledgers.registers.services import display_name

from . import forms, selectors, services
from .models import Key, KeyIssue
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


class KeyListView(EstablishmentRequiredMixin, ListExportMixin, TableExportMixin, SingleTableMixin, TemplateView):
    """The registre des clés and the keys out, both exported."""

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

    def export_lists(self):
        def moment(value):
            return f"{self.establishment.localtime(value):%d/%m/%Y %H:%M}" if value else ""

        out = (
            (str(i.key), str(i.holder), str(i.purpose_label), moment(i.issued_at), moment(i.due_at))
            for i in self.out_issues
        )
        return {"cles-sorties": ([_("Clé"), _("Détenteur"), _("Motif"), _("Sortie le"), _("À rendre le")], out)}

    def get_context_data(self, **kwargs):
        return super().get_context_data(out_issues=self.out_issues, **kwargs)


class KeyDetailView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """A key with its hand-overs and returns, exported."""

    template_name = "keys/key.html"

    @cached_property
    def key(self):
        return get_object_or_404(selectors.keys_of(self.establishment), pk=self.kwargs["pk"])

    def get_queryset(self):
        return selectors.issues_of(self.establishment).filter(key=self.key).prefetch_related("signatures__user")

    def export_lists(self):
        def moment(value):
            return f"{self.establishment.localtime(value):%d/%m/%Y %H:%M}" if value else ""

        issues = (
            (
                moment(issue.issued_at),
                display_name(issue.holder),
                str(issue.purpose_label),
                moment(issue.due_at),
                moment(issue.returned_at),
                " · ".join(f"{s.get_act_display()} : {display_name(s.user)}" for s in issue.signatures.all()),
            )
            for issue in self.get_queryset()
        )
        headers = [_("Sortie le"), _("Détenteur"), _("Motif"), _("À rendre le"), _("Rendue le"), _("Signatures")]
        return {f"cle-{slugify(self.key.code)}": (headers, issues)}

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            key=self.key,
            release_refusal=services.release_refusal(self.key, self.request.user),
            assets=selectors.assets_text(self.key.assets, selectors.place_names(self.establishment)),
            issues=self.get_queryset(),
            **kwargs,
        )


class KeyCreateView(FormView):
    form_class = forms.KeyForm
    title = _("Inscrire une clé au registre")
    success_message = _("Clé inscrite au registre des clés.")

    def perform(self, form):
        return services.key_register(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class IssueView(FormView):
    """A hand-over in two steps: the key first (``?key=``), then the form with only the signers
    that key needs."""

    form_class = forms.IssueForm
    title = _("Remettre une clé")
    intro = _(
        "La clé sort pour un objet ouvert (relève, intervention, comptée, séance…), jusqu'à l'heure de retour "
        "prévue. Le détenteur et, si la clé le demande, les autres personnes signent avec leur mot de passe."
    )
    success_message = _("Remise de la clé inscrite au registre.")

    @cached_property
    def key(self) -> Key | None:
        chosen = self.request.POST.get("key") or self.request.GET.get("key") or ""
        keys = Key.objects.filter(establishment=self.establishment, status=Key.Status.IN_SERVICE)
        return keys.filter(pk=chosen).first() if chosen.isdigit() else None

    def choose(self):
        self.submit = _("Continuer")
        choice = forms.KeyChoiceForm(self.request.GET or None, establishment=self.establishment)
        return render(self.request, "keys/issue_choose.html", self.get_context_data(form=choice))

    def refused_key(self):
        """The chosen key again, with why this person may not hand it over (``release_refusal``,
        the check the hand-over runs), before any of its form is filled."""
        refusal = services.release_refusal(self.key, self.request.user)
        if refusal is None:
            return None
        self.submit = _("Continuer")
        choice = forms.KeyChoiceForm(establishment=self.establishment)
        if isinstance(refusal, RuleViolation):
            context = {"violation": refusal}
        else:
            context = {"denied": " ".join(refusal.messages)}
        return render(self.request, "keys/issue_choose.html", self.get_context_data(form=choice, **context), status=409)

    def get(self, request, *args, **kwargs):
        if self.key is None:
            return self.choose()
        return self.refused_key() or super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        if self.key is None:
            return self.choose()
        return self.refused_key() or super().post(request, *args, **kwargs)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "key": self.key}

    def get_initial(self):
        return {"key": self.key.pk}

    def get_context_data(self, **kwargs):
        return super().get_context_data(key=self.key, **kwargs)

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

    @cached_property
    def issue(self) -> KeyIssue:
        return get_object_or_404(KeyIssue, pk=self.kwargs["pk"], key__establishment=self.establishment)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "issue": self.issue}

    def get_context_data(self, **kwargs):
        return super().get_context_data(issue=self.issue, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return services.key_return(
            issue=self.issue,
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


class HoldingsView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """Who held which key when: a date range, for one key or one asset; printable and exported."""

    template_name = "keys/holdings.html"
    export_name = "detenteurs-cles"

    @cached_property
    def form(self):
        return forms.HoldingsForm(self.request.GET or None, establishment=self.establishment)

    def get_queryset(self):
        """The key issues of the period asked, or None until one is asked."""
        if not self.form.is_valid():
            return None
        data = self.form.cleaned_data
        return selectors.holdings(
            self.establishment, start=data["start"], end=data["end"], key=data["key"], asset_ref=data["asset_ref"]
        ).prefetch_related("signatures__user")

    def export_headers(self) -> list:
        return [_("Clé"), _("Détenteur"), _("Motif"), _("Sortie le"), _("Rendue le"), _("Signatures")]

    def export_rows(self, issues):
        def moment(value):
            return f"{self.establishment.localtime(value):%d/%m/%Y %H:%M}" if value else ""

        for issue in issues or ():
            signatures = " · ".join(f"{s.get_act_display()} : {display_name(s.user)}" for s in issue.signatures.all())
            yield (
                str(issue.key),
                display_name(issue.holder),
                str(issue.purpose_label),
                moment(issue.issued_at),
                moment(issue.returned_at),
                signatures,
            )

    def get_context_data(self, **kwargs):
        return super().get_context_data(form=self.form, rows=self.get_queryset(), **kwargs)


class SanityView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """What the key register's checks find: several sensitive keys held by one person, keys left
    without an authorised holder, and the differences of the last blind inventory; each exported."""

    template_name = "keys/sanity.html"

    def export_lists(self):
        report = selectors.sanity(self.establishment)
        inventory = report.last_inventory
        return {
            "cles-sensibles": (
                [_("Personne"), _("Clés sensibles détenues")],
                (
                    (str(user), ", ".join(str(issue.key) for issue in issues))
                    for user, issues in report.several_sensitive
                ),
            ),
            "cles-sans-detenteur": (
                [_("Clé"), _("Ce qu'elle ouvre")],
                ((str(key), key.opens) for key in report.no_holder_left),
            ),
            "ecarts-inventaire": (
                [_("Clé"), _("Attendu"), _("Compté")],
                (
                    (line["code"], line["expected"], line["counted"])
                    for line in (inventory.difference_lines if inventory else ())
                ),
            ),
        }

    def get_context_data(self, **kwargs):
        return super().get_context_data(report=selectors.sanity(self.establishment), **kwargs)
