"""Register pages: list, detail with keyset paging, entry detail, and the forms of the register acts."""

from django import forms
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView, View
from django_filters.views import FilterView
from django_tables2 import SingleTableMixin

from ledgers.core.authz import refusal_of, reserved_to
from ledgers.core.exports import FORMATS, ListExportMixin, TableExportMixin, export_response
from ledgers.core.roles import role_label
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView
from ledgers.core.views import EstablishmentMixin
from ledgers.signatures.passkeys import PasskeyRequired

from . import opening, selectors, services
from .exports import register_dataset
from .filtersets import RegisterFilter
from .forms import (
    CorrectionForm,
    KindVisaForm,
    MainCouranteForm,
    RegisterCloseForm,
    RegisterCreateForm,
    RegisterOpenForm,
    RegisterWithdrawForm,
    VisaForm,
)
from .kinds import column_readers, get_kind, labelled
from .models import EntryKind
from .signing import published_keys
from .tables import RegisterTable


class RegisterListView(EstablishmentMixin, TableExportMixin, SingleTableMixin, FilterView):
    table_class = RegisterTable
    filterset_class = RegisterFilter
    template_name = "registers/register_list.html"
    table_pagination = {"per_page": 50}  # the table alone pages: a ListView page would count the rows again

    def get_queryset(self):
        return self.establishment.registers.all()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["can_create"] = selectors.can_create_registers(self.request.user, self.establishment)
        return context


class RegisterMixin(LoginRequiredMixin):
    """Views of one register of the user's establishments (404 otherwise)."""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            self.register = selectors.register_for(request.user, kwargs["number"])
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(register=self.register, kind=self.register.kind_info)
        return context


