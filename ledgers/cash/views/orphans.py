"""Pages for orphans and their restitution."""

from django.shortcuts import get_object_or_404
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from .. import forms, services
from ..models import Orphan
from .common import CashFormView


class OrphanView(CashFormView):
    form_class = forms.OrphanForm
    menu_act = "orphan"
    title = _("Orphelin versé à la caisse (carnet modèle 11 bis)")

    def perform(self, form):
        return services.orphan_record(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class RestitutionView(CashFormView):
    form_class = forms.RestitutionForm

    @cached_property
    def orphan(self) -> Orphan:
        return get_object_or_404(Orphan, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Restitution de l'orphelin %(orphan)s") % {"orphan": self.orphan}

    def perform(self, form):
        return services.orphan_restitute(orphan=self.orphan, actor=self.request.user, **form.cleaned_data)
