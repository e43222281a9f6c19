from django.http import HttpRequest

from ledgers.core.context_processors import once_per_request

from . import selectors


@once_per_request
def notices(request: HttpRequest) -> dict:
    """The menu's link to the notifications, for whoever receives notices, with the number still
    to acknowledge (selectors.notices_menu)."""
    if not request.user.is_authenticated:
        return {}
    return {"notices_menu": selectors.notices_menu(request.user, getattr(request, "establishment", None))}
