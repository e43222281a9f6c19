"""Pages of the authorities' registers and records: each form calls one service; a refusal shows
its requirement and article with what was typed kept."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from ledgers.core.roles import DIRECTORATE, REGULATOR_ROLES, Role
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView

from . import forms, selectors, services
from .access import VERIFIERS
from .models import LiaisonQuestion, Observation
from .registers import LIAISON, OBSERVATIONS

ACCESS_LOG_READERS = {*REGULATOR_ROLES, *DIRECTORATE}


class AuthorityForm(EstablishmentRequiredMixin, ServiceFormView):
    template_name = "authority/form.html"
    title = ""
    intro = ""
    success_name = "authority:police"
    errors_on_fields = True

    def get_context_data(self, **kwargs):
        return super().get_context_data(title=self.title, intro=self.intro, **kwargs)

    def get_success_url(self) -> str:
        return reverse(self.success_name)


class IndexView(EstablishmentRequiredMixin, TemplateView):
    """What the authorities keep, verify and approve, one link each."""

    template_name = "authority/index.html"


class AccessView(EstablishmentRequiredMixin, TemplateView):
    """REG-22: who may verify what here, and the log of the regulators' reads and prints, shown to
    the regulators and to the Direction."""

    template_name = "authority/access.html"

    def get(self, request, *args, **kwargs):
        if not self.roles & ACCESS_LOG_READERS:
            raise PermissionDenied(_("Le journal des accès est réservé aux autorités et à la Direction."))
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            verifiers=[(v, Role(v.role).label) for v in VERIFIERS[self.establishment.jurisdiction]],
            log=selectors.access_log(self.establishment)[:200], **kwargs)


class PoliceView(EstablishmentRequiredMixin, TemplateView):
    """The registre spécial d'observations and the registre de liaison: what waits for whom."""

    template_name = "authority/police.html"

    def get_context_data(self, **kwargs):
        est = self.establishment
        overdue = set(selectors.observations_overdue(est).values_list("pk", flat=True))
        return super().get_context_data(
            observations=selectors.observations_of(est)[:100], overdue=overdue,
            questions=selectors.liaison_of(est)[:100], roles=self.roles,
            kinds=(OBSERVATIONS, LIAISON), **kwargs,
        )


class ObservationCreateView(AuthorityForm):
    form_class = forms.ObservationForm
    title = _("Inscrire une visite au registre spécial d'observations")
    intro = _("Jour et heure de la visite, nature des opérations effectuées et, s'il y a lieu, les observations, "
              "instructions ou injonctions formulées (art. 92).")
    success_message = _("Visite inscrite au registre spécial d'observations.")

    def get_initial(self):
        return {"visited_at": timezone.localtime().replace(second=0, microsecond=0)}

    def perform(self, form):
        return services.observation_record(establishment=self.establishment, actor=self.request.user,
                                           **form.cleaned_data)


class FollowUpView(AuthorityForm):
    form_class = forms.FollowUpForm
    title = _("Mentionner la suite réservée à une observation")
    success_message = _("Suite inscrite en regard de l'observation.")

    def observation(self) -> Observation:
        return get_object_or_404(Observation, establishment=self.establishment, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return super().get_context_data(observation=self.observation(), **kwargs)

    def perform(self, form):
        return services.observation_follow_up(observation=self.observation(), actor=self.request.user,
                                              text=form.cleaned_data["text"])


class QuestionCreateView(AuthorityForm):
    form_class = forms.QuestionForm
    title = _("Poser une question au registre de liaison")
    intro = _("Demande de précisions sur la réglementation, difficulté d'application, remarque ou question "
              "relative à l'exploitation (art. 92-1).")
    success_message = _("Question inscrite au registre de liaison.")

    def perform(self, form):
        return services.liaison_ask(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class AnswerView(AuthorityForm):
    form_class = forms.AnswerForm
    title = _("Répondre au registre de liaison")
    success_message = _("Réponse inscrite au registre de liaison.")

    def question(self) -> LiaisonQuestion:
        return get_object_or_404(LiaisonQuestion, establishment=self.establishment, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return super().get_context_data(question=self.question(), **kwargs)

    def perform(self, form):
        return services.liaison_answer(question=self.question(), actor=self.request.user,
                                       answer=form.cleaned_data["answer"])
