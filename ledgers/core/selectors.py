from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Establishment

SESSION_KEY = "establishment_id"


def establishments_for(user: AbstractBaseUser) -> QuerySet[Establishment]:
    if not user.is_authenticated:
        return Establishment.objects.none()
    return Establishment.objects.filter(memberships__user=user).distinct()


def current_establishment(request: HttpRequest) -> Establishment | None:
    mine = establishments_for(request.user)
    chosen = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if chosen is not None:
        found = mine.filter(pk=chosen).first()
        if found is not None:
            return found
    return mine.first()
