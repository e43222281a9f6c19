"""The volumes page of a register (REG-21): the print history (originals and DUPLICATA, with the
digest of each file) and the paraphes, with the form by which the authority paraphs a volume."""

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.service_views import ServiceFormView
from ledgers.registers.views import RegisterMixin

from . import services


class VolumeParapheForm(forms.Form):
    volume = forms.IntegerField(label=_("Tome n°"), min_value=1)
    paraphe = forms.CharField(label=_("Paraphe"), max_length=20, help_text=_("Vos initiales, portées sur chaque page."))


class VolumesView(RegisterMixin, ServiceFormView):
    form_class = VolumeParapheForm
    template_name = "registers/volumes.html"
    success_message = _("Tome paraphé : son nombre de pages est figé.")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.register.establishment
        context.update(
            prints=self.register.volumeprints.select_related("printed_by").order_by("printed_at", "pk"),
            paraphes=self.register.volumeparaphes.select_related("authority").order_by("volume"),
            can_paraphe=bool(
                roles_of(self.request.user, est) & set(self.register.kind_info.paraph_roles_for(est.jurisdiction))
            ),
        )
        return context

    def perform(self, form):
        return services.volume_paraphe(register=self.register, actor=self.request.user, **form.cleaned_data)

    def get_success_url(self):
        return reverse("registers:volumes", args=[self.register.number])
