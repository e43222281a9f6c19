"""Pages for the tables' counts, their certification and the rake."""

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView

from ledgers.core.authz import refusal_of, role_refusal
from ledgers.core.exports import ListExportMixin
from ledgers.core.readable import euros

from .. import forms, selectors, services
from ..models import (
    TableCount,
)
from .common import CashFormView, CashPageMixin


class CountView(CashFormView):
    """One of the two blind counts: the page never shows the other count's figures."""

    form_class = forms.CountForm
    success_message = _("Comptage enregistré.")

    @property
    def title(self):
        return _("Comptée de fin de séance — table %(table)s") % {"table": self.session.table.number}

    def act_refusal(self):
        return role_refusal(self.request.user, self.establishment, services.COUNTERS)

    def get_context_data(self, **kwargs):
        count = TableCount.objects.filter(table_session=self.session).first()
        return super().get_context_data(count=count, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return services.count_record(
            session=self.session,
            breakdown=data["breakdown"],
            actor=self.request.user,
            tips=data.get("tips"),
            present=data.get("present") or [],
            called_aloud=data.get("called_aloud", False),
            count_room=data.get("count_room", False),
            cctv_reference=data.get("cctv_reference", ""),
        )


class CertifyView(CashFormView):
    form_class = forms.CertifyForm
    submit = _("Certifier et signer")
    success_message = _("Encaisse certifiée et inscrite au carnet.")

    @property
    def title(self):
        return _("Certification de l'encaisse — table %(table)s") % {"table": self.session.table.number}

    def act_refusal(self):
        return refusal_of(lambda: services.certifier_role(self.request.user, self.establishment))

    def get_context_data(self, **kwargs):
        count = TableCount.objects.filter(table_session=self.session).first()
        return super().get_context_data(count=count, show_counts=True, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        count = get_object_or_404(TableCount, table_session=self.session)
        return services.count_certify(
            count=count,
            actor=self.request.user,
            words=data["words"],
            resolution=data.get("resolution", ""),
            encaisse=data.get("encaisse"),
            insurance_premiums=data.get("insurance_premiums"),
        )

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "session": self.session}


class RakeView(CashPageMixin, FormView):
    """The rake calculator, for the croupier at the table and for the count."""

    template_name = "cash/rake.html"
    form_class = forms.RakeForm

    def get_form_kwargs(self):
        return {"data": self.request.GET or None}

    def get(self, request, *args, **kwargs):
        form = self.get_form()
        result, error = None, None
        if form.is_valid():
            try:
                result = selectors.rake_for(self.establishment, **form.cleaned_data)
            except ValidationError as exc:  # no rate configured for the game here (SET-16)
                error = "; ".join(exc.messages)
        return self.render_to_response(self.get_context_data(form=form, result=result, error=error))


class PotRakesView(ListExportMixin, CashFormView):
    """The pots of a poker table-partie, one line each as the croupier takes the rake: the pot is
    enough, the page stays on the table for the next one. The pots are exported."""

    template_name = "cash/pots.html"
    form_class = forms.PotRakeForm
    submit = _("Inscrire le pot")
    export_name = "pots"

    def get_queryset(self):
        return selectors.pots_of(self.session)

    def export_headers(self) -> list:
        return [
            _("Pot n°"),
            _("Heure"),
            _("Montant du pot"),
            _("Retenue due"),
            _("Retenue opérée"),
            _("Gain versé"),
            _("Observations"),
        ]

    def export_rows(self, pots):
        for pot in pots:
            taken_at = f"{self.establishment.localtime(pot.taken_at):%H:%M:%S}"
            yield (pot.number, taken_at, pot.pot, pot.allowed, pot.taken, pot.gain, " ; ".join(pot.flags))

    @property
    def title(self):
        return _("Retenues par pot — table %(table)s") % {"table": self.session.table.number}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "session": self.session}

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            pots=self.get_queryset(), total=selectors.pot_rakes_total(self.session), **kwargs
        )

    def get_success_message(self) -> str:
        pot = self.result
        return _("Pot n° %(number)s : retenue %(taken)s €, gain versé %(gain)s €.") % {
            "number": pot.number,
            "taken": euros(pot.taken),
            "gain": euros(pot.gain),
        }

    def get_success_url(self) -> str:
        return reverse("cash:pots", args=[self.session.pk])

    def perform(self, form):
        data = form.cleaned_data
        return services.pot_rake_record(
            session=self.session,
            pot=data["pot"],
            cave=data.get("cave"),
            taken=data.get("taken"),
            actor=self.request.user,
        )
