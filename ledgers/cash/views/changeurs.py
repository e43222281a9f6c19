"""Pages for the changeurs' floats."""

from django.utils.translation import gettext_lazy as _

from .. import forms
from ..services import (
    changeurs,
)
from .common import CashFormView


class ChangeurFloatFixView(CashFormView):
    form_class = forms.ChangeurFloatFixForm
    menu_act = "changeur_fix"
    title = _("Somme fixée de la caisse du changeur")

    def perform(self, form):
        return changeurs.changeur_float_fix(actor=self.request.user, **form.cleaned_data)


class ChangeurFloatView(CashFormView):
    form_class = forms.ChangeurFloatForm

    @property
    def title(self):
        return _("Caisse du changeur — table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        return changeurs.changeur_float_record(session=self.session, actor=self.request.user, **form.cleaned_data)
