"""Pages of the organisation: dashboard, establishment switcher, establishment page, history, and the
séances with their table-parties."""

from django.apps import apps
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import yesno
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from . import hooks
from .authz import roles_of
from .charts import chart_month, charts_for
from .dashboard import home_reads, main_acts_for, panels_for
from .errors import RuleViolation
from .establishment_settings import Setting, changeable, settings_of
from .exports import ListExportMixin, TableExportMixin
from .forms import GamingTableChangeForm, GamingTableForm, SeanceOpenForm, SettingForm, TablePrepareForm
from .games import GAMES, Equipment
from .models import Establishment, Seance, SeancePeriod, TableSession
from .roles import DIRECTORATE, REGULATOR_ROLES
from .seances import checklist
from .selectors import SESSION_KEY, establishment_of, establishments_for, history_of, seances_of
from .service_views import EstablishmentRequiredMixin, ServiceFormView
from .services import (
    SEANCE_MANAGERS,
    SETTING_CHANGERS,
    TABLE_MANAGERS,
    establishment_setting_change,
    gaming_table_change,
    gaming_table_create,
    seance_close,
    seance_open,
    table_session_close,
    table_session_open,
    table_session_prepare,
)
from .tables import SeanceTable
from .templatetags.ledgers import human, person


class EstablishmentMixin(LoginRequiredMixin):
    """Pages about the establishment the user works in: 404 when the user belongs to none."""

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            if not request.establishment:  # lazy: None inside when the user belongs nowhere
                raise Http404(_("Vous n'êtes affecté à aucun établissement."))
            self.establishment = request.establishment
        return super().dispatch(request, *args, **kwargs)


class DashboardView(LoginRequiredMixin, TemplateView):
    """The user's work; an administrator signing in while no establishment exists is led to create
    the first one."""

    template_name = "core/dashboard.html"

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_superuser and not request.establishment and not Establishment.objects.exists():
            return HttpResponseRedirect(reverse("establishment-create"))
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.request.establishment
        with home_reads():  # the panels and the acts share what they both read
            context["panels"] = panels_for(self.request, est) if est else []
            context["acts"] = main_acts_for(self.request, est) if est else []
        return context


class EstablishmentSwitchView(LoginRequiredMixin, View):
    """Choose the establishment to work in, among the user's own (POST)."""

    def post(self, request: HttpRequest) -> HttpResponse:
        chosen = get_object_or_404(establishments_for(request.user), pk=request.POST.get("establishment"))
        request.session[SESSION_KEY] = chosen.pk
        messages.info(request, _("Vous travaillez maintenant pour %(name)s.") % {"name": chosen.name})
        target = request.POST.get("next", "/")
        if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
            target = "/"
        return HttpResponseRedirect(target)


class EstablishmentView(EstablishmentMixin, ListExportMixin, TemplateView):
    """The establishment's rooms, gaming tables and places, each list exported."""

    template_name = "core/establishment.html"

    def lists(self) -> dict:
        est: Establishment = self.establishment
        return {
            "rooms": est.rooms.all(),
            "tables": est.tables.select_related("room"),
            "locations": est.locations.select_related("room", "responsible"),
        }

    def export_lists(self):
        lists = self.lists()
        tables = ((t.number, t.get_game_display(), str(t.room), t.seats, str(yesno(t.active))) for t in lists["tables"])
        locations = (
            (
                loc.code,
                loc.name,
                loc.get_kind_display(),
                str(loc.room or ""),
                loc.responsible.get_full_name() if loc.responsible else "",
            )
            for loc in lists["locations"]
        )
        return {
            "salles": ([_("Code"), _("Nom")], ((room.code, room.name) for room in lists["rooms"])),
            "tables-de-jeu": ([_("Numéro"), _("Jeu"), _("Salle"), _("Places"), _("En service")], tables),
            "emplacements": ([_("Code"), _("Nom"), _("Type"), _("Salle"), _("Responsable")], locations),
        }

    def get_context_data(self, **kwargs):
        may_set_up = bool(roles_of(self.request.user, self.establishment) & set(DIRECTORATE))
        return super().get_context_data(**self.lists(), may_set_up_tables=may_set_up, **kwargs)


