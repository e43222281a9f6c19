from django.http import HttpRequest

from .authz import roles_of
from .roles import Role
from .selectors import establishments_for


def establishment(request: HttpRequest) -> dict:
    est = getattr(request, "establishment", None)
    if not est or not request.user.is_authenticated:  # a lazy object: test its truth, not identity
        return {"establishment": None, "my_roles": [], "my_establishments": []}
    roles = roles_of(request.user, est)
    return {
        "establishment": est,
        "my_roles": [Role(r) for r in sorted(roles)],
        "my_establishments": establishments_for(request.user),  # lazy: the switcher evaluates it
    }