def _keyset(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def entries_with_cells(register, *, after: int | None, before: int | None = None) -> selectors.EntryPage:
    """A page of entries, each record or correction with ``cells``: (column label, value) in the kind's
    columns, the label shown beside the value where a narrow screen stacks the columns."""
    columns = register.kind_info.columns
    read = column_readers(columns, register.establishment)
    page = selectors.entry_page(register, after=after, before=before)
    for entry in page.entries:
        if entry.kind in (EntryKind.RECORD, EntryKind.CORRECTION):
            values = entry.payload.get("corrected", {}) if entry.kind == EntryKind.CORRECTION else entry.payload
            entry.cells = [(column.label, labelled(read[column.key](column.value(values)))) for column in columns]
    return page


class RegisterDetailView(RegisterMixin, TemplateView):
    template_name = "registers/register_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        columns = self.register.kind_info.columns
        page = entries_with_cells(
            self.register, after=_keyset(self.request.GET.get("after")), before=_keyset(self.request.GET.get("before"))
        )
        context.update(
            columns=columns,
            page=page,
            actions=selectors.register_actions(self.request.user, self.register),
            visaed_up_to=selectors.visaed_up_to(self.register),
        )
        return context


class RegisterExportView(RegisterMixin, View):
    """The register's entries as a spreadsheet (CSV or XLSX); ``?after=N``: those after n° N (what
    a visa would cover)."""

    def get(self, request, number: str, export_format: str):
        if export_format not in FORMATS:
            raise Http404
        after = _keyset(request.GET.get("after")) or 0
        name = f"{self.register.number}-{after + 1}-{self.register.head_seq}" if after else self.register.number
        return export_response(register_dataset(self.register, after=after), export_format, name)


class EntryDetailView(RegisterMixin, TemplateView):
    template_name = "registers/entry_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        entry = selectors.entry_for(self.register, self.kwargs["seq"])
        columns = self.register.kind_info.columns
        labels = {column.key: column.label for column in columns}
        read = column_readers(columns, self.register.establishment)
        context.update(
            entry=entry,
            hashed=entry.hashed_fields(self.register.number),
            payload_rows=[
                (labels.get(key, key), read[key](value) if key in read else value)
                for key, value in entry.payload.items()
            ],
            role_label=role_label(entry.role),
            visa=selectors.covering_visa(entry),
            corrections=entry.corrections.order_by("seq"),
            can_correct="correct" in selectors.register_actions(self.request.user, self.register)
            and entry.kind in (EntryKind.RECORD, EntryKind.CORRECTION),
        )
        return context


class RegisterCreateView(EstablishmentMixin, ServiceFormView):
    errors_on_fields = True
    form_class = RegisterCreateForm
    template_name = "registers/register_create.html"
    success_message = _("Registre créé : il attend sa cote et son paraphe.")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def perform(self, form):
        data = form.cleaned_data
        return services.register_create(
            establishment=self.establishment,
            kind=data["kind"],
            actor=self.request.user,
            qualifier=data["qualifier"],
            title=data["title"],
        )

    def get_success_url(self):
        return reverse("registers:detail", args=[self.result.number])


class RegistersToOpenView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """The registers the house must have open before its first séance, each with its state; the
    directorate creates the missing volumes in one act, the authorities cote and paraph them."""

    template_name = "registers/to_open.html"
    export_name = "registres-a-ouvrir"

    @cached_property
    def rows(self) -> list[opening.ToOpen]:
        return opening.registers_to_open(self.establishment)

    def export_headers(self) -> list:
        return [
            _("Registre"),
            _("Catégorie"),
            _("Table"),
            _("Coté et paraphé par"),
            _("Exigence"),
            _("État"),
            _("Volume"),
        ]

    def export_lists(self):
        rows = (
            [row.title, row.qualifier_label, row.table, row.authority, row.requirement, row.state_label, row.number]
            for row in self.rows
        )
        return {self.export_name: (self.export_headers(), rows)}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        counts = {state: sum(row.state == state for row in self.rows) for state in opening.State}
        context.update(
            rows=self.rows,
            to_create=counts[opening.State.TO_CREATE],
            awaiting=counts[opening.State.AWAITING],
            opened=counts[opening.State.OPEN],
            can_create=selectors.can_create_registers(self.request.user, self.establishment),
            has_tables=bool(opening.tables_in_service(self.establishment)),
        )
        return context


class RegistersToOpenCreateView(EstablishmentMixin, ServiceFormView):
    """The directorate's one act: every missing volume created, awaiting its cote et paraphe."""

    form_class = forms.Form
    template_name = "registers/to_open_create.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(missing=opening.missing(self.establishment), **kwargs)

    def perform(self, form):
        return services.registers_to_open_create(establishment=self.establishment, actor=self.request.user)

    def get_success_message(self) -> str:
        return _("%(count)s registre(s) créé(s) : ils attendent leur cote et leur paraphe.") % {
            "count": len(self.result)
        }

    def get_success_url(self):
        return reverse("registers:to_open")


class RegisterActMixin(RegisterMixin):
    """The forms of the acts on one register, offered only to whom the roles allow (403)."""

    action = ""
    errors_on_fields = True  # e.g. a main courante time the service cannot read goes on its field

    def get(self, request, *args, **kwargs):
        if self.action not in selectors.register_actions(request.user, self.register):
            rule = selectors.act_rules(self.register).get(self.action)
            if rule is None or self.register.status != rule.status:
                raise PermissionDenied(
                    _("Le registre est « %(status)s » : cet acte n'y est pas possible.")
                    % {"status": self.register.get_status_display()}
                )
            raise PermissionDenied(reserved_to(rule.roles, rule.requirement, self.register.establishment))
        return super().get(request, *args, **kwargs)

    def get_success_url(self):
        return reverse("registers:detail", args=[self.register.number])


class RegisterOpenView(RegisterActMixin, ServiceFormView):
    action = "open"
    form_class = RegisterOpenForm
    template_name = "registers/register_open.html"
    success_message = _("Registre coté et paraphé.")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def perform(self, form):
        data = form.cleaned_data
        return services.register_open(
            register=self.register,
            actor=self.request.user,
            paraphe=data["paraphe"],
            statement=data["statement"],
            passkey=form.passkey_given,
        )


class MainCouranteRecordView(RegisterActMixin, ServiceFormView):
    action = "record"
    form_class = MainCouranteForm
    template_name = "registers/main_courante_form.html"
    success_message = _("Fait inscrit à la main courante.")

    def get_initial(self):
        return {"event_at": timezone.now()}

    def perform(self, form):
        data = form.cleaned_data
        return services.main_courante_record(
            register=self.register,
            actor=self.request.user,
            subject=data["subject"],
            text=data["text"],
            event_at=timezone.localtime(data["event_at"]).strftime(services.EVENT_AT_FORMAT),
        )

    def get_success_url(self):
        return reverse("registers:detail", args=[self.register.number]) + f"?before={self.result.seq + 1}"


class VisaView(RegisterActMixin, ServiceFormView):
    action = "visa"
    form_class = VisaForm
    template_name = "registers/visa_form.html"
    success_message = _("Visa enregistré.")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def get_initial(self):
        return {"up_to_seq": self.register.head_seq}

    def get_context_data(self, **kwargs):
        # What the visa signs, shown before the password: the entries it covers, and the head it seals.
        visaed = selectors.visaed_up_to(self.register)
        page = entries_with_cells(
            self.register,
            after=_keyset(self.request.GET.get("after")) or visaed,
            before=_keyset(self.request.GET.get("before")),
        )
        return super().get_context_data(
            visaed_up_to=visaed, page=page, columns=self.register.kind_info.columns, **kwargs
        )

    def perform(self, form):
        data = form.cleaned_data
        return services.visa_sign(
            register=self.register,
            actor=self.request.user,
            up_to_seq=data["up_to_seq"],
            statement=data["statement"],
            passkey=form.passkey_given,
        )

    def get_success_url(self):
        # The visaed range, ending on the visa itself.
        return (
            reverse("registers:detail", args=[self.register.number])
            + f"?before={self.result.seq + 1}#e{self.result.seq}"
        )


class KindVisaView(EstablishmentRequiredMixin, ServiceFormView):
    """The visa of every volume of one kind awaiting the authority, in one act: the volumes and
    the entries each visa covers, up to the head shown, then the signature once."""

    form_class = KindVisaForm
    template_name = "registers/visa_kind.html"
    success_message = _("Visas enregistrés.")

    @cached_property
    def kind(self):
        try:
            return get_kind(self.kwargs["kind"])
        except KeyError as exc:
            raise Http404 from exc

    @cached_property
    def volumes(self) -> list:
        return [
            r
            for r in selectors.registers_awaiting_authority(self.request.user, self.establishment)
            if r.kind == self.kind.code and r.status == r.Status.OPEN
        ]

    def act_refusal(self):
        return refusal_of(lambda: services.visa_role_for_kind(self.request.user, self.establishment, self.kind.code))

    def up_to(self) -> dict[str, int]:
        """The head of each volume as the signer saw it (posted back), else as it is now."""
        shown = {r.number: r.head_seq for r in self.volumes}
        for number in shown:
            posted = self.request.POST.get(f"{number}-head", "")
            if posted.isdigit():
                shown[number] = int(posted)
        return shown

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request, "numbers": [r.number for r in self.volumes]}

    def get_context_data(self, **kwargs):
        return super().get_context_data(kind=self.kind, volumes=self.volumes, **kwargs)

    def perform(self, form):
        try:
            return services.visa_sign_kind(
                establishment=self.establishment,
                kind=self.kind.code,
                actor=self.request.user,
                up_to=self.up_to(),
                statement=form.cleaned_data["statement"],
                passkeys=form.passkeys(),
            )
        except PasskeyRequired as exc:  # the volume whose visa waits: its own passkey field
            raise PasskeyRequired(exc.options, field=form.passkey_field(exc.field)) from exc

    def get_success_message(self) -> str:
        return _("%(n)s visas enregistrés.") % {"n": len(self.result)}

    def get_success_url(self):
        return reverse("dashboard")


