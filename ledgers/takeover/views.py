"""Take-over pages: the inventories and what each domain still accepts, a new inventory typed or
imported with its preview (every line's problem before anything is written), the directorate's
signature, the authority's visa, and the posting."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.exports import TableExportMixin
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView
from ledgers.custody.services import AUTHORITY, DIRECTION
from ledgers.registers.selectors import open_registers

from . import forms, selectors, services
from .domains import DOMAINS, domains_for, get_domain
from .registers import PREPARERS, TAKEOVER
from .spreadsheet import blank_sheet, rows_as_text
from .tables import InventoryTable


class InventoryListView(EstablishmentRequiredMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "takeover/list.html"
    table_class = InventoryTable
    export_name = "inventaires-de-reprise"

    def get_table_data(self):
        return selectors.inventories(self.establishment)

    def get_context_data(self, **kwargs):
        est = self.establishment
        domains = []
        for code, domain in domains_for(est).items():
            visa = domain.visa.get(est.jurisdiction)
            domains.append(
                {
                    "code": code,
                    "label": domain.label,
                    "started": selectors.domain_started(est, code),
                    "visa": (visa[0], REQUIREMENTS[visa[0]].article, visa[1]) if visa else None,
                }
            )
        return super().get_context_data(
            domains=domains,
            may_prepare=bool(set(self.roles) & set(PREPARERS)),
            register_open=open_registers(est, TAKEOVER.code).exists(),
            register_title=TAKEOVER.title,
            **kwargs,
        )


class FormView(EstablishmentRequiredMixin, ServiceFormView):
    template_name = "takeover/form.html"
    title = ""
    submit = _("Enregistrer")
    errors_on_fields = True

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_context_data(self, **kwargs):
        return super().get_context_data(title=self.title, submit=self.submit, **kwargs)


class InventoryCreateView(FormView):
    form_class = forms.InventoryForm
    template_name = "takeover/create.html"
    title = _("Nouvel inventaire de reprise")
    success_message = _("Inventaire établi : il attend la signature de la direction.")

    def get_initial(self):
        domains = domains_for(self.establishment)
        domain = domains.get(self.request.GET.get("domain", "")) or next(iter(domains.values()))
        return {"domain": domain.code, "lines": rows_as_text(domain, [])}

    def form_valid(self, form):
        if "preview" not in self.request.POST:
            return super().form_valid(form)
        data = form.cleaned_data
        domain = get_domain(data["domain"])
        problems = selectors.inventory_problems(establishment=self.establishment, domain=domain.code, rows=data["rows"])
        by_row: dict[int, list] = {}
        for problem in problems:
            by_row.setdefault(problem.row, []).append(problem)
        rows = lines_of(domain, data["rows"], by_row)
        form.data = form.data.copy()
        form.data["lines"] = rows_as_text(domain, data["rows"])  # an imported sheet, to correct here
        return self.render_to_response(
            self.get_context_data(form=form, preview=rows, columns=columns_of(domain), problems=problems)
        )

    def perform(self, form):
        data = form.cleaned_data
        return services.takeover_prepare(
            establishment=self.establishment,
            domain=data["domain"],
            paper_register=data["paper_register"],
            rows=data["rows"],
            actor=self.request.user,
        )

    def get_context_data(self, **kwargs):
        return super().get_context_data(domains=domains_for(self.establishment).values(), **kwargs)

    def get_success_url(self) -> str:
        return reverse("takeover:inventory", args=[self.result.pk])


class BlankSheetView(EstablishmentRequiredMixin, TemplateView):
    """The empty sheet of a domain's columns, to fill in (``?format=csv`` or ``xlsx``)."""

    def get(self, request, *args, **kwargs):
        domain = DOMAINS.get(kwargs["domain"])
        if domain is None:
            raise Http404
        export_format = "xlsx" if request.GET.get("format") == "xlsx" else "csv"
        content_type = {
            "csv": "text/csv; charset=utf-8",
            "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        }[export_format]
        body = blank_sheet(domain, export_format)
        response = HttpResponse(("\ufeff" + body) if export_format == "csv" else body, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="reprise-{domain.code}.{export_format}"'
        return response


def columns_of(domain) -> list[tuple[str, str]]:
    return [(name, label) for name, label, _help in domain.columns]


def lines_of(domain, rows: list[dict], problems_by_row: dict[int, list] | None = None) -> list[dict]:
    """Each row numbered, its cells paired with their column's label (a phone shows one under the other)."""
    return [
        {
            "number": n,
            "cells": [(label, row.get(name, "")) for name, label in columns_of(domain)],
            "problems": (problems_by_row or {}).get(n, []),
        }
        for n, row in enumerate(rows, start=1)
    ]


class InventoryMixin:
    """An inventory of the house; its acts show the lines they sign."""

    @cached_property
    def inventory(self):
        return get_object_or_404(selectors.inventories(self.establishment), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        domain = get_domain(self.inventory.domain)
        return super().get_context_data(
            inventory=self.inventory, columns=columns_of(domain), lines=lines_of(domain, self.inventory.rows), **kwargs
        )

    def get_success_url(self) -> str:
        return reverse("takeover:inventory", args=[self.inventory.pk])


class InventoryDetailView(EstablishmentRequiredMixin, InventoryMixin, TemplateView):
    template_name = "takeover/inventory.html"

    def get_context_data(self, **kwargs):
        inventory, est = self.inventory, self.establishment
        domain = get_domain(inventory.domain)
        problems = []
        if inventory.status != inventory.Status.POSTED:
            problems = selectors.inventory_problems(establishment=est, domain=domain.code, rows=inventory.rows)
        visa = domain.visa.get(est.jurisdiction)
        roles = set(self.roles)
        return super().get_context_data(
            domain=domain,
            problems=problems,
            visa=(visa[0], REQUIREMENTS[visa[0]].article, visa[1]) if visa else None,
            may_sign=bool(roles & set(DIRECTION[est.jurisdiction])),
            may_visa=bool(visa) and bool(roles & set(AUTHORITY[est.jurisdiction])),
            **kwargs,
        )


class SignView(InventoryMixin, FormView):
    form_class = forms.SignForm
    title = _("Signer l'inventaire de reprise")
    submit = _("Signer")
    success_message = _("Inventaire signé.")

    def perform(self, form):
        return services.takeover_sign(inventory=self.inventory, actor=self.request.user)


class VisaView(InventoryMixin, FormView):
    form_class = forms.VisaForm
    title = _("Viser l'inventaire de reprise")
    submit = _("Viser")
    success_message = _("Inventaire visé.")

    def perform(self, form):
        return services.takeover_visa(
            inventory=self.inventory, actor=self.request.user, statement=form.cleaned_data["statement"]
        )


class PostView(InventoryMixin, FormView):
    form_class = forms.PostForm
    title = _("Reporter l'inventaire aux registres")
    submit = _("Reporter")
    success_message = _(
        "Inventaire reporté : chaque objet est entré à son état, sa ligne citant la page du registre papier."
    )

    def perform(self, form):
        return services.takeover_post(inventory=self.inventory, actor=self.request.user)
