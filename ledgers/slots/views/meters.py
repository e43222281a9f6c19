"""Pages for meters."""

from django.utils.translation import gettext_lazy as _

from .. import forms, services
from .machines import MachineFormView


class RamClearView(MachineFormView):
    form_class = forms.RamClearForm
    title = _("Remise à zéro de la mémoire")

    def get_initial(self):
        keys = "\n".join(f"{m.key_at} " for m in self.machine.meters.filter(active=True))
        return {"before": keys, "after": keys}

    def perform(self, form):
        return services.ram_clear_record(machine=self.machine, actor=self.request.user, **form.cleaned_data)
