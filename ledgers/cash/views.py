"""Web pages of the table cash. Each form calls one service; a refusal shows its requirement ID
and article and keeps what was typed."""

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import FormView, TemplateView

from ledgers.core.models import Seance, TableSession
from ledgers.core.selectors import open_seances
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView

from . import (
    baccara,
    bbj,
    box_holders,
    changeurs,
    electronic,
    forms,
    plaques,
    selectors,
    services,
    sfe,
    table_cagnottes,
    tickets,
)
from .models import (
    BadBeatCount,
    BadBeatStop,
    BadBeatTable,
    CardTableNumber,
    CercleDeviceDay,
    ChipCensus,
    ChipSeries,
    ControlDay,
    ElectronicDevice,
    ElectronicMeterStatement,
    LevyMachine,
    Orphan,
    Slip,
    SlipBook,
    StationResult,
    TableCount,
    TicketBook,
)


class CashFormView(EstablishmentRequiredMixin, ServiceFormView):
    template_name = "cash/form.html"
    title = ""
    intro = ""
    submit = _("Enregistrer")
    errors_on_fields = True

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


class DayView(EstablishmentRequiredMixin, TemplateView):
    """The tables of the open séances with their float and count, the slip books, what is waiting."""

    template_name = "cash/day.html"

    def get_context_data(self, **kwargs):
        est = self.establishment
        seances = [(seance, list(selectors.seance_sessions(seance))) for seance in open_seances(est)]
        return super().get_context_data(
            seances=seances,
            books=SlipBook.objects.filter(establishment=est),
            slips=selectors.slips_to_serve(est),
            waiting=selectors.counts_waiting(est),
            jurisdiction=est.jurisdiction,
            **kwargs,
        )


class FloatView(CashFormView):
    form_class = forms.FloatForm
    success_message = _("Avance inscrite au carnet.")

    @property
    def title(self):
        return _("Avance de la table %(table)s") % {"table": self.session.table.number}

    def get_initial(self):
        return {"box_number": self.session.table.number}

    def perform(self, form):
        data = form.cleaned_data
        return services.float_record(
            session=self.session,
            breakdown=data["breakdown"],
            actor=self.request.user,
            kind=data.get("kind") or "initial",
            box_number=data.get("box_number", ""),
            transport_box=data.get("transport_box", ""),
            counted_by=data.get("counted_by", ""),
            called_aloud=data.get("called_aloud", False),
            receiver=data.get("receiver"),
            carry_note=data.get("carry_note", ""),
            carnet_on_table=data.get("carnet_on_table", False),
        )


class FixBankView(CashFormView):
    form_class = forms.FixBankForm
    title = _("Somme mise en banque fixée par la Direction des Jeux")

    def perform(self, form):
        return services.float_amount_fix(
            table=form.cleaned_data["table"], amount=form.cleaned_data["amount"], actor=self.request.user
        )


class SlipBookView(CashFormView):
    form_class = forms.SlipBookForm
    title = _("Mise en service d'un carnet de bons")

    def perform(self, form):
        return services.slip_book_open(
            establishment=self.establishment,
            actor=self.request.user,
            **{k: form.cleaned_data[k] for k in ("kind", "number", "first_number", "last_number")},
        )


class SlipWriteView(CashFormView):
    form_class = forms.SlipWriteForm
    title = _("Bon de change ou de ravitaillement")
    success_message = _("Bon rédigé et contresigné.")

    def get_form_kwargs(self):
        sessions = TableSession.objects.filter(
            seance__establishment=self.establishment, status=TableSession.Status.OPEN
        ).select_related("table", "seance")
        return {**super().get_form_kwargs(), "sessions": sessions}

    def perform(self, form):
        data = form.cleaned_data
        return services.slip_write(
            book=data["book"],
            number=data["number"],
            session=data["table_session"],
            requested=data["requested"],
            handed=data["handed"],
            actor=self.request.user,
            supervisor=data.get("supervisor"),
            runner=data.get("runner", ""),
            currency=data.get("currency") or "EUR",
        )


