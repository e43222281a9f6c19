"""Pages for baccara à deux tableaux."""

from django.utils.translation import gettext_lazy as _

from .. import forms
from ..services import (
    baccara,
)
from .common import CashFormView


class BankerView(CashFormView):
    """Baccara à deux tableaux: the banker who takes the bank, his name heading his operations."""

    form_class = forms.BankerForm

    @property
    def title(self):
        return _("Banquier de la table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        return baccara.banker_segment_start(
            session=self.session,
            banker=form.cleaned_data["banker"],
            bank=form.cleaned_data["bank"],
            actor=self.request.user,
        )


class BaccaraBankView(CashFormView):
    form_class = forms.BaccaraBankForm
    title = _("Mention du carnet modèle 11 : baccara à banque limitée ou ouverte")

    def perform(self, form):
        return baccara.baccara_bank_record(actor=self.request.user, **form.cleaned_data)
