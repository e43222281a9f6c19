"""The establishment's rooms and gaming tables, read through the API (filter by room, game,
number, in service)."""

from rest_framework import serializers

from ledgers.core.models import GamingTable, Room

from .scoping import EstablishmentReadOnlyViewSet


class RoomSerializer(serializers.ModelSerializer):
    class Meta:
        model = Room
        fields = ("id", "code", "name")


class GamingTableSerializer(serializers.ModelSerializer):
    class Meta:
        model = GamingTable
        fields = ("id", "room", "number", "game", "seats", "super_prive", "active")


class RoomViewSet(EstablishmentReadOnlyViewSet):
    """The rooms of the establishment."""

    queryset = Room.objects.all()
    serializer_class = RoomSerializer
    filterset_fields = ("code",)


class GamingTableViewSet(EstablishmentReadOnlyViewSet):
    """The gaming tables of the establishment (filter by room, game, number, in service)."""

    queryset = GamingTable.objects.all()
    serializer_class = GamingTableSerializer
    filterset_fields = ("room", "game", "number", "active")
