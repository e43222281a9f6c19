"""Pages of the authorities' registers and records: each form calls one service; a refusal shows
its requirement and article with what was typed kept."""

import datetime
from itertools import islice
from pathlib import PurePath

from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from ledgers.core.authz import reserved_to, roles_of
from ledgers.core.exports import ListExportMixin, TableExportMixin
from ledgers.core.roles import DIRECTORATE, REGULATOR_ROLES, Role
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView
from ledgers.registers.models import Register

from . import forms, selectors, services
from .access import VERIFIERS
from .authorisation import authorisation_figures
from .models import (
    Declaration,
    HouseOption,
    HouseRulesVersion,
    LiaisonQuestion,
    Observation,
    ProgressiveConfig,
    SeasonArchive,
)
from .registers import LIAISON, OBSERVATIONS
from .retention import period_of, retention_end
from .tables import ArreteTable, BankerTable, DeclarationTable

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


class AuthorisationView(EstablishmentRequiredMixin, TemplateView):
    """AUTH-03: the figures of the authorisation dossier at the date asked (today by default)."""

    template_name = "authority/authorisation.html"

    def get(self, request, *args, **kwargs):
        if self.establishment.jurisdiction != "FR":
            raise Http404
        if not self.roles & ACCESS_LOG_READERS:
            raise PermissionDenied(_("Les chiffres de l'autorisation sont réservés aux autorités et à la Direction."))
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        today = self.establishment.localtime().date()
        try:
            on = datetime.date.fromisoformat(self.request.GET.get("date", ""))
        except ValueError:
            on = today
        return super().get_context_data(figures=authorisation_figures(self.establishment, min(on, today)), **kwargs)


class AccessView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """REG-22: who may verify what here, and the log of the regulators' reads and prints, shown to
    the regulators and to the Direction; both exported."""

    template_name = "authority/access.html"
    page_roles = ACCESS_LOG_READERS
    page_requirement = "REG-22"

    def verifiers(self) -> list:
        return [(v, Role(v.role).label) for v in VERIFIERS[self.establishment.jurisdiction]]

    def export_lists(self):
        est = self.establishment
        log = (
            (
                f"{est.localtime(a.at):%d/%m/%Y %H:%M:%S}",
                f"{a.user.get_full_name() or a.user.username} ({a.roles})",
                a.get_action_display(),
                a.target,
            )
            for a in selectors.access_log(est)
        )
        return {
            "verifications": (
                [_("Autorité"), _("Vérification"), _("Texte")],
                ((str(label), str(v.what), v.source) for v, label in self.verifiers()),
            ),
            "journal-acces": ([_("Le"), _("Autorité"), _("Nature"), _("Objet")], log),
        }

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            verifiers=self.verifiers(),
            log=selectors.access_log(self.establishment)[:200],
            **kwargs,
        )


class PoliceView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """The registre spécial d'observations and the registre de liaison: what waits for whom; each
    exported in full."""

    template_name = "authority/police.html"

    def export_lists(self):
        est = self.establishment

        def moment(value, pattern="%d/%m/%Y %H:%M"):
            return f"{est.localtime(value):{pattern}}" if value else ""

        observations = (
            (
                o.number,
                moment(o.visited_at),
                o.agents,
                o.get_nature_display(),
                o.text,
                o.follow_up,
                moment(o.follow_up_at, "%d/%m/%Y"),
            )
            for o in selectors.observations_of(est)
        )
        questions = (
            (
                q.number,
                moment(q.asked_at, "%d/%m/%Y"),
                q.subject,
                q.question,
                q.answer,
                moment(q.answered_at, "%d/%m/%Y"),
            )
            for q in selectors.liaison_of(est)
        )
        return {
            "observations": (
                [
                    _("N°"),
                    _("Visite"),
                    _("Agents"),
                    _("Nature"),
                    _("Observations, instructions ou injonctions"),
                    _("Suite réservée"),
                    _("Suite mentionnée le"),
                ],
                observations,
            ),
            "liaison": ([_("N°"), _("Posée le"), _("Objet"), _("Question"), _("Réponse"), _("Répondue le")], questions),
        }

    def get_context_data(self, **kwargs):
        est = self.establishment
        overdue = set(selectors.observations_overdue(est).values_list("pk", flat=True))
        return super().get_context_data(
            observations=selectors.observations_of(est)[:100],
            overdue=overdue,
            questions=selectors.liaison_of(est)[:100],
            roles=self.roles,
            kinds=(OBSERVATIONS, LIAISON),
            **kwargs,
        )


