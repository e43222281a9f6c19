from django.http import HttpRequest

from ledgers.core.authz import roles_of
from ledgers.core.context_processors import once_per_request

from .navigation import menu_for


@once_per_request
def menu(request: HttpRequest) -> dict:
    """The menu of the user's roles in the current establishment (navigation.py)."""
    est = getattr(request, "establishment", None)
    if not est or not request.user.is_authenticated:  # a lazy object: test its truth, not identity
        return {"my_menu": []}
    return {"my_menu": menu_for(roles_of(request.user, est), est.jurisdiction)}
