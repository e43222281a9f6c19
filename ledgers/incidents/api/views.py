"""Incident API: list and read, record a notice, the Direction's decision, the closing."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import services
from ..models import Incident
from .serializers import DecisionInput, IncidentSerializer, NoticeInput, NoticeSerializer


class ByFoundAt(CursorPagination):
    ordering = "-found_at"


class IncidentsMixin:
    def incidents(self):
        est = self.request.establishment
        if est is None:
            raise Http404
        return (
            Incident.objects.filter(establishment=est)
            .select_related("establishment")
            .prefetch_related("notices", "subjects__content_type")
        )

    def incident(self) -> Incident:
        return get_object_or_404(self.incidents(), pk=self.kwargs["pk"])


class IncidentList(IncidentsMixin, generics.ListAPIView):
    queryset = Incident.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = IncidentSerializer
    pagination_class = ByFoundAt
    filterset_fields = ["status", "category", "requirement"]

    def get_queryset(self):
        return self.incidents()


class IncidentDetail(IncidentsMixin, generics.RetrieveAPIView):
    queryset = Incident.objects.none()
    serializer_class = IncidentSerializer

    def get_queryset(self):
        return self.incidents()


def _call(fn, **kwargs):
    try:
        return fn(**kwargs)
    except ValueError as exc:
        raise ValidationError({"detail": str(exc)}) from exc


class IncidentNotify(IncidentsMixin, APIView):
    @extend_schema(request=NoticeInput, responses={201: NoticeSerializer})
    def post(self, request, pk):
        data = NoticeInput(data=request.data)
        data.is_valid(raise_exception=True)
        notice = _call(services.incident_notify, incident=self.incident(), actor=request.user, **data.validated_data)
        return Response(NoticeSerializer(notice).data, status=status.HTTP_201_CREATED)


class IncidentDecide(IncidentsMixin, APIView):
    @extend_schema(request=DecisionInput, responses={201: IncidentSerializer})
    def post(self, request, pk):
        data = DecisionInput(data=request.data)
        data.is_valid(raise_exception=True)
        incident = _call(
            services.incident_decide,
            incident=self.incident(),
            actor=request.user,
            decision=data.validated_data["decision"],
        )
        return Response(IncidentSerializer(incident).data, status=status.HTTP_201_CREATED)


class IncidentClose(IncidentsMixin, APIView):
    @extend_schema(request=None, responses={201: IncidentSerializer})
    def post(self, request, pk):
        incident = _call(services.incident_close, incident=self.incident(), actor=request.user)
        return Response(IncidentSerializer(incident).data, status=status.HTTP_201_CREATED)