class EstablishmentSettingsView(EstablishmentMixin, ListExportMixin, TemplateView):
    """The establishment's settings with their values in force, exported; its director changes those
    that no act of their own sets."""

    template_name = "core/establishment_settings.html"

    def rows(self) -> list[dict]:
        est = self.establishment
        return [
            {"setting": setting, "value": setting.describe(est.setting(setting.code), est)}
            for setting in settings_of(est)
        ]

    def export_lists(self):
        rows = (
            (row["setting"].code, row["setting"].label, human(row["value"]), row["setting"].act) for row in self.rows()
        )
        return {"reglages": ([_("Code"), _("Intitulé"), _("Valeur en vigueur"), _("Fixé par")], rows)}

    def get_context_data(self, **kwargs):
        est = self.establishment
        may_change = bool(roles_of(self.request.user, est) & set(SETTING_CHANGERS[est.jurisdiction]))
        return super().get_context_data(rows=self.rows(), may_change=may_change, **kwargs)


class EstablishmentSettingView(EstablishmentRequiredMixin, ServiceFormView):
    """One setting changed by the establishment's director: written in the main courante."""

    form_class = SettingForm
    template_name = "core/establishment_setting.html"
    success_message = _("Réglage modifié et inscrit à la main courante.")

    @cached_property
    def setting(self) -> Setting:
        try:
            return changeable(self.establishment, self.kwargs["code"])
        except ValidationError as exc:
            raise Http404(exc.messages[0]) from exc

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "setting": self.setting, "establishment": self.establishment}

    def get_context_data(self, **kwargs):
        return super().get_context_data(setting=self.setting, **kwargs)

    def perform(self, form):
        return establishment_setting_change(
            establishment=self.establishment, code=self.setting.code, value=form.value(), actor=self.request.user
        )

    def get_success_url(self) -> str:
        return reverse("establishment-settings")


class ObjectHistoryView(LoginRequiredMixin, ListExportMixin, TemplateView):
    """The simple-history records of any tracked object of ours, for users of its establishment;
    exported."""

    template_name = "core/history.html"

    def get_object(self):
        try:
            model = apps.get_model(self.kwargs["app_label"], self.kwargs["model_name"])
        except LookupError as exc:
            raise Http404 from exc
        if not model.__module__.startswith("ledgers.") or not hasattr(model, "history"):
            raise Http404
        obj = get_object_or_404(model, pk=self.kwargs["pk"])
        est = establishment_of(obj)
        if est is None or not establishments_for(self.request.user).filter(pk=est.pk).exists():
            raise Http404
        return obj

    def export_lists(self):
        obj = self.get_object()
        operations = {"+": _("Création"), "-": _("Suppression")}

        def changes(row) -> str:
            return " ; ".join(
                f"{str(c.field).capitalize()} : "
                + ("" if row.record.history_type == "+" else f"{human(c.old)} → ")
                + str(human(c.new))
                for c in row.changes
            )

        rows = (
            (
                f"{timezone.localtime(row.record.history_date):%d/%m/%Y %H:%M:%S}",
                person(row.record.history_user) if row.record.history_user else str(_("système")),
                str(operations.get(row.record.history_type, _("Modification"))),
                row.record.history_change_reason or "",
                changes(row),
            )
            for row in history_of(obj)
        )
        headers = [_("Date"), _("Par"), _("Opération"), _("Motif"), _("Modifications")]
        return {f"historique-{obj._meta.model_name}-{obj.pk}": (headers, rows)}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        obj = self.get_object()
        context.update(object=obj, verbose_name=obj._meta.verbose_name, rows=history_of(obj))
        return context


# --- Séances and table-parties ------------------------------------------------------------------