class SlipServeView(CashFormView):
    form_class = forms.DeskForm
    submit = _("Servir et signer")

    @cached_property
    def slip(self) -> Slip:
        return get_object_or_404(Slip, pk=self.kwargs["pk"], book__establishment=self.establishment)

    @property
    def title(self):
        return _("Servir le bon %(slip)s") % {"slip": self.slip}

    def perform(self, form):
        return services.slip_serve(slip=self.slip, desk=form.cleaned_data["desk"], actor=self.request.user)


class SlipVoidView(CashFormView):
    form_class = forms.SlipVoidForm
    title = _("Annulation d'un bon (deux signatures)")

    def perform(self, form):
        data = form.cleaned_data
        return services.slip_void(
            book=data["book"],
            number=data["number"],
            actor=self.request.user,
            cosigner=data.get("cosigner"),
            reason=data["reason"],
        )


class CentraliseView(CashFormView):
    form_class = forms.DeskForm
    title = _("Centralisation des bons de la séance")

    def perform(self, form):
        seance = get_object_or_404(Seance, pk=self.kwargs["pk"], establishment=self.establishment)
        return services.slips_centralise(seance=seance, desk=form.cleaned_data["desk"], actor=self.request.user)


class CountView(CashFormView):
    """One of the two blind counts: the page never shows the other count's figures."""

    form_class = forms.CountForm
    success_message = _("Comptage enregistré.")

    @property
    def title(self):
        return _("Comptée de fin de séance — table %(table)s") % {"table": self.session.table.number}

    def get_context_data(self, **kwargs):
        count = TableCount.objects.filter(table_session=self.session).first()
        return super().get_context_data(count=count, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return services.count_record(
            session=self.session,
            breakdown=data["breakdown"],
            actor=self.request.user,
            tips=data.get("tips"),
            present=data.get("present", "").splitlines(),
            called_aloud=data.get("called_aloud", False),
            count_room=data.get("count_room", False),
            cctv_reference=data.get("cctv_reference", ""),
        )


class CertifyView(CashFormView):
    form_class = forms.CertifyForm
    submit = _("Certifier et signer")
    success_message = _("Encaisse certifiée et inscrite au carnet.")

    @property
    def title(self):
        return _("Certification de l'encaisse — table %(table)s") % {"table": self.session.table.number}

    def get_context_data(self, **kwargs):
        count = TableCount.objects.filter(table_session=self.session).first()
        return super().get_context_data(count=count, show_counts=True, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        count = get_object_or_404(TableCount, table_session=self.session)
        return services.count_certify(
            count=count,
            actor=self.request.user,
            words=data["words"],
            resolution=data.get("resolution", ""),
            encaisse=data.get("encaisse"),
            insurance_premiums=data.get("insurance_premiums"),
        )

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "session": self.session}


class RakeView(EstablishmentRequiredMixin, FormView):
    """The rake calculator, for the croupier at the table and for the count."""

    template_name = "cash/rake.html"
    form_class = forms.RakeForm

    def get_form_kwargs(self):
        return {"data": self.request.GET or None}

    def get(self, request, *args, **kwargs):
        form = self.get_form()
        result, error = None, None
        if form.is_valid():
            try:
                result = selectors.rake_for(self.establishment, **form.cleaned_data)
            except ValidationError as exc:  # no rate configured for the game here (SET-16)
                error = "; ".join(exc.messages)
        return self.render_to_response(self.get_context_data(form=form, result=result, error=error))


class ControlView(CashFormView):
    """The registre de contrôle: the closed days, and the closing of a day."""

    form_class = forms.ControlCloseForm
    template_name = "cash/control.html"
    title = _("Registre de contrôle (modèle 12)")
    submit = _("Reporter et arrêter la journée")

    def get_context_data(self, **kwargs):
        days = ControlDay.objects.filter(establishment=self.establishment)[:31]
        return super().get_context_data(days=days, **kwargs)

    def get_success_url(self) -> str:
        return reverse("cash:control")

    def perform(self, form):
        return services.control_day_close(
            establishment=self.establishment, date=form.cleaned_data["date"], actor=self.request.user
        )


class ControlVisaView(CashFormView):
    form_class = forms.ControlVisaForm
    submit = _("Viser")

    @cached_property
    def day(self) -> ControlDay:
        return get_object_or_404(ControlDay, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Visa du registre de contrôle — journée du %(day)s") % {"day": self.day}

    def get_success_url(self) -> str:
        return reverse("cash:control")

    def perform(self, form):
        return services.control_day_visa(
            day=self.day, actor=self.request.user, statement=form.cleaned_data.get("statement", "")
        )


class ExceptionsView(EstablishmentRequiredMixin, TemplateView):
    """What the table cash reports without refusing it (FLAG rows)."""

    template_name = "cash/exceptions.html"

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            slips=selectors.slip_exceptions(est),
            floats=selectors.float_flags(est),
            bad_beats=selectors.bad_beat_flags(est),
            **kwargs,
        )


class TicketBookView(CashFormView):
    form_class = forms.TicketBookForm
    title = _("Mise en service d'un carnet de tickets")

    def perform(self, form):
        return services.ticket_book_register(actor=self.request.user, **form.cleaned_data)


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


class OrphanView(CashFormView):
    form_class = forms.OrphanForm
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


class LevyMonthView(CashFormView):
    form_class = forms.LevyMonthForm
    title = _("Carnet des prélèvements (modèle 13) : arrêté du mois")
    submit = _("Reporter et arrêter le mois")

    def perform(self, form):
        return services.levy_month_close(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


# --- bad beat jackpot (COUNT-44 to COUNT-48, INC-15) ----------------------------------------------


class BadBeatJackpotMixin:
    @cached_property
    def jackpot(self) -> BadBeatTable:
        return get_object_or_404(
            BadBeatTable.objects.select_related("table"), pk=self.kwargs["pk"], table__establishment=self.establishment
        )

    def get_success_url(self) -> str:
        return reverse("cash:bbj", args=[self.jackpot.pk])


class BadBeatJackpotView(BadBeatJackpotMixin, EstablishmentRequiredMixin, TemplateView):
    """A BBJ table: its conditions, stops, wins and séance counts with their continuity flags."""

    template_name = "cash/bbj.html"

    def get_context_data(self, **kwargs):
        jackpot = self.jackpot
        return super().get_context_data(
            jackpot=jackpot,
            configs=jackpot.configs.order_by("-version"),
            stops=jackpot.stops.all(),
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


class BadBeatFinalStopView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.BadBeatFinalStopForm
    submit = _("Arrêter définitivement")

    @property
    def title(self):
        return _("Arrêt définitif du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj.bad_beat_stop_final(jackpot=self.jackpot, actor=self.request.user, **form.cleaned_data)


class BadBeatBreakdownView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.BadBeatBreakdownForm
    submit = _("Inscrire au registre")

    @property
    def title(self):
        return _("Panne du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj.bad_beat_breakdown(jackpot=self.jackpot, actor=self.request.user, **form.cleaned_data)


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
        return bbj.bad_beat_restore(stop=self.stop, actor=self.request.user, **form.cleaned_data)


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
        return bbj.bad_beat_suspend(jackpot=self.jackpot, actor=self.request.user)


class BadBeatResumeView(BadBeatJackpotMixin, CashFormView):
    form_class = forms.CashForm
    submit = _("Reprendre le bad beat jackpot")

    @property
    def title(self):
        return _("Reprise du bad beat jackpot — table %(table)s") % {"table": self.jackpot.table.number}

    def perform(self, form):
        return bbj.bad_beat_resume(
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


class TableCagnotteView(CashFormView):
    form_class = forms.TableCagnotteForm
    title = _("Mise en service de la cagnotte d'une table de cercle")

    def perform(self, form):
        return table_cagnottes.table_cagnotte_record(actor=self.request.user, **form.cleaned_data)


class SfeAdvanceView(CashFormView):
    form_class = forms.SfeAdvanceForm

    @property
    def title(self):
        return _("Avance de la SFE — table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        return sfe.sfe_advance_record(session=self.session, actor=self.request.user, **form.cleaned_data)


class ChangeurFloatFixView(CashFormView):
    form_class = forms.ChangeurFloatFixForm
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


class BoxHolderView(CashFormView):
    form_class = forms.BoxHolderForm

    @property
    def title(self):
        return _("Employé chargé de la caisse — table %(table)s") % {"table": self.session.table.number}

    def perform(self, form):
        return box_holders.box_holder_designate(session=self.session, actor=self.request.user, **form.cleaned_data)


# --- modèle 16 (COUNT-58) and ticket books (COUNT-39 to COUNT-41) ------------------------------


class PlaquesView(CashFormView):
    """Modèle 16: the series in the reserve and in service, the censuses, and the census form."""

    form_class = forms.ChipCensusForm
    template_name = "cash/plaques.html"
    title = _("Registre des plaques, jetons et cartes de paiement (modèle 16)")
    submit = _("Inscrire le recensement")

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            series=ChipSeries.objects.filter(establishment=est),
            censuses=ChipCensus.objects.filter(establishment=est),
            due=plaques.censuses_due(est),
            taken_in_charge=plaques.taken_in_charge(est),
            **kwargs,
        )

    def get_success_url(self) -> str:
        return reverse("cash:plaques")

    def perform(self, form):
        return plaques.chip_census_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class ChipSeriesView(CashFormView):
    form_class = forms.ChipSeriesForm
    title = _("Séries de plaques, jetons ou cartes mises en service")

    def get_success_url(self) -> str:
        return reverse("cash:plaques")

    def perform(self, form):
        return plaques.chip_series_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class ChipAllocateView(CashFormView):
    form_class = forms.ChipAllocateForm

    @cached_property
    def series(self) -> ChipSeries:
        return get_object_or_404(ChipSeries, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Répartition entre la réserve générale et le service — %(series)s") % {"series": self.series}

    def get_initial(self):
        return {"in_service_series": self.series.in_service_series}

    def get_success_url(self) -> str:
        return reverse("cash:plaques")

    def perform(self, form):
        return plaques.chip_series_allocate(series=self.series, actor=self.request.user, **form.cleaned_data)


class TicketsView(CashFormView):
    """Register of the ticket books: the card-table number series, the books and their stamps, the
    levy machines; the form numbers a card table."""

    form_class = forms.CardTableNumberForm
    template_name = "cash/tickets.html"
    title = _("Carnets de tickets et numéros des tables de cartes")
    submit = _("Inscrire le numéro d'ordre")

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            numbers=CardTableNumber.objects.filter(table__establishment=est).select_related("table"),
            unnumbered=tickets.unnumbered_card_tables(est),
            books=TicketBook.objects.filter(establishment=est, finished_on__isnull=True).select_related("table"),
            machines=LevyMachine.objects.filter(table__establishment=est).select_related("table"),
            **kwargs,
        )

    def get_success_url(self) -> str:
        return reverse("cash:tickets")

    def perform(self, form):
        return tickets.card_table_number(actor=self.request.user, **form.cleaned_data)


class TicketStampView(CashFormView):
    form_class = forms.TicketStampForm
    submit = _("Apposer le timbre à date")

    @cached_property
    def book(self) -> TicketBook:
        return get_object_or_404(TicketBook, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Timbre à date du début de séance — carnet %(book)s, ticket n° %(first)s") % {
            "book": self.book,
            "first": self.book.next_number,
        }

    def get_success_url(self) -> str:
        return reverse("cash:tickets")

    def perform(self, form):
        return tickets.ticket_seance_stamp(book=self.book, actor=self.request.user, **form.cleaned_data)


class LevyMachineView(CashFormView):
    form_class = forms.LevyMachineForm
    title = _("Machine automatique agréée d'enregistrement des retenues")

    def get_success_url(self) -> str:
        return reverse("cash:tickets")

    def perform(self, form):
        return tickets.levy_machine_activate(actor=self.request.user, **form.cleaned_data)


class MachineHistoryView(CashFormView):
    form_class = forms.MachineHistoryForm
    submit = _("Inscrire la cagnotte calculée")

    @property
    def title(self):
        return _("Historique de la machine et cagnotte calculée — table %(table)s") % {
            "table": self.session.table.number
        }

    def perform(self, form):
        return tickets.cagnotte_machine_compute(session=self.session, actor=self.request.user, **form.cleaned_data)


# --- modèle 10 bis (COUNT-51) ----------------------------------------------------------------


class DevicesView(CashFormView):
    """The electronic contrepartie devices, their recent days and visas; the form adds a device."""

    form_class = forms.DeviceForm
    template_name = "cash/devices.html"
    title = _("Jeux de contrepartie électroniques (registre modèle 10 bis)")

    def get_context_data(self, **kwargs):
        devices = ElectronicDevice.objects.filter(establishment=self.establishment)
        results = StationResult.objects.filter(device__establishment=self.establishment).select_related("device")
        cercle_days = CercleDeviceDay.objects.filter(device__establishment=self.establishment).select_related("device")
        statements = ElectronicMeterStatement.objects.filter(establishment=self.establishment)
        return super().get_context_data(
            devices=devices,
            results=results.order_by("-date", "device", "station")[:50],
            cercle_days=cercle_days.order_by("-date")[:50],
            statements=statements[:24],
            **kwargs,
        )

    def get_success_url(self) -> str:
        return reverse("cash:devices")

    def perform(self, form):
        return electronic.device_register(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class DeviceFormView(CashFormView):
    @cached_property
    def device(self) -> ElectronicDevice:
        return get_object_or_404(ElectronicDevice, pk=self.kwargs["pk"], establishment=self.establishment)

    def get_success_url(self) -> str:
        return reverse("cash:devices")


class StationResultView(DeviceFormView):
    form_class = forms.StationResultForm

    @property
    def title(self):
        return _("Résultat d'un poste de jeu — appareil %(device)s") % {"device": self.device}

    def perform(self, form):
        return electronic.station_result_record(device=self.device, actor=self.request.user, **form.cleaned_data)


class DeviceVisaView(DeviceFormView):
    form_class = forms.DeviceVisaForm
    submit = _("Viser")

    @property
    def title(self):
        return _("Visa journalier du modèle 10 bis — appareil %(device)s") % {"device": self.device}

    def perform(self, form):
        return electronic.device_day_visa(device=self.device, actor=self.request.user, date=form.cleaned_data["date"])


class MeterStatementView(CashFormView):
    form_class = forms.MeterStatementForm
    title = _("État mensuel du relevé des compteurs des jeux électroniques (modèle 33)")
    submit = _("Certifier")

    def get_success_url(self) -> str:
        return reverse("cash:devices")

    def perform(self, form):
        data = form.cleaned_data
        return electronic.meter_statement_certify(
            establishment=self.establishment,
            year=data["year"],
            month=data["month"],
            comite=data.get("comite"),
            actor=self.request.user,
        )


class CercleDayView(DeviceFormView):
    form_class = forms.CercleDayForm

    @property
    def title(self):
        return _("État journalier (modèle 7) et carnet 11 quater — appareil %(device)s") % {"device": self.device}

    def perform(self, form):
        return electronic.cercle_day_record(device=self.device, actor=self.request.user, **form.cleaned_data)


class CercleCertifyView(CashFormView):
    form_class = forms.CercleCertifyForm
    submit = _("Certifier")

    @cached_property
    def day(self) -> CercleDeviceDay:
        return get_object_or_404(
            CercleDeviceDay.objects.select_related("device"),
            pk=self.kwargs["pk"],
            device__establishment=self.establishment,
        )

    @property
    def title(self):
        return _("Certification du carnet 11 quater — %(day)s") % {"day": self.day}

    def get_success_url(self) -> str:
        return reverse("cash:devices")

    def perform(self, form):
        return electronic.cercle_day_certify(day=self.day, actor=self.request.user, words=form.cleaned_data["words"])


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
