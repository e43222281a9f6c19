from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest

from .authz import roles_of
from .roles import Role
from .selectors import my_establishments

ContextProcessor = Callable[[HttpRequest], dict]


def once_per_request(processor: ContextProcessor) -> ContextProcessor:
    """A context processor that runs once per request: a page that renders a second template with
    the request (django-tables2's ``render_table``) would otherwise read it all again."""
    memo = f"_context_{processor.__module__}.{processor.__qualname__}"

    @wraps(processor)
    def once(request: HttpRequest) -> dict:
        if memo not in request.__dict__:
            request.__dict__[memo] = processor(request)
        return request.__dict__[memo]

    return once


@once_per_request
def establishment(request: HttpRequest) -> dict:
    est = getattr(request, "establishment", None)
    if not est or not request.user.is_authenticated:  # a lazy object: test its truth, not identity
        return {"establishment": None, "my_roles": [], "my_establishments": []}
    roles = roles_of(request.user, est)
    return {
        "establishment": est,
        "my_roles": [Role(r) for r in sorted(roles)],
        "my_establishments": my_establishments(request),
    }
