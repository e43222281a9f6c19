"""Pages of one's own password: the change from the profile (current one required), the choice by
a link mailed to oneself (an invitation; a reset asked for through Django's own views), and the
directorate's invitation and provisional password on the staff page."""

from django import forms
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.urls import reverse, reverse_lazy
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from . import passwords
from .authz import locked_out, secret_refused
from .service_views import ServiceFormView
from .staff_forms import InviteForm, ProvisionalPasswordForm
from .staff_views import StaffActView


class PasswordChangeForm(forms.Form):
    old_password = forms.CharField(
        label=_("Mot de passe actuel"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    new_password = forms.CharField(
        label=_("Nouveau mot de passe"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    repeated_password = forms.CharField(
        label=_("Nouveau mot de passe, à nouveau"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("new_password") and data.get("new_password") != data.get("repeated_password"):
            self.add_error("repeated_password", _("Les deux nouveaux mots de passe diffèrent."))
        return data


class PasswordChangeView(LoginRequiredMixin, ServiceFormView):
    """The person changes their own password; an account whose password someone else set, or that
    has none of its own yet, is held here after sign-in until it is done."""

    template_name = "core/password_change.html"
    form_class = PasswordChangeForm
    success_message = _("Mot de passe changé. Vous seul le connaissez.")
    errors_on_fields = True

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            must_set=bool(self.request.session.get(passwords.MUST_SET_PASSWORD)),
            next=self.request.GET.get("next", ""),
            **kwargs,
        )

    def perform(self, form):
        user = passwords.password_change(
            user=self.request.user,
            old_password=form.cleaned_data["old_password"],
            new_password=form.cleaned_data["new_password"],
            request=self.request,
        )
        update_session_auth_hash(self.request, user)  # this session stays signed in
        self.request.session.pop(passwords.MUST_SET_PASSWORD, None)
        return user

    def get_success_url(self) -> str:
        target = self.request.GET.get("next", "")
        if target and url_has_allowed_host_and_scheme(target, {self.request.get_host()}, self.request.is_secure()):
            return target
        return reverse("profile")


class LinkPasswordView(auth_views.PasswordResetConfirmView):
    """Choose one's password through a link mailed to oneself: Django's reset page, the password
    set through our service (its line written). A spent or expired link says so and changes
    nothing."""

    template_name = "core/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def dispatch(self, *args, **kwargs):
        """A link whose token is wrong or spent counts as a failed sign-in of the account it names
        (django-axes); once that account is locked out at this address, no link of it is read."""
        user = self.get_user(kwargs["uidb64"])
        if user is not None and locked_out(self.request, user.get_username()):
            raise PermissionDenied(_("Trop d'essais infructueux : réessayez plus tard."))
        response = super().dispatch(*args, **kwargs)
        if user is not None and not self.validlink:
            secret_refused(self.request, user.get_username())
        return response

    def form_valid(self, form):
        try:
            passwords.password_set_by_link(user=self.user, new_password=form.cleaned_data["new_password1"])
        except ValidationError as exc:
            form.add_error(None, exc.messages)
            return self.form_invalid(form)
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())


class InvitationView(LinkPasswordView):
    token_generator = passwords.invitation_tokens
    reset_url_token = "choisir"

    def get_context_data(self, **kwargs):
        return super().get_context_data(invitation=True, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's own: the link mailed to the address of the account (nothing said of whether it
    exists)."""

    template_name = "core/password_reset_form.html"
    email_template_name = "core/password_reset_email.txt"
    subject_template_name = "core/password_reset_subject.txt"


class InviteView(StaffActView):
    form_class = InviteForm

    def get_success_message(self) -> str:
        return _(
            "Invitation envoyée, valable jusqu'au %(until)s ; elle est inscrite au registre des habilitations."
        ) % {"until": date_format(self.result, "SHORT_DATETIME_FORMAT")}

    def perform(self, form):
        return passwords.account_invite(
            establishment=self.establishment, user=form.cleaned_data["person"], actor=self.request.user
        )


class ProvisionalPasswordView(StaffActView):
    form_class = ProvisionalPasswordForm
    success_message = _("Mot de passe provisoire donné ; son titulaire le remplacera à sa prochaine connexion.")

    def perform(self, form):
        data = form.cleaned_data
        return passwords.account_password_provisional(
            establishment=self.establishment, user=data["person"], password=data["password"], actor=self.request.user
        )
