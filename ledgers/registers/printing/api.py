"""API of the printed volumes (REG-21): a register's print history and the authority's paraphe
of a volume. Under ``/api/v1/registers/<number>/volumes/``."""

from django.urls import path
from rest_framework import generics, serializers

from ledgers.core.api.actions import ServiceAction, Signature
from ledgers.registers.selectors import register_for

from . import services
from .models import VolumeParaphe, VolumePrint


class VolumePrintSerializer(serializers.ModelSerializer):
    printed_by = serializers.StringRelatedField()

    class Meta:
        model = VolumePrint
        fields = ["volume", "last_seq", "lang", "pages", "duplicate", "digest", "printed_by", "printed_at"]


class VolumeParapheSerializer(serializers.ModelSerializer):
    authority = serializers.StringRelatedField()

    class Meta:
        model = VolumeParaphe
        fields = ["volume", "last_seq", "lang", "pages", "page_digests", "authority", "role", "paraphe", "paraphed_at"]
        read_only_fields = ["volume", "last_seq", "lang", "pages", "page_digests", "authority", "role", "paraphed_at"]


class ParapheRequestSerializer(Signature):
    """The authority's paraphe, signed as a visa is (password, authenticator code, passkey)."""

    paraphe = serializers.CharField(max_length=20)


class VolumePrintList(generics.ListAPIView):
    """Every print of the register's volumes, originals and duplicates, oldest first."""

    serializer_class = VolumePrintSerializer
    ordering = ("printed_at", "pk")

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no register in the URL
            return VolumePrint.objects.none()
        register = register_for(self.request.user, self.kwargs["register_number"])
        return register.volumeprints.select_related("printed_by")


class VolumeParapheList(generics.ListAPIView):
    """The paraphes of the register's volumes; POST to ``<volume>/paraphe/`` to paraphe one."""

    serializer_class = VolumeParapheSerializer
    ordering = "volume"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return VolumeParaphe.objects.none()
        register = register_for(self.request.user, self.kwargs["register_number"])
        return register.volumeparaphes.select_related("authority")


class VolumeParapheCreate(ServiceAction):
    """The authority paraphs a volume whose pages are all written: its page count and pages
    are frozen (REG-21), and a line of the register of authorisations in their name, signed with
    their passkey when they have one, names the digest of each page."""

    input_serializer, output_serializer = ParapheRequestSerializer, VolumeParapheSerializer

    def perform(self, data, register_number: str, volume: int):
        return services.volume_paraphe(
            register=register_for(self.request.user, register_number),
            volume=volume,
            actor=self.request.user,
            paraphe=data["paraphe"],
            passkey=self.passkey,
        )


urlpatterns = [
    path("registers/<str:register_number>/volumes/prints/", VolumePrintList.as_view(), name="api-volume-prints"),
    path("registers/<str:register_number>/volumes/paraphes/", VolumeParapheList.as_view(), name="api-volume-paraphes"),
    path(
        "registers/<str:register_number>/volumes/<int:volume>/paraphe/",
        VolumeParapheCreate.as_view(),
        name="api-volume-paraphe",
    ),
]