class ObservationCreateView(AuthorityForm):
    form_class = forms.ObservationForm
    title = _("Inscrire une visite au registre spécial d'observations")
    intro = _(
        "Jour et heure de la visite, nature des opérations effectuées et, s'il y a lieu, les observations, "
        "instructions ou injonctions formulées (art. 92)."
    )
    success_message = _("Visite inscrite au registre spécial d'observations.")

    def get_initial(self):
        return {"visited_at": timezone.localtime().replace(second=0, microsecond=0)}

    def perform(self, form):
        return services.observation_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class FollowUpView(AuthorityForm):
    form_class = forms.FollowUpForm
    title = _("Mentionner la suite réservée à une observation")
    success_message = _("Suite inscrite en regard de l'observation.")

    def observation(self) -> Observation:
        return get_object_or_404(Observation, establishment=self.establishment, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        return super().get_context_data(observation=self.observation(), **kwargs)

    def perform(self, form):
        return services.observation_follow_up(
            observation=self.observation(), actor=self.request.user, text=form.cleaned_data["text"]
        )


class QuestionCreateView(AuthorityForm):
    form_class = forms.QuestionForm
    title = _("Poser une question au registre de liaison")
    intro = _(
        "Demande de précisions sur la réglementation, difficulté d'application, remarque ou question "
        "relative à l'exploitation (art. 92-1)."
    )
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
        return services.liaison_answer(
            question=self.question(), actor=self.request.user, answer=form.cleaned_data["answer"]
        )


class ArchivesView(ListExportMixin, AuthorityForm):
    """REG-43: the archives of closed seasons (ask for one, follow it, download it) and the
    retention term of each register."""

    template_name = "authority/archives.html"
    form_class = forms.ArchiveForm
    success_name = "authority:archives"
    success_message = _("Archive demandée : elle se prépare en arrière-plan.")

    def get_initial(self):
        today = self.establishment.localtime(timezone.now()).date()
        return {"season": period_of(self.establishment, today) - 1}

    def export_lists(self):
        est = self.establishment
        archives = (
            (a.season, a.get_status_display(), a.manifest_sha256, f"{est.localtime(a.created_at):%d/%m/%Y %H:%M}")
            for a in selectors.archives_of(est)
        )
        terms = (
            (str(register), register.get_status_display(), f"{end:%d/%m/%Y}" if end else "")
            for register, end in self.terms()
        )
        return {
            "archives": ([_("Saison"), _("Statut"), _("Empreinte du manifeste"), _("Demandé le")], archives),
            "conservation": ([_("Registre"), _("Statut"), _("Conservé jusqu'au")], terms),
        }

    def terms(self):
        """Each register with the end of its retention."""
        return ((register, retention_end(register)) for register in self.establishment.registers.order_by("number"))

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            archives=selectors.archives_of(self.establishment)[:50],
            terms=list(islice(self.terms(), 200)),
            purge_form=kwargs.pop("purge_form", None) or forms.PurgeForm(),
            **kwargs,
        )

    def perform(self, form):
        return services.archive_request(
            establishment=self.establishment, actor=self.request.user, season=form.cleaned_data["season"]
        )


class PurgeView(ArchivesView):
    form_class = forms.PurgeForm
    success_message = _("Purge autorisée : le propriétaire de la base peut retirer ce registre.")

    def get_context_data(self, **kwargs):
        purge_form = kwargs.pop("form", None) or self.get_form()
        return super().get_context_data(purge_form=purge_form, form=forms.ArchiveForm(), **kwargs)

    def perform(self, form):
        register = get_object_or_404(Register, establishment=self.establishment, number=form.cleaned_data["number"])
        return services.register_purge(register=register, actor=self.request.user)


def archive_file(request, pk: int) -> FileResponse:
    """The archive's zip, for whoever may ask for one (the Direction, the agents vérificateurs)."""
    establishment = request.establishment
    if not request.user.is_authenticated or establishment is None:
        raise Http404
    if not roles_of(request.user, establishment) & set(services.ARCHIVERS):
        raise PermissionDenied(_("Les archives sont remises à la Direction et aux agents vérificateurs."))
    archive = get_object_or_404(selectors.archives_of(establishment), pk=pk, status=SeasonArchive.Status.DONE)
    return FileResponse(
        archive.file.open("rb"),
        as_attachment=True,
        filename=PurePath(archive.file.name).name,
        content_type="application/zip",
    )


