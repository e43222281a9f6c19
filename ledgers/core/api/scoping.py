"""The caller's establishment, found one way for every endpoint, and what is in it."""

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import mixins, serializers, viewsets

from ledgers.core.models import Establishment
from ledgers.core.selectors import current_establishment, establishments_for

ESTABLISHMENT = OpenApiParameter(
    "establishment",
    str,
    description="Code de l'établissement (par défaut : celui choisi dans la session, sinon le premier).",
)


class EstablishmentScoped:
    """``self.establishment``: the one named by ``?establishment=<code>`` among the caller's (404
    for another), else the one chosen in the session, else their first (403 when they have none).

    ``get_queryset`` keeps the objects of ``queryset`` whose ``scope`` (the path from the object
    to its establishment) is that establishment, so that reading, and acting on, an object of
    another establishment is a 404; views whose selector scopes already override
    ``scoped_queryset``. Serializers get the establishment in their context."""

    scope = "establishment"

    @cached_property
    def establishment(self) -> Establishment:
        code = self.request.query_params.get("establishment")
        if code:
            return get_object_or_404(establishments_for(self.request.user), code=code)
        establishment = current_establishment(self.request)
        if establishment is None:
            raise PermissionDenied(_("Vous n'êtes affecté à aucun établissement."))
        return establishment

    def scoped_queryset(self) -> QuerySet:
        return self.queryset.filter(**{self.scope: self.establishment})

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no caller, no establishment
            return self.queryset.none()
        return self.scoped_queryset()

    def get_serializer_context(self) -> dict:
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False):
            context["establishment"] = self.establishment
        return context


class EstablishmentPK(serializers.PrimaryKeyRelatedField):
    """A primary key among the objects of ``queryset`` that belong to the caller's establishment
    (``context["establishment"]``); ``path`` leads from the object to its establishment."""

    def __init__(self, queryset, path: str = "establishment", **kwargs) -> None:
        self.path = path
        super().__init__(queryset=queryset, **kwargs)

    def get_queryset(self):
        return super().get_queryset().filter(**{self.path: self.context["establishment"]})


class EstablishmentReadOnlyViewSet(
    EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """List and read the objects of the caller's establishment."""


class EstablishmentList(mixins.ListModelMixin):
    """GET beside an act's POST: the objects of the caller's establishment (``queryset`` through
    ``scope``), a cursor page, filtered by ``filterset_fields``."""

    def get(self, request, *args, **kwargs):
        return self.list(request, *args, **kwargs)
