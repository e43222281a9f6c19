"""At sign-in, an account whose password is still to be chosen by its owner (a provisional one
given by the directorate, or none yet) is noted in the session; ``OwnPasswordMiddleware`` then
holds it on the page where its owner chooses their own."""

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest

from .models import StaffAccount

# The session key that keeps a signed-in person on the page where they choose their password.
MUST_SET_PASSWORD = "must_set_password"


def note_password_to_set(sender, request: HttpRequest, user: AbstractBaseUser, **kwargs) -> None:
    """At sign-in (Django's ``user_logged_in``): an account whose password is still to be chosen by
    its owner is held on the page where they choose it (``OwnPasswordMiddleware``)."""
    if request is not None and hasattr(request, "session"):
        if StaffAccount.objects.filter(user=user, must_set_password=True).exists():
            request.session[MUST_SET_PASSWORD] = True
        else:
            request.session.pop(MUST_SET_PASSWORD, None)