STATUS_LABELS = {
    "missing": _("Sans agrément"),
    "not_yet": _("Pas encore en vigueur"),
    "expired": _("Expiré"),
    "expiring": _("Expire bientôt"),
    "valid": _("En vigueur"),
}


class ApprovalsView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """AUTH-06: every approval the apps declare, with its validity; exported as one list whose first
    column names the kind of approval (the page's headings)."""

    template_name = "authority/approvals.html"
    export_name = "agrements"

    def get_queryset(self) -> list[tuple]:
        return selectors.approvals_overview(self.establishment)

    def export_headers(self) -> list:
        return [
            _("Agrément"),
            _("Objet"),
            _("Référence de l'agrément"),
            _("Autorité d'agrément"),
            _("Du"),
            _("Au"),
            _("Statut"),
        ]

    def export_rows(self, overview: list[tuple]):
        for source, rows in overview:
            for approval, status in rows:
                yield (
                    str(source.label),
                    str(approval.subject),
                    approval.reference or "",
                    approval.issuer or "",
                    approval.valid_from,
                    approval.valid_until,
                    str(STATUS_LABELS[status]),
                )

    def get_context_data(self, **kwargs):
        return super().get_context_data(overview=self.get_queryset(), labels=STATUS_LABELS, **kwargs)


class DeclarationsView(TableExportMixin, SingleTableMixin, AuthorityForm):
    """AUTH-01, AUTH-02: the prior declarations, and a new one."""

    template_name = "authority/declarations.html"
    form_class = forms.DeclarationForm
    success_name = "authority:declarations"
    success_message = _("Déclaration préalable inscrite.")
    table_class = DeclarationTable
    table_pagination = {"per_page": 100}
    export_name = "declarations-prealables"

    def get_table_data(self):
        return selectors.declarations_of(self.establishment)

    def get_table_kwargs(self):
        overdue = selectors.declarations_without_follow_up(self.establishment).values_list("pk", flat=True)
        return {"overdue": frozenset(overdue)}

    def get_initial(self):
        return {"recipients": Declaration.Recipient.values}

    def perform(self, form):
        return services.declaration_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


ARRETE_READERS = {*DIRECTORATE, Role.INSPECTEUR, *REGULATOR_ROLES}


class ArretesView(TableExportMixin, SingleTableMixin, AuthorityForm):
    """AUTH-02, AUTH-03: the arrêtés d'autorisation, the one in force first; the directeur
    responsable records one (or its amendment), the Direction, inspecteurs and authorities read them."""

    template_name = "authority/arretes.html"
    form_class = forms.ArreteForm
    success_name = "authority:arretes"
    success_message = _("Arrêté d'autorisation inscrit.")
    table_class = ArreteTable
    table_pagination = {"per_page": 100}
    export_name = "arretes-autorisation"
    page_jurisdiction = "FR"
    page_roles = ARRETE_READERS
    page_requirement = "AUTH-03"

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_table_data(self):
        return selectors.arretes_of(self.establishment)

    def get_context_data(self, **kwargs):
        today = self.establishment.localtime().date()
        return super().get_context_data(
            in_force=selectors.arrete_in_force(self.establishment, today),
            may_record=Role.DIRECTEUR_RESPONSABLE in self.roles,
            reserved=reserved_to((Role.DIRECTEUR_RESPONSABLE,), "AUTH-03", self.establishment),
            **kwargs,
        )

    def perform(self, form):
        return services.arrete_record(
            establishment=self.establishment, actor=self.request.user, **form.service_arguments()
        )


class DeclarationFollowUpView(AuthorityForm):
    form_class = forms.DeclarationFollowUpForm
    title = _("Suite donnée à une déclaration préalable")
    success_name = "authority:declarations"
    success_message = _("Suite inscrite.")

    def perform(self, form):
        declaration = get_object_or_404(Declaration, establishment=self.establishment, pk=self.kwargs["pk"])
        return services.declaration_follow_up(declaration=declaration, actor=self.request.user, **form.cleaned_data)


