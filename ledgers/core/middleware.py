from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

from .selectors import current_establishment


class EstablishmentMiddleware:
    """``request.establishment``: the establishment the user works in (chosen in the session)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.establishment = SimpleLazyObject(lambda: current_establishment(request))
        return self.get_response(request)