def refusal(exc: Exception) -> tuple[dict, int]:
    """The context and status of a refused act: a rule (409), a role (403), bad input (400)."""
    if isinstance(exc, RuleViolation):
        return {"violation": exc}, 409
    if isinstance(exc, PermissionDenied):
        return {"denied": str(exc)}, 403
    return {"denied": " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)}, 400


class GamingTablesView(EstablishmentRequiredMixin, ServiceFormView):
    """The establishment's gaming tables, set up by the directorate: a table added, or given another
    game, or put in or out of service, each through its service (which the texts of the
    jurisdiction may refuse: FR, the arrêté d'autorisation and the prior declarations)."""

    template_name = "core/gaming_tables.html"
    form_class = GamingTableForm
    success_message = _("Table mise en service.")
    page_roles = DIRECTORATE

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_context_data(self, **kwargs):
        est = self.establishment
        change_form = kwargs.pop("change_form", None) or GamingTableChangeForm(establishment=est)
        return super().get_context_data(
            tables=est.tables.select_related("room").order_by("number"), change_form=change_form, **kwargs
        )

    def perform(self, form):
        return gaming_table_create(actor=self.request.user, **form.cleaned_data)

    def get_success_url(self) -> str:
        return reverse("gaming-tables")


class GamingTableChangeView(GamingTablesView):
    form_class = GamingTableChangeForm
    success_message = _("Table changée.")

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return HttpResponseRedirect(reverse("gaming-tables"))

    def get_context_data(self, **kwargs):
        change_form = kwargs.pop("form", None) or self.get_form()
        return super().get_context_data(
            change_form=change_form, form=GamingTableForm(establishment=self.establishment), **kwargs
        )

    def perform(self, form):
        return gaming_table_change(actor=self.request.user, **form.service_arguments())


REFUSALS = (RuleViolation, PermissionDenied, ValidationError, ValueError)


class SeanceListView(EstablishmentRequiredMixin, TableExportMixin, SingleTableMixin, ServiceFormView):
    """The séances of the establishment, and the form the Direction and inspecteurs open one with."""

    template_name = "core/seances.html"
    form_class = SeanceOpenForm
    success_message = _("Séance ouverte.")
    table_class = SeanceTable
    table_pagination = {"per_page": 60}
    export_name = "seances"

    def get_table_data(self):
        return seances_of(self.establishment)

    def get_initial(self):
        return {"date": timezone.localdate(), "period": SeancePeriod.SOIREE}

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            can_manage=bool(set(self.roles) & set(SEANCE_MANAGERS)),
            **kwargs,
        )

    def perform(self, form):
        return seance_open(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)

    def get_success_url(self) -> str:
        return reverse("seance", kwargs={"pk": self.result.pk})


class SeanceView(EstablishmentRequiredMixin, TemplateView):
    """One séance: its table-parties (prepare, open, close), what is still missing before it can
    close (REG-25, with the requirement and where to do it), the closing button, the report."""

    template_name = "core/seance.html"

    def get_context_data(self, **kwargs):
        seance = get_object_or_404(seances_of(self.establishment), pk=self.kwargs["pk"])
        sessions = seance.table_sessions.select_related("table__room").order_by("table__number")
        is_open = seance.status == Seance.Status.OPEN
        missing, flags = [], []
        if is_open:
            with hooks.seances_read_together([seance]):  # what it lacks and what it flags read the same facts
                missing, flags = hooks.seance_missing(seance), hooks.seance_flags(seance)
        return super().get_context_data(
            seance=seance,
            sessions=sessions,
            missing=missing,
            flags=flags,
            checklist=checklist(self.establishment.jurisdiction),
            prepare_form=TablePrepareForm(seance=seance) if is_open else None,
            can_manage=bool(set(self.roles) & set(SEANCE_MANAGERS)),
            can_run_tables=bool(set(self.roles) & set(TABLE_MANAGERS)),
            **kwargs,
        )


class SeanceActView(EstablishmentRequiredMixin, View):
    """A POST that calls one service on the séance; a refusal shows the séance page again with it."""

    page = SeanceView

    def act(self, request: HttpRequest, seance: Seance) -> None:
        raise NotImplementedError

    def target(self, seance: Seance) -> str:
        return reverse("seance", kwargs={"pk": seance.pk})

    def seance_pk(self, **kwargs) -> int:
        return kwargs["pk"]

    def post(self, request: HttpRequest, **kwargs) -> HttpResponse:
        seance = get_object_or_404(seances_of(self.establishment), pk=self.seance_pk(**kwargs))
        try:
            self.act(request, seance)
        except REFUSALS as exc:
            context, status = refusal(exc)
            view = self.page(request=request, kwargs=kwargs, establishment=self.establishment, roles=self.roles)
            return view.render_to_response(view.get_context_data(**context), status=status)
        return HttpResponseRedirect(self.target(seance))


