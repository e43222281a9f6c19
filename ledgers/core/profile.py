"""The user's own page: who they are here, and their API token (create, see its expiry, revoke)."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from rest_framework.authtoken.models import Token

from .authentication import token_expires_at


class ProfileView(LoginRequiredMixin, TemplateView):
    template_name = "core/profile.html"

    def get_context_data(self, **kwargs):
        token = Token.objects.filter(user=self.request.user).first()
        expires = token_expires_at(token) if token else None
        return super().get_context_data(
            token=token,
            expires=expires,
            expired=bool(expires and expires <= timezone.now()),
            # The key is shown once, right after it is created.
            new_key=self.request.session.pop("new_api_token", None),
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