class CalledBetsView(ListExportMixin, AuthorityForm):
    """GAME-20, REG-18: the complex called bets of the open table-parties, handed in writing;
    exported."""

    template_name = "authority/called_bets.html"
    form_class = forms.CalledBetForm
    success_name = "authority:called_bets"
    success_message = _("Annonce inscrite : elle attend le visa de la direction des jeux.")

    export_name = "annonces"

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_queryset(self):
        return selectors.called_bets_of(self.establishment)

    def export_headers(self) -> list:
        return [_("N°"), _("Table"), _("Annonce"), _("Inspecteur présent"), _("Statut")]

    def export_rows(self, bets):
        for b in bets:
            inspecteur = b.inspecteur.get_full_name() or b.inspecteur.username
            yield (b.number, str(b.table_session.table), b.content, inspecteur, b.get_status_display())

    def get_context_data(self, **kwargs):
        scj_form = forms.CalledBetScjNoticeForm()
        return super().get_context_data(bets=self.get_queryset()[:100], scj_form=scj_form, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return services.called_bet_record(
            session=data["session"],
            actor=self.request.user,
            content=data["content"],
            inspecteur=data["inspecteur"],
            player=data["player"],
        )


class CalledBetVisaView(AuthorityForm):
    form_class = forms.CalledBetVisaForm
    title = _("Viser une annonce complexe")
    success_name = "authority:called_bets"
    success_message = _("Annonce visée : elle est autorisée.")

    def perform(self, form):
        bet = get_object_or_404(selectors.called_bets_of(self.establishment), pk=self.kwargs["pk"])
        return services.called_bet_authorise(bet=bet, actor=self.request.user)


class CalledBetScjNoticeView(AuthorityForm):
    form_class = forms.CalledBetScjNoticeForm
    title = _("Information du SCJ donnée")
    success_name = "authority:called_bets"
    success_message = _("Information du SCJ enregistrée à cette heure.")

    def perform(self, form):
        bet = get_object_or_404(selectors.called_bets_of(self.establishment), pk=self.kwargs["pk"])
        return services.called_bet_scj_notify(bet=bet, actor=self.request.user, **form.cleaned_data)


class HouseRulesView(AuthorityForm):
    """REG-19, GAME-07: the règlement intérieur in force (the version shown to inspectors), its
    versions, and the options in force at each table."""

    template_name = "authority/house_rules.html"
    form_class = forms.HouseRulesForm
    success_name = "authority:house_rules"
    success_message = _("Version du règlement intérieur inscrite.")

    def get_context_data(self, **kwargs):
        est = self.establishment
        option_form = kwargs.pop("option_form", None) or forms.TableOptionForm(establishment=est)
        return super().get_context_data(
            in_force=selectors.house_rules_in_force(est),
            option_form=option_form,
            versions=HouseRulesVersion.objects.filter(establishment=est).order_by("-version")[:20],
            options_labels=dict(HouseOption.choices),
            table_options=selectors.table_options_in_force(est),
            **kwargs,
        )

    def perform(self, form):
        return services.house_rules_publish(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class TableOptionView(HouseRulesView):
    form_class = forms.TableOptionForm
    success_message = _("Option de table enregistrée.")

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_context_data(self, **kwargs):
        option_form = kwargs.pop("form", None) or self.get_form()
        return super().get_context_data(option_form=option_form, form=forms.HouseRulesForm(), **kwargs)

    def perform(self, form):
        return services.table_option_set(actor=self.request.user, **form.cleaned_data)


class DisplaysView(ListExportMixin, AuthorityForm):
    """REG-23, SET-32, SLOT-29 (FR): each table's and slot machine's display checklist, and a line;
    the checklists exported as one list whose first column names the table or machine."""

    template_name = "authority/displays.html"
    form_class = forms.DisplayForm
    success_name = "authority:displays"
    success_message = _("Affichage inscrit.")
    export_name = "affichages"

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_queryset(self):
        if self.establishment.jurisdiction != "FR":
            raise Http404
        return selectors.display_checklists(self.establishment)

    def export_headers(self) -> list:
        return [_("Table ou machine"), _("Affichage"), _("Exigence"), _("Affiché le"), _("Vérifié par")]

    def export_rows(self, checklists):
        for row in checklists:
            for required, line in row["lines"]:
                yield (
                    str(row["subject"]),
                    line.get_item_display() if line else str(required.item),
                    required.code,
                    f"{line.posted_on:%d/%m/%Y}" if line else str(_("manquant")),
                    line.checked_by.get_full_name() if line and line.checked_by else "",
                )

    def get_context_data(self, **kwargs):
        return super().get_context_data(checklists=self.get_queryset(), **kwargs)

    def perform(self, form):
        return services.display_post(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class SplitAcesView(ListExportMixin, AuthorityForm):
    """GAME-04 (MC): the Split Aces progressive: configuration in force and its versions, the
    séance readings (unexplained changes flagged) and the jackpots paid, both exported."""

    template_name = "authority/split_aces.html"
    form_class = forms.ProgressiveConfigForm
    success_name = "authority:split_aces"
    success_message = _("Configuration du progressif inscrite.")

    def export_lists(self):
        est = self.establishment
        if est.jurisdiction != "MC":
            raise Http404
        readings = (
            (str(r.seance), r.get_moment_display(), r.amount, r.stakes, r.unexplained or "")
            for r in selectors.progressive_readings(est)
        )
        payouts = (
            (p.table.number, f"{est.localtime(p.paid_at):%d/%m/%Y %H:%M}", p.amount, p.winner)
            for p in selectors.progressive_payouts(est)
        )
        return {
            "releves-progressif": (
                [
                    _("Séance"),
                    _("Moment"),
                    _("Montant du progressif"),
                    _("Mises Split Aces de la séance"),
                    _("Écart inexpliqué"),
                ],
                readings,
            ),
            "jackpots-payes": ([_("Table"), _("Payé le"), _("Montant"), _("Gagnant")], payouts),
        }

    def get_context_data(self, **kwargs):
        est = self.establishment
        if est.jurisdiction != "MC":
            raise Http404
        reading_form = kwargs.pop("reading_form", None) or forms.ProgressiveReadingForm(establishment=est)
        payout_form = kwargs.pop("payout_form", None) or forms.ProgressivePayoutForm(establishment=est)
        return super().get_context_data(
            in_force=selectors.progressive_in_force(est),
            reading_form=reading_form,
            payout_form=payout_form,
            versions=ProgressiveConfig.objects.filter(establishment=est).order_by("-version")[:20],
            readings=selectors.progressive_readings(est)[:40],
            payouts=selectors.progressive_payouts(est)[:40],
            **kwargs,
        )

    def perform(self, form):
        return services.progressive_configure(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class ProgressiveReadingView(SplitAcesView):
    form_class = forms.ProgressiveReadingForm
    success_message = _("Relevé du progressif inscrit.")
    form_key = "reading_form"

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_context_data(self, **kwargs):
        kwargs[self.form_key] = kwargs.pop("form", None) or self.get_form()
        return super().get_context_data(form=forms.ProgressiveConfigForm(), **kwargs)

    def perform(self, form):
        return services.progressive_read(actor=self.request.user, **form.cleaned_data)


class ProgressivePayoutView(ProgressiveReadingView):
    form_class = forms.ProgressivePayoutForm
    success_message = _("Jackpot payé inscrit.")
    form_key = "payout_form"

    def perform(self, form):
        return services.progressive_payout(actor=self.request.user, **form.cleaned_data)


class BankersView(TableExportMixin, SingleTableMixin, AuthorityForm):
    """GAME-31 (MC): the register of the bankers approved for banque à tout va."""

    template_name = "authority/bankers.html"
    form_class = forms.BankerApproveForm
    success_name = "authority:bankers"
    success_message = _("Banquier agréé inscrit.")
    table_class = BankerTable
    table_pagination = {"per_page": 200}
    export_name = "banquiers-agrees"

    def get_table_data(self):
        return selectors.bankers_of(self.establishment)

    def get_context_data(self, **kwargs):
        if self.establishment.jurisdiction != "MC":
            raise Http404
        return super().get_context_data(**kwargs)

    def perform(self, form):
        return services.banker_approve(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class BankerWithdrawView(AuthorityForm):
    form_class = forms.BankerWithdrawForm
    title = _("Retirer l'agrément d'un banquier")
    success_name = "authority:bankers"
    success_message = _("Retrait de l'agrément inscrit.")

    def perform(self, form):
        banker = get_object_or_404(selectors.bankers_of(self.establishment), pk=self.kwargs["pk"])
        return services.banker_withdraw(banker=banker, actor=self.request.user, **form.cleaned_data)
