"""Pages for cagnottes."""

from django.utils.translation import gettext_lazy as _

from .. import forms, services
from ..services import (
    table_cagnottes,
)
from .common import CashFormView


class CagnotteComputeView(CashFormView):
    form_class = forms.CagnotteComputeForm
    submit = _("Vérifier et calculer")

    @property
    def title(self):
        return _("Tickets détachés et cagnotte calculée — table %(table)s") % {"table": self.session.table.number}

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "session": self.session}

    def perform(self, form):
        return services.cagnotte_compute(
            session=self.session, detached=form.cleaned_data["detached"], actor=self.request.user
        )


class CagnotteCountView(CashFormView):
    form_class = forms.CagnotteCountForm
    submit = _("Compter et certifier")

    @property
    def title(self):
        return _("Comptage de la cagnotte — table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        data = form.cleaned_data
        return services.cagnotte_count(
            session=self.session,
            breakdown=data["breakdown"],
            actor=self.request.user,
            words=data.get("words", ""),
            balancing_ticket=data.get("balancing_ticket"),
        )


class TableCagnotteView(CashFormView):
    form_class = forms.TableCagnotteForm
    menu_act = "table_cagnotte"
    title = _("Mise en service de la cagnotte d'une table de cercle")

    def perform(self, form):
        return table_cagnottes.table_cagnotte_record(actor=self.request.user, **form.cleaned_data)
