import zoneinfo

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
