import re
import zoneinfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from rest_framework.permissions import SAFE_METHODS

from .authz import roles_remembered
from .selectors import current_establishment
from .signin import MUST_SET_PASSWORD


class EstablishmentMiddleware:
    """``request.establishment``: the establishment the user works in (chosen in the session);
    pages show times on that establishment's clock. A read-only request reads the user's roles
    once per establishment (the menu, the panels and the page's own checks all ask): it changes
    no membership."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.establishment = SimpleLazyObject(lambda: current_establishment(request))
        if request.method in SAFE_METHODS:
            with roles_remembered(request.user):  # the establishments' read remembers the roles too
                return self._in_establishment(request)
        return self._in_establishment(request)

    def _in_establishment(self, request: HttpRequest) -> HttpResponse:
        establishment = request.establishment if request.user.is_authenticated else None
        if establishment:
            timezone.activate(zoneinfo.ZoneInfo(establishment.timezone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def client_ip(request: HttpRequest) -> str | None:
    """The client's address (django-axes locks by it). Behind ``TRUSTED_PROXY_COUNT`` reverse
    proxies, each appending the address it received from to X-Forwarded-For, it is the
    N-th address from the right: what stands to its left was written by the client and is not
    trusted. Without proxies the header is ignored."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")


# A NUL in a form body (percent-encoded) or a JSON body (an unescaped \u0000 escape).
_NUL_IN_BODY = {
    "application/x-www-form-urlencoded": re.compile(rb"%00"),
    "application/json": re.compile(rb"(?<!\\)(?:\\\\)*\\u0000"),
}


class NulByteMiddleware:
    """Refuse (400) a request with a NUL character in its path, query string, or form or JSON
    body: no text column of PostgreSQL can store or compare one, so a lookup with it (a code, a
    serial number) would fail deep in a view, a 500. In a multipart body only the text fields are
    read (Django parses them once; DRF reuses that parse), never the uploaded files."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            message = str(_("Caractère nul (0x00) refusé dans la requête."))
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=400)
            return HttpResponseBadRequest(message)
        return self.get_response(request)


def _nul_in(data: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in v for v in data.getlist(key)) for key in data)


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path or _nul_in(request.GET):
        return True
    if request.content_type == "multipart/form-data":
        return _nul_in(request.POST)
    pattern = _NUL_IN_BODY.get(request.content_type)
    return pattern is not None and (b"\x00" in request.body or pattern.search(request.body) is not None)


class OwnPasswordMiddleware:
    """A person signed in with a password someone else set, or none of their own yet
    (``passwords.MUST_SET_PASSWORD``, noted at sign-in), can do nothing but choose their own: every
    page leads to that one (the API answers 403), signing out and the static files aside."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None and session.get(MUST_SET_PASSWORD) and request.user.is_authenticated:
            allowed = (reverse("password-change"), reverse("logout"), reverse("staff-password"), "/i18n/")
            if not request.path.startswith((*allowed, "/" + settings.STATIC_URL.lstrip("/"))):
                message = str(_("Choisissez d'abord votre propre mot de passe."))
                if request.path.startswith("/api/"):
                    return JsonResponse({"detail": message}, status=403)
                return redirect(f"{reverse('password-change')}?next={request.path}")
        return self.get_response(request)
