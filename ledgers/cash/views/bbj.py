"""Pages for the bad beat jackpot."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from .. import forms, selectors, services
from ..models import (
    BadBeatCount,
    BadBeatStop,
    BadBeatTable,
)
from ..services import (
    bbj,
    bbj_stops,
)
from .common import CashFormView, CashPageMixin


class BadBeatView(CashFormView):
    form_class = forms.BadBeatForm
    submit = _("Inscrire au registre")

    @property
    def title(self):
        return _("Bad beat jackpot — table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        data = form.cleaned_data
        return services.bad_beat_record(
            session=self.session,
            counted=data["counted"],
            statement=data["statement"],
            displayed=data["displayed"],
            present=data["present"].splitlines(),
            actor=self.request.user,
            comite=data.get("comite"),
        )


class BadBeatLogView(CashFormView):
    form_class = forms.BadBeatLogForm
    submit = _("Importer")
    intro = _(
        "En-tête : heure,pot,retenue_maison,retenue_bbj,gains_payes,montant_bbj,paiements (paiements séparés "
        "par des points-virgules)."
    )

    @property
    def title(self):
        return _("Historique de la machine du bad beat jackpot — table %(table)s") % {
            "table": self.session.table.number
        }

    def get_success_url(self) -> str:
        return reverse("cash:bbj", args=[self.session.table.bad_beat_jackpot.pk])

    def perform(self, form):
        return bbj.bad_beat_log_import(session=self.session, content=form.cleaned_data["file"], actor=self.request.user)


class BadBeatJackpotMixin:
    @cached_property
    def jackpot(self) -> BadBeatTable:
        return get_object_or_404(
            BadBeatTable.objects.select_related("table"), pk=self.kwargs["pk"], table__establishment=self.establishment
        )

    def get_success_url(self) -> str:
        return reverse("cash:bbj", args=[self.jackpot.pk])


class BadBeatJackpotView(BadBeatJackpotMixin, CashPageMixin, TemplateView):
    """A BBJ table: its conditions, stops, wins and séance counts with their continuity flags."""

    template_name = "cash/bbj.html"

    def get_context_data(self, **kwargs):
        jackpot = self.jackpot
        return super().get_context_data(
            jackpot=jackpot,
            configs=jackpot.configs.order_by("-version"),
            stops=jackpot.stops.all(),
            stop_notice=bbj_stops.final_stop_notice_in_force(jackpot),
            wins=jackpot.wins.select_related("table_session__seance"),
            breakdown=selectors.open_breakdown(jackpot),
            suspension=selectors.open_suspension(jackpot),
            counts=BadBeatCount.objects.filter(table_session__table=jackpot.table)
            .select_related("table_session__seance", "table_session__bad_beat_log")
            .order_by("-recorded_at")[:20],
            jurisdiction="FR",
            **kwargs,
        )


class BadBeatConfigView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.BadBeatConfigForm
    submit = _("Inscrire au registre")

    @property
    def title(self):
        return _("Conditions du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj.bad_beat_configure(jackpot=self.jackpot, actor=self.request.user, **form.cleaned_data)


class BadBeatStopNoticeView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.BadBeatStopNoticeForm
    submit = _("Information donnée")
    intro = _(
        "L'information du ministre de l'intérieur est enregistrée à l'heure où vous la validez ; l'arrêt définitif "
        "n'est possible qu'après le délai de préavis compté depuis cette heure (art. 56-3-2)."
    )

    @property
    def title(self):
        return _("Information du ministre de l'arrêt définitif — table %(table)s") % {
            "table": self.jackpot.table.number
        }

    def perform(self, form):
        return bbj_stops.bad_beat_stop_notify(jackpot=self.jackpot, actor=self.request.user, **form.cleaned_data)


class BadBeatFinalStopView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.CashForm
    submit = _("Arrêter définitivement")
    intro = _(
        "L'incrément est inscrit aux orphelins ; le préavis est compté depuis l'information du ministre enregistrée "
        "(art. 56-3-2)."
    )

    @property
    def title(self):
        return _("Arrêt définitif du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj_stops.bad_beat_stop_final(jackpot=self.jackpot, actor=self.request.user)


class BadBeatBreakdownView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.BadBeatBreakdownForm
    submit = _("Inscrire au registre")

    @property
    def title(self):
        return _("Panne du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj_stops.bad_beat_breakdown(jackpot=self.jackpot, actor=self.request.user, **form.cleaned_data)


class BadBeatRestoreView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.BadBeatRestoreForm
    submit = _("Inscrire au registre")

    @cached_property
    def stop(self) -> BadBeatStop:
        return get_object_or_404(BadBeatStop, pk=self.kwargs["stop"], jackpot=self.jackpot)

    @property
    def title(self):
        return _("Rétablissement du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj_stops.bad_beat_restore(stop=self.stop, actor=self.request.user, **form.cleaned_data)


class BadBeatSuspendView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.CashForm
    submit = _("Arrêter temporairement")
    intro = _("Le jeu continue sans retenue ni gain du bad beat jackpot jusqu'à sa reprise (art. 56-3-2).")

    @property
    def title(self):
        return _("Arrêt volontaire temporaire du bad beat jackpot — table %(table)s") % {
            "table": self.jackpot.table.number
        }

    def perform(self, form):
        return bbj_stops.bad_beat_suspend(jackpot=self.jackpot, actor=self.request.user)


class BadBeatResumeView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.CashForm
    submit = _("Reprendre le bad beat jackpot")

    @property
    def title(self):
        return _("Reprise du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj_stops.bad_beat_resume(
            stop=get_object_or_404(BadBeatStop, pk=self.kwargs["stop"], jackpot=self.jackpot), actor=self.request.user
        )


class BadBeatWinView(CashFormView):
    form_class = forms.BadBeatWinForm
    submit = _("Payer et inscrire au registre")

    @property
    def title(self):
        return _("Gain du bad beat jackpot — table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        data = form.cleaned_data
        return bbj.bad_beat_win(
            session=self.session,
            combination=data["combination"],
            pot=data["pot"],
            amount=data["amount"],
            players_present=data["players_present"],
            bons=data["bons"],
            winner_name=data["winner_name"],
            restart_value=data["restart_value"],
            actor=self.request.user,
            comite=data.get("comite"),
        )
