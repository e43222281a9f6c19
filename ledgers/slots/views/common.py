"""The base of the slot pages. Views parse the form, call one service, and show a refusal with its
requirement ID and article without losing what was typed."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core import service_views

# The submit button of the pages recording a notice given to an authority: the act is the notice
# itself, timed by the system when it is validated.
NOTICE_GIVEN = _("Information donnée")


class SlotsView(service_views.EstablishmentRequiredMixin):
    def get_context_data(self, **kwargs):
        return super().get_context_data(jurisdiction=self.establishment.jurisdiction, **kwargs)


class ServiceFormView(SlotsView, service_views.ServiceFormView):
    template_name = "slots/form.html"
    title = ""
    intro = ""
    submit = _("Enregistrer")
    errors_on_fields = True

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_context_data(self, **kwargs):
        return super().get_context_data(title=self.title, intro=self.intro, submit=self.submit, **kwargs)

    def get_success_url(self) -> str:
        return reverse("slots:machines")
