import zoneinfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from .selectors import current_establishment


class EstablishmentMiddleware:
    """``request.establishment``: the establishment the user works in (chosen in the session);
    pages show times on that establishment's clock."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.establishment = SimpleLazyObject(lambda: current_establishment(request))
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
