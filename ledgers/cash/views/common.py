"""The base of the table cash pages: a form calls one service; the day's page."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from ledgers.core.authz import refusal_of, role_refusal
from ledgers.core.models import TableSession
from ledgers.core.selectors import open_seances
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView

from .. import selectors, services
from ..models import SlipBook
from ..services import box_holders, changeurs, table_cagnottes, tickets


# The acts the cash menu names, each with the check its service runs first: the menu offers an
# act only to whom that check lets through, and its page shows the others the refusal.
def _reserved(roles):
    """The check of an act its service reserves to ``roles`` (``require_role``)."""
    return lambda user, est: role_refusal(user, est, roles)


MENU_ACTS = {
    "slip_write": services.slip_write_refusal,
    "fix_bank": _reserved(services.FLOAT_FIXERS),
    "refait_threshold": _reserved(services.REFAIT_THRESHOLD_FIXERS),
    "book_open": _reserved(services.BOOK_KEEPERS),
    "slip_void": _reserved(services.VOIDERS),
    "orphan": _reserved(services.ORPHAN_KEEPERS),
    "ticket_book": lambda user, est: refusal_of(lambda: tickets.ticket_book_keeper_role(user, est)),
    "centralise": _reserved(services.CASHIERS),
    "table_cagnotte": _reserved(table_cagnottes.CAGNOTTE_KEEPERS),
    "changeur_fix": lambda user, est: refusal_of(lambda: changeurs.changeur_fixer_role(user, est)),
}


class CashPageMixin(EstablishmentRequiredMixin):
    """A page under the cash menu: ``menu_offers`` names the menu's acts this person may do."""

    def get_context_data(self, **kwargs):
        user, est = self.request.user, self.establishment
        offers = {name for name, refusal in MENU_ACTS.items() if refusal(user, est) is None}
        return super().get_context_data(menu_offers=offers, **kwargs)


class CashFormView(CashPageMixin, ServiceFormView):
    template_name = "cash/form.html"
    title = ""
    intro = ""
    submit = _("Enregistrer")
    errors_on_fields = True
    menu_act = ""  # the menu's name of this page's act, whose check it asks before the form

    def act_refusal(self):
        if self.menu_act:
            return MENU_ACTS[self.menu_act](self.request.user, self.establishment)
        return super().act_refusal()

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment, "request": self.request}

    def get_context_data(self, **kwargs):
        return super().get_context_data(title=self.title, intro=self.intro, submit=self.submit, **kwargs)

    def get_success_url(self) -> str:
        return reverse("cash:day")

    @cached_property
    def session(self) -> TableSession:
        return get_object_or_404(
            TableSession.objects.select_related("seance", "table"),
            pk=self.kwargs["pk"],
            seance__establishment=self.establishment,
        )


class DayView(CashPageMixin, TemplateView):
    """The tables of the open séances with their float and count, the slip books, what is waiting."""

    template_name = "cash/day.html"

    def get_context_data(self, **kwargs):
        est, user = self.establishment, self.request.user
        seances = [(seance, list(selectors.seance_sessions(seance))) for seance in open_seances(est)]
        # Each act offered only to whom its service lets do it, else shown with the service's refusal.
        for _seance, sessions in seances:
            for session in sessions:
                if session.status != TableSession.Status.CLOSED:
                    session.float_refusal = services.float_refusal(session, user)
                    if est.jurisdiction == "FR":
                        # Who never designates a box holder sees no link; a rule holding it back now is shown.
                        session.box_holder_refusal = box_holders.box_holder_refusal(session, user)
                        session.box_holder_shown = not isinstance(session.box_holder_refusal, PermissionDenied)
        return super().get_context_data(
            seances=seances,
            books=SlipBook.objects.filter(establishment=est),
            slips=selectors.slips_to_serve(est),
            waiting=selectors.counts_waiting(est),
            jurisdiction=est.jurisdiction,
            count_refusal=role_refusal(user, est, services.COUNTERS),
            certify_refusal=refusal_of(lambda: services.certifier_role(user, est)),
            **kwargs,
        )
