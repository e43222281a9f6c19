"""The forms of the table-partie page's staff and limits section (``hooks.staff_and_limits_panel``):
each calls one service; a refusal shows the table-partie page again with it."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Seance
from ledgers.core.views import TableSessionActView

from . import services
from .forms import AssignForm, BankerForm, ExtensionForm, LimitsForm, ReliefForm


class TableFormView(TableSessionActView):
    form_class = None
    prefix = ""

    def form(self, request: HttpRequest):
        raise NotImplementedError

    def valid(self, request: HttpRequest):
        form = self.form(request)
        if not form.is_valid():
            raise ValidationError(
                [f"{form.fields[f].label if f in form.fields else ''} : {' '.join(e)}" for f, e in form.errors.items()]
            )
        return form


class AssignView(TableFormView):
    def form(self, request):
        return AssignForm(request.POST, establishment=self.establishment, prefix="assign")

    def act(self, request: HttpRequest, seance: Seance) -> None:
        data = self.valid(request).cleaned_data
        services.staff_assign(session=self.session, actor=request.user, **data)
        messages.success(request, _("Prise de poste inscrite."))


class ReliefView(TableFormView):
    def form(self, request):
        return ReliefForm(request.POST, establishment=self.establishment, session=self.session, prefix="relief")

    def act(self, request: HttpRequest, seance: Seance) -> None:
        data = self.valid(request).cleaned_data
        services.staff_relieve(actor=request.user, **data)
        messages.success(request, _("Relève inscrite."))


class LimitsView(TableFormView):
    def form(self, request):
        return LimitsForm(request.POST, session=self.session, prefix="limits")

    def act(self, request: HttpRequest, seance: Seance) -> None:
        services.table_limits_set(session=self.session, actor=request.user, **self.valid(request).service_kwargs())
        messages.success(request, _("Limites de mise inscrites."))


class ExtensionView(TableFormView):
    def form(self, request):
        return ExtensionForm(request.POST, prefix="extension")

    def act(self, request: HttpRequest, seance: Seance) -> None:
        services.closing_extension_record(session=self.session, actor=request.user, **self.valid(request).cleaned_data)
        messages.success(request, _("Prolongation inscrite."))


class BankerView(TableFormView):
    def form(self, request):
        return BankerForm(request.POST, session=self.session, prefix="banker")

    def act(self, request: HttpRequest, seance: Seance) -> None:
        services.banker_name(session=self.session, actor=request.user, **self.valid(request).cleaned_data)
        messages.success(request, _("Banquier inscrit."))
