"""The user's own page: who they are here, their API token (create, see its expiry, revoke), their
authenticator application (enrol with a QR code drawn here, confirm with a code, withdraw) and
their passkeys (register from the browser, revoke)."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views import View
from django.views.generic import TemplateView
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from ledgers.signatures.models import Passkey

from . import authenticators
from .authentication import token_expires_at
from .roles import DIRECTORATE
from .service_views import EstablishmentRequiredMixin


class ProfileView(LoginRequiredMixin, TemplateView):
    template_name = "core/profile.html"

    def get_context_data(self, **kwargs):
        user = self.request.user
        token = Token.objects.filter(user=user).first()
        expires = token_expires_at(token) if token else None
        devices = list(TOTPDevice.objects.filter(user=user).order_by("pk"))
        pending = next((d for d in devices if not d.confirmed), None)
        return super().get_context_data(
            token=token,
            expires=expires,
            expired=bool(expires and expires <= timezone.now()),
            # The key is shown once, right after it is created.
            new_key=self.request.session.pop("new_api_token", None),
            totp_devices=[d for d in devices if d.confirmed],
            totp_pending=pending,
            totp_qr=authenticators.totp_qr_svg(pending) if pending else "",
            passkeys=Passkey.objects.filter(user=user, revoked_at=None),
            **kwargs,
        )

    def post(self, request: HttpRequest) -> HttpResponse:
        with transaction.atomic():
            Token.objects.filter(user=request.user).delete()
            if request.POST.get("action") == "create":
                request.session["new_api_token"] = Token.objects.create(user=request.user).key
                messages.success(request, _("Nouveau jeton créé : copiez-le maintenant, il ne sera plus affiché."))
            else:
                messages.success(request, _("Jeton révoqué : il ne donne plus accès à l'API."))
        return redirect("profile")


class AuthenticatorActView(LoginRequiredMixin, View):
    """A POST on one's authenticators, back to the profile with what happened (or why not)."""

    success_message = ""

    def act(self, request: HttpRequest, establishment, **kwargs) -> None:
        raise NotImplementedError

    def post(self, request: HttpRequest, **kwargs) -> HttpResponse:
        establishment = request.establishment
        if establishment is None:
            raise Http404(_("Vous n'êtes affecté à aucun établissement."))
        try:
            self.act(request, establishment, **kwargs)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        except PermissionDenied as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, self.success_message)
        return redirect(request.POST.get("next") if request.POST.get("next", "").startswith("/") else "profile")


class TotpStartView(AuthenticatorActView):
    success_message = _("Scannez le QR code avec votre application, puis saisissez le code qu'elle affiche.")

    def act(self, request, establishment):
        authenticators.totp_enrol_start(user=request.user)


class TotpConfirmView(AuthenticatorActView):
    success_message = _("Authentificateur enrôlé : son code vous sera demandé à chaque signature.")

    def act(self, request, establishment):
        device = get_object_or_404(TOTPDevice, user=request.user, confirmed=False)
        authenticators.totp_confirm_throttled(
            request, device=device, token=request.POST.get("token", ""), establishment=establishment
        )


class TotpRevokeView(AuthenticatorActView):
    success_message = _("Authentificateur retiré.")

    def act(self, request, establishment, pk):
        device = get_object_or_404(
            TOTPDevice.objects.filter(user__in=authenticators.people_here(establishment))
            | TOTPDevice.objects.filter(user=request.user),
            pk=pk,
        )
        authenticators.totp_revoke(device=device, actor=request.user, establishment=establishment)


class PasskeyRevokeView(AuthenticatorActView):
    success_message = _("Clé d'accès révoquée : elle ne signe plus aucun acte.")

    def act(self, request, establishment, pk):
        passkey = get_object_or_404(
            Passkey.objects.filter(user__in=authenticators.people_here(establishment))
            | Passkey.objects.filter(user=request.user),
            pk=pk,
        )
        authenticators.passkey_revoke(passkey=passkey, actor=request.user, establishment=establishment)


class StaffAuthenticatorsView(EstablishmentRequiredMixin, TemplateView):
    """The directorate's view of who here has which authenticator, to withdraw a lost one."""

    template_name = "core/staff_authenticators.html"
    page_roles = DIRECTORATE

    def get_context_data(self, **kwargs):
        people = authenticators.people_here(self.establishment).order_by("last_name", "first_name", "username")
        devices, passkeys = {}, {}
        for device in TOTPDevice.objects.filter(user__in=people, confirmed=True):
            devices.setdefault(device.user_id, []).append(device)
        for passkey in Passkey.objects.filter(user__in=people, revoked_at=None):
            passkeys.setdefault(passkey.user_id, []).append(passkey)
        rows = [
            {"person": person, "devices": devices.get(person.pk, []), "passkeys": passkeys.get(person.pk, [])}
            for person in people
        ]
        return super().get_context_data(rows=rows, **kwargs)
