"""The directorate's staff pages: the people of the establishment with their roles, an account
created, a role granted or revoked, an account deactivated; and the roles' history ("who held
this role on that day", "which roles did this person hold, when")."""

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from . import accounts
from .accounts import HISTORY_READERS
from .exports import ListExportMixin
from .models import Membership, StaffAccount
from .roles import DIRECTORATE
from .selectors import role_holders, roles_held_by, staff_of
from .service_views import EstablishmentRequiredMixin, ServiceFormView
from .staff_forms import (
    AccountCreateForm,
    DeactivateForm,
    HistoryForm,
    InviteForm,
    ProvisionalPasswordForm,
    RoleGrantForm,
    RoleRevokeForm,
)
from .templatetags.ledgers import person


def moment(value) -> str:
    return date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT") if value else ""


class StaffView(EstablishmentRequiredMixin, ListExportMixin, ServiceFormView):
    """The people of the establishment with the roles they hold, and the directorate's acts on
    them; this view creates an account, its subclasses do the other acts."""

    template_name = "core/staff.html"
    form_class = AccountCreateForm
    success_message = _("Compte créé et inscrit au registre des habilitations.")
    page_roles = DIRECTORATE
    export_name = "personnel"
    form_names = {
        AccountCreateForm: "create_form",
        RoleGrantForm: "grant_form",
        RoleRevokeForm: "revoke_form",
        DeactivateForm: "deactivate_form",
        InviteForm: "invite_form",
        ProvisionalPasswordForm: "provisional_form",
    }

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def people(self) -> list[dict]:
        """Each person with the roles held here now, whether they still have to choose their own
        password, and whether they may sign in."""
        est = self.establishment
        held: dict[int, list[str]] = {}
        for user_id, role in Membership.objects.filter(establishment=est).values_list("user_id", "role"):
            held.setdefault(user_id, []).append(str(Membership(role=role).get_role_display()))
        pending = set(StaffAccount.objects.filter(must_set_password=True).values_list("user_id", flat=True))
        return [
            {
                "user": user,
                "roles": sorted(held.get(user.pk, [])),
                "password_pending": user.pk in pending,
            }
            for user in staff_of(est)
        ]

    def export_headers(self) -> list:
        return [_("Nom"), _("Identifiant"), _("Adresse électronique"), _("Rôles"), _("Compte actif")]

    def export_lists(self):
        rows = (
            (
                row["user"].get_full_name(),
                row["user"].get_username(),
                row["user"].email,
                ", ".join(row["roles"]),
                str(_("oui") if row["user"].is_active else _("non")),
            )
            for row in self.people()
        )
        return {self.export_name: (self.export_headers(), rows)}

    def get_context_data(self, **kwargs):
        acting = kwargs.pop("form", None)
        forms = {
            name: acting if type(acting) is form_class else form_class(establishment=self.establishment)
            for form_class, name in self.form_names.items()
        }
        return super().get_context_data(people=self.people(), form=acting, **forms, **kwargs)

    def perform(self, form):
        data = form.cleaned_data
        return accounts.account_create(
            establishment=self.establishment,
            username=data["username"],
            first_name=data["first_name"],
            last_name=data["last_name"],
            email=data["email"],
            roles=data["roles"],
            actor=self.request.user,
        )

    def get_success_url(self) -> str:
        return reverse("staff")


class StaffActView(StaffView):
    """An act posted from the staff page; a GET shows the page."""

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return HttpResponseRedirect(reverse("staff"))


class RoleGrantView(StaffActView):
    form_class = RoleGrantForm
    success_message = _("Rôle attribué et inscrit au registre des habilitations.")

    def perform(self, form):
        data = form.cleaned_data
        return accounts.role_grant(
            establishment=self.establishment, user=data["person"], role=data["role"], actor=self.request.user
        )


class RoleRevokeView(StaffActView):
    form_class = RoleRevokeForm
    success_message = _("Rôle retiré et inscrit au registre des habilitations.")

    def perform(self, form):
        data = form.cleaned_data
        return accounts.role_revoke(
            establishment=self.establishment,
            user=data["person"],
            role=data["role"],
            reason=data["reason"],
            actor=self.request.user,
        )


class DeactivateView(StaffActView):
    form_class = DeactivateForm
    success_message = _("Compte désactivé ; ses rôles retirés sont inscrits au registre des habilitations.")

    def perform(self, form):
        data = form.cleaned_data
        return accounts.account_deactivate(
            establishment=self.establishment, user=data["person"], reason=data["reason"], actor=self.request.user
        )


class RoleHistoryView(EstablishmentRequiredMixin, ListExportMixin, TemplateView):
    """Who held a role on a day, and which roles a person held and when, read from the periods
    of the roles (granted, revoked: never edited)."""

    template_name = "core/staff_history.html"
    page_roles = HISTORY_READERS

    def form(self) -> HistoryForm:
        return HistoryForm(self.request.GET or None, establishment=self.establishment)

    def periods(self, form: HistoryForm):
        if not form.is_valid():
            return None
        data = form.cleaned_data
        if data.get("person"):
            return roles_held_by(self.establishment, data["person"])
        return role_holders(self.establishment, data["role"], data["day"])

    def export_headers(self) -> list:
        return [_("Personne"), _("Rôle"), _("Depuis le"), _("Jusqu'au"), _("Attribué par"), _("Retiré par"), _("Motif")]

    def export_lists(self):
        periods = self.periods(self.form()) or []
        rows = (
            (
                person(p.user),
                str(p.get_role_display()),
                moment(p.valid_from),
                moment(p.valid_until),
                person(p.granted_by) if p.granted_by else str(_("système")),
                (person(p.ended_by) if p.ended_by else str(_("système"))) if p.valid_until else "",
                p.end_reason,
            )
            for p in periods
        )
        return {"habilitations": (self.export_headers(), rows)}

    def get_context_data(self, **kwargs):
        form = self.form()
        return super().get_context_data(form=form, periods=self.periods(form), **kwargs)
