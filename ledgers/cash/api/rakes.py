"""The rake of each pot of a poker table-partie: POST records a pot (COUNT-18, COUNT-19), GET
lists the pots of the establishment (filter by table-partie)."""

from rest_framework import serializers

from ledgers.core.api.actions import service_action
from ledgers.core.api.scoping import EstablishmentReadOnlyViewSet

from ..models import PotRake
from ..services import pot_rake_record
from .serializers.common import session_field


class PotRakeInput(serializers.Serializer):
    table_session = session_field()
    pot = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    cave = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=0, required=False, help_text="Au premier pot de la partie."
    )
    taken = serializers.DecimalField(
        max_digits=14,
        decimal_places=2,
        min_value=0,
        required=False,
        help_text="La retenue opérée, si elle diffère de la retenue due.",
    )


class PotRakeSerializer(serializers.ModelSerializer):
    class Meta:
        model = PotRake
        fields = (
            "id",
            "table_session",
            "number",
            "taken_at",
            "pot",
            "cave",
            "rate_percent",
            "allowed",
            "taken",
            "gain",
            "flags",
            "taken_by",
        )


def _pot_rake(request, est, data):
    """A pot of a poker table-partie and the rake taken into the table's cagnotte (COUNT-18, COUNT-19)."""
    return pot_rake_record(session=data.pop("table_session"), actor=request.user, **data)


PotRakeCreateView = service_action("PotRakeCreateView", PotRakeInput, PotRakeSerializer, _pot_rake)


class PotRakeViewSet(EstablishmentReadOnlyViewSet):
    """The pots recorded at the poker tables, newest first (filter by table-partie, table number)."""

    queryset = PotRake.objects.select_related("table_session")
    serializer_class = PotRakeSerializer
    scope = "table_session__seance__establishment"
    filterset_fields = {"table_session": ["exact"], "table_session__table__number": ["exact"]}
