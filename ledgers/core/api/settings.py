"""The establishment's settings through the API: GET lists them with their values in force, POST
changes one (``establishment_setting_change``), written in the main courante."""

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.establishment_settings import SETTINGS, Setting, settings_of
from ledgers.core.models import Establishment
from ledgers.core.services import establishment_setting_change

from .actions import ServiceAction


class SettingSerializer(serializers.Serializer):
    """A setting and its value in force in the establishment of the context."""

    code = serializers.CharField()
    label = serializers.CharField()
    value = serializers.SerializerMethodField(help_text=_("La valeur en vigueur (celle de la juridiction à défaut)."))
    text = serializers.SerializerMethodField(help_text=_("La valeur en clair."))
    act = serializers.CharField(help_text=_("L'acte qui fixe ce réglage, quand ce n'est pas cette opération."))

    def get_value(self, setting: Setting) -> Any:
        return self.context["establishment"].setting(setting.code)

    def get_text(self, setting: Setting) -> str:
        establishment = self.context["establishment"]
        return setting.describe(establishment.setting(setting.code), establishment)


class SettingChangeInput(serializers.Serializer):
    code = serializers.ChoiceField(choices=sorted(SETTINGS))
    value = serializers.JSONField(
        allow_null=True,
        help_text=_("La nouvelle valeur, de la forme du réglage (null : la valeur de la juridiction)."),
    )


class SettingList(ServiceAction):
    """GET: the settings the establishment's jurisdiction reads, with their values in force. POST:
    its director changes one; the change is a line of the main courante."""

    input_serializer = SettingChangeInput
    output_serializer = SettingSerializer
    queryset = Establishment.objects.none()  # no object in the URL: the caller's establishment

    @extend_schema(responses=SettingSerializer(many=True))
    def get(self, request: Request) -> Response:
        context = {**self.get_serializer_context(), "establishment": self.establishment}
        return Response(SettingSerializer(settings_of(self.establishment), many=True, context=context).data)

    def perform(self, data: dict[str, Any], **kwargs) -> Establishment:
        self.code = data["code"]
        return establishment_setting_change(
            establishment=self.establishment, code=data["code"], value=data["value"], actor=self.request.user
        )

    def output(self, result: Establishment) -> Any:
        context = {**self.get_serializer_context(), "establishment": result}
        return SettingSerializer(SETTINGS[self.code], context=context).data
