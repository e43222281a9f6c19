"""Pages for cash slips and SFE advances."""

from django.shortcuts import get_object_or_404
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Seance, TableSession

from .. import forms, services
from ..models import Slip
from ..services import (
    sfe,
)
from .common import CashFormView


class SlipBookView(CashFormView):
    form_class = forms.SlipBookForm
    menu_act = "book_open"
    title = _("Mise en service d'un carnet de bons")

    def perform(self, form):
        return services.slip_book_open(
            establishment=self.establishment,
            actor=self.request.user,
            **{k: form.cleaned_data[k] for k in ("kind", "number", "first_number", "last_number")},
        )


class SlipWriteView(CashFormView):
    form_class = forms.SlipWriteForm
    menu_act = "slip_write"
    title = _("Bon de change ou de ravitaillement")
    success_message = _("Bon rédigé et contresigné.")

    def get_form_kwargs(self):
        sessions = TableSession.objects.filter(
            seance__establishment=self.establishment, status=TableSession.Status.OPEN
        ).select_related("table", "seance")
        return {**super().get_form_kwargs(), "sessions": sessions}

    def perform(self, form):
        data = form.cleaned_data
        return services.slip_write(
            book=data["book"],
            number=data["number"],
            session=data["table_session"],
            requested=data["requested"],
            handed=data["handed"],
            actor=self.request.user,
            supervisor=data.get("supervisor"),
            runner=data.get("runner", ""),
            currency=data.get("currency") or "EUR",
        )


class SlipServeView(CashFormView):
    form_class = forms.DeskForm
    submit = _("Servir et signer")

    @cached_property
    def slip(self) -> Slip:
        return get_object_or_404(Slip, pk=self.kwargs["pk"], book__establishment=self.establishment)

    @property
    def title(self):
        return _("Servir le bon %(slip)s") % {"slip": self.slip}

    def perform(self, form):
        return services.slip_serve(slip=self.slip, desk=form.cleaned_data["desk"], actor=self.request.user)


class SlipVoidView(CashFormView):
    form_class = forms.SlipVoidForm
    menu_act = "slip_void"
    title = _("Annulation d'un bon (deux signatures)")

    def perform(self, form):
        data = form.cleaned_data
        return services.slip_void(
            book=data["book"],
            number=data["number"],
            actor=self.request.user,
            cosigner=data.get("cosigner"),
            reason=data["reason"],
        )


class CentraliseView(CashFormView):
    form_class = forms.DeskForm
    menu_act = "centralise"
    title = _("Centralisation des bons de la séance")

    def perform(self, form):
        seance = get_object_or_404(Seance, pk=self.kwargs["pk"], establishment=self.establishment)
        return services.slips_centralise(seance=seance, desk=form.cleaned_data["desk"], actor=self.request.user)


class SfeAdvanceView(CashFormView):
    form_class = forms.SfeAdvanceForm

    @property
    def title(self):
        return _("Avance de la SFE — table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        return sfe.sfe_advance_record(session=self.session, actor=self.request.user, **form.cleaned_data)