class CorrectionView(RegisterActMixin, ServiceFormView):
    action = "correct"
    form_class = CorrectionForm
    template_name = "registers/correction_form.html"
    success_message = _("Correction inscrite.")

    @cached_property
    def entry(self):
        return selectors.entry_for(self.register, self.kwargs["seq"])

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "entry": self.entry}

    def get_context_data(self, **kwargs):
        return super().get_context_data(entry=self.entry, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return services.entry_correct(
            entry=self.entry,
            actor=self.request.user,
            reason=data["reason"],
            approval=data["approval"],
            payload=form.corrected_payload(),
        )

    def get_success_url(self):
        return reverse("registers:entry", args=[self.register.number, self.result.seq])


class RegisterCloseView(RegisterActMixin, ServiceFormView):
    action = "close"
    form_class = RegisterCloseForm
    template_name = "registers/register_close.html"
    success_message = _("Registre clos.")

    def perform(self, form):
        return services.register_close(
            register=self.register, actor=self.request.user, statement=form.cleaned_data["statement"]
        )


class RegisterWithdrawView(RegisterActMixin, ServiceFormView):
    action = "withdraw"
    form_class = RegisterWithdrawForm
    template_name = "registers/register_withdraw.html"
    success_message = _("Volume retiré : il reste à la liste des registres, sans aucune inscription possible.")

    def perform(self, form):
        return services.register_withdraw(
            register=self.register, actor=self.request.user, reason=form.cleaned_data["reason"]
        )

    def get_success_url(self):
        return reverse("registers:to_open")


class PublicKeysView(TemplateView):
    """The public keys that check the seals, for anyone (no login): an auditor compares them with
    the ones handed over on paper."""

    template_name = "registers/public_keys.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(keys=published_keys(), **kwargs)