class SeanceCloseView(SeanceActView):
    def act(self, request: HttpRequest, seance: Seance) -> None:
        seance_close(seance=seance, actor=request.user)
        messages.success(request, _("Séance clôturée."))


class TablePrepareView(SeanceActView):
    def act(self, request: HttpRequest, seance: Seance) -> None:
        form = TablePrepareForm(request.POST, seance=seance)
        if not form.is_valid():
            raise ValidationError(form.errors["table"])
        self.session = table_session_prepare(seance=seance, table=form.cleaned_data["table"], actor=request.user)

    def target(self, seance: Seance) -> str:
        return reverse("seance-table", kwargs={"pk": self.session.pk})


def domain_links(session: TableSession) -> list[tuple[str, str]]:
    """Where the table's equipment is handled: each domain's page for this table-partie."""
    equipment = GAMES[session.table.game].equipment
    links = []
    if Equipment.CARDS in equipment:
        links.append((_("Cartes"), reverse("cards:day")))
    if Equipment.DICE in equipment:
        links.append((_("Dés"), reverse("dice:session", kwargs={"pk": session.pk})))
    # Sabots, shufflers, wheels and lids: the table's equipment page.
    links.append((_("Matériel"), reverse("equipment:table", kwargs={"pk": session.table_id})))
    return links


class TableSessionView(EstablishmentRequiredMixin, TemplateView):
    """One table-partie: its state, the domains' pages, the sections other apps add (staffing,
    limits), and what its end still waits for."""

    template_name = "core/table_session.html"

    def get_context_data(self, **kwargs):
        session = get_object_or_404(
            TableSession.objects.select_related("seance__establishment", "table__room"),
            pk=self.kwargs["pk"],
            seance__establishment=self.establishment,
        )
        return super().get_context_data(
            session=session,
            links=domain_links(session),
            panels=hooks.table_page_panels(self.request, session),
            refusals=hooks.closing_refusals(session) if session.status != TableSession.Status.CLOSED else [],
            opening_gaps=hooks.opening_gaps(session) if session.status == TableSession.Status.PREPARING else [],
            opening_refusals=hooks.opening_refusals(session) if session.status == TableSession.Status.PREPARING else [],
            can_run_tables=bool(set(self.roles) & set(TABLE_MANAGERS)),
            **kwargs,
        )


class TableSessionActView(SeanceActView):
    """Open or close one table-partie (core services; the domains' hooks may refuse)."""

    page = TableSessionView
    action = ""

    def seance_pk(self, **kwargs) -> int:
        self.session = get_object_or_404(TableSession, pk=kwargs["pk"], seance__establishment=self.establishment)
        return self.session.seance_id

    def act(self, request: HttpRequest, seance: Seance) -> None:
        if self.action == "open":
            hooks.opening_confirmation(self.session, confirmed=bool(request.POST.get("confirm_missing")))
            table_session_open(session=self.session, actor=request.user)
            messages.success(request, _("Table %(t)s ouverte.") % {"t": self.session.table.number})
        else:
            table_session_close(session=self.session, actor=request.user)
            messages.success(request, _("Fin de partie de la table %(t)s inscrite.") % {"t": self.session.table.number})

    def target(self, seance: Seance) -> str:
        return reverse("seance-table", kwargs={"pk": self.session.pk})


class ChartsView(EstablishmentRequiredMixin, TemplateView):
    """The directorate's and the regulator's pictures of the month, each with its table of numbers
    (exported as CSV or XLSX under it)."""

    template_name = "core/charts.html"

    @property
    def page_roles(self):
        return (*DIRECTORATE, *REGULATOR_ROLES)

    def get_context_data(self, **kwargs):
        month = chart_month(self.request.GET.get("mois"), self.establishment)
        return super().get_context_data(month=month, charts=charts_for(self.establishment, month), **kwargs)
