from decimal import Decimal

from rest_framework import serializers

from ledgers.core.api.fields import DateField, DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.games import GAME_CHOICES

from ..models import (
    AccessLog,
    ApprovedBanker,
    Arrete,
    ArreteGame,
    CalledBet,
    Declaration,
    DisplayItem,
    HouseOption,
    HouseRulesVersion,
    LiaisonQuestion,
    Observation,
    ProgressiveConfig,
    ProgressivePayout,
    ProgressiveReading,
    PurgeClearance,
    RulesDisplay,
    SeasonArchive,
    TableOptionChange,
)


class ObservationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Observation
        fields = (
            "id",
            "number",
            "visited_at",
            "agents",
            "operations",
            "nature",
            "text",
            "entry_seq",
            "due_on",
            "follow_up",
            "follow_up_at",
            "follow_up_seq",
        )


class ObservationInput(serializers.Serializer):
    visited_at = DateTimeField()
    agents = serializers.CharField(max_length=300)
    operations = serializers.CharField()
    nature = serializers.ChoiceField(choices=Observation.Nature.choices)
    text = serializers.CharField(required=False, allow_blank=True, default="")


class FollowUpInput(serializers.Serializer):
    text = serializers.CharField()


class LiaisonSerializer(serializers.ModelSerializer):
    class Meta:
        model = LiaisonQuestion
        fields = (
            "id",
            "number",
            "subject",
            "question",
            "asked_at",
            "question_seq",
            "answer",
            "answered_at",
            "answer_seq",
        )


class QuestionInput(serializers.Serializer):
    subject = serializers.CharField(max_length=250)
    question = serializers.CharField()


class AnswerInput(serializers.Serializer):
    answer = serializers.CharField()


class AccessLogSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")

    class Meta:
        model = AccessLog
        fields = ("id", "at", "user", "roles", "action", "target", "path")


class ArchiveSerializer(serializers.ModelSerializer):
    class Meta:
        model = SeasonArchive
        fields = ("id", "season", "status", "manifest_sha256", "registers", "error", "created_at", "finished_at")


class ArchiveInput(serializers.Serializer):
    season = serializers.IntegerField(min_value=2000, max_value=2100)


class PurgeInput(serializers.Serializer):
    register = serializers.CharField(max_length=60)


class PurgeClearanceSerializer(serializers.ModelSerializer):
    register = serializers.CharField(source="register.number")

    class Meta:
        model = PurgeClearance
        fields = ("id", "register", "archive", "retention_end", "cleared_at")


class DeclarationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Declaration
        fields = (
            "id",
            "number",
            "operation",
            "details",
            "sent_on",
            "recipients",
            "proof",
            "implementation_date",
            "tournament_until",
            "entry_seq",
            "follow_up",
            "follow_up_note",
        )


class DeclarationInput(serializers.Serializer):
    operation = serializers.ChoiceField(choices=Declaration.Operation.choices)
    details = serializers.CharField()
    sent_on = DateField()
    recipients = serializers.ListField(child=serializers.ChoiceField(choices=Declaration.Recipient.choices))
    proof = serializers.CharField(max_length=250)
    implementation_date = DateField()
    tournament_until = DateField(required=False, allow_null=True, default=None)


class DeclarationFollowUpInput(serializers.Serializer):
    follow_up = serializers.ChoiceField(choices=Declaration.FollowUp.choices[1:])
    note = serializers.CharField(required=False, allow_blank=True, default="")


class ArreteGameSerializer(serializers.ModelSerializer):
    class Meta:
        model = ArreteGame
        fields = ("game", "tables", "minimum_stake")


class ArreteSerializer(serializers.ModelSerializer):
    games = ArreteGameSerializer(many=True, read_only=True)
    follows = serializers.IntegerField(source="follows.number", allow_null=True, default=None, read_only=True)

    class Meta:
        model = Arrete
        fields = (
            "id",
            "number",
            "reference",
            "signed_on",
            "effective_from",
            "total_tables",
            "games",
            "follows",
            "recorded_at",
            "entry_seq",
        )


class ArreteGameInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    tables = serializers.IntegerField(min_value=1)
    minimum_stake = serializers.DecimalField(
        max_digits=10, decimal_places=2, min_value=Decimal("0.01"), required=False, allow_null=True, default=None
    )


class ArreteInput(serializers.Serializer):
    reference = serializers.CharField(max_length=250)
    signed_on = DateField()
    effective_from = DateField()
    total_tables = serializers.IntegerField(min_value=1)
    games = ArreteGameInput(many=True)
    follows = EstablishmentPK(
        queryset=Declaration.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="id de la déclaration préalable que l'arrêté suit (AUTH-02)",
    )


class CalledBetSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table_session.table.number")

    class Meta:
        model = CalledBet
        fields = (
            "id",
            "number",
            "table_session",
            "table",
            "content",
            "player",
            "inspecteur",
            "handed_at",
            "status",
            "visaed_at",
            "scj_informed_at",
            "scj_channel",
            "entry_seq",
        )


class CalledBetInput(serializers.Serializer):
    table_session = serializers.IntegerField()
    content = serializers.CharField()
    inspecteur = serializers.IntegerField()
    player = serializers.CharField(required=False, allow_blank=True, default="")


class CalledBetVisaInput(serializers.Serializer):
    """The visa takes nothing typed: the SCJ's information is its own act (CalledBetScjNoticeInput)."""


class CalledBetScjNoticeInput(serializers.Serializer):
    """The SCJ's information is recorded at the time it is given (the request's)."""

    channel = serializers.CharField(max_length=100)


class HouseRulesSerializer(serializers.ModelSerializer):
    class Meta:
        model = HouseRulesVersion
        fields = ("id", "version", "effective_from", "reference", "options", "recorded_at", "entry_seq")


class HouseRulesInput(serializers.Serializer):
    effective_from = DateField()
    reference = serializers.CharField(max_length=250)
    # codes of the house_option choices (the service refuses unknown ones)
    options = serializers.ListField(child=serializers.CharField(max_length=20), default=list)


class TableOptionSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.number")
    house_option = serializers.ChoiceField(source="option", choices=HouseOption.choices)

    class Meta:
        model = TableOptionChange
        fields = ("id", "table", "house_option", "enabled", "rules", "changed_at")


class TableOptionInput(serializers.Serializer):
    table = serializers.CharField(max_length=20, help_text="numéro de la table")
    house_option = serializers.ChoiceField(choices=HouseOption.choices)
    enabled = serializers.BooleanField()


class RulesDisplaySerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.number", allow_null=True, default=None)
    machine = serializers.CharField(source="machine.number", allow_null=True, default=None)

    class Meta:
        model = RulesDisplay
        fields = ("id", "table", "machine", "item", "posted_on", "checked_by", "recorded_at", "entry_seq")


class RulesDisplayInput(serializers.Serializer):
    table = serializers.CharField(
        max_length=20, required=False, allow_blank=True, default="", help_text="numéro de la table"
    )
    machine = serializers.CharField(
        max_length=30, required=False, allow_blank=True, default="", help_text="numéro casino de la machine"
    )
    item = serializers.ChoiceField(choices=DisplayItem.choices)
    posted_on = DateField()


class ProgressiveConfigSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProgressiveConfig
        fields = (
            "id",
            "version",
            "effective_from",
            "combinations",
            "stake",
            "percentage",
            "tables",
            "approved_by",
            "recorded_at",
            "entry_seq",
        )


class ProgressiveConfigInput(serializers.Serializer):
    effective_from = DateField(required=False, allow_null=True, default=None)
    combinations = serializers.CharField(max_length=5000)
    stake = serializers.DecimalField(max_digits=10, decimal_places=2, min_value=Decimal("0.01"))
    percentage = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=Decimal("0.01"), max_value=Decimal("100")
    )
    tables = serializers.ListField(child=serializers.CharField(max_length=20), max_length=100)


class ProgressiveReadingSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProgressiveReading
        fields = ("id", "seance", "moment", "amount", "stakes", "config", "unexplained", "recorded_at", "entry_seq")


class ProgressiveReadingInput(serializers.Serializer):
    seance = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    moment = serializers.ChoiceField(choices=ProgressiveReading.Moment.choices)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=Decimal("0"))
    stakes = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=Decimal("0"), required=False, allow_null=True, default=None
    )


class ProgressivePayoutSerializer(serializers.ModelSerializer):
    table = serializers.CharField(source="table.number")

    class Meta:
        model = ProgressivePayout
        fields = ("id", "seance", "table", "paid_at", "amount", "winner", "entry_seq")


class ProgressivePayoutInput(serializers.Serializer):
    seance = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    table = serializers.CharField(max_length=20, help_text="numéro de la table")
    paid_at = DateTimeField(required=False, allow_null=True, default=None)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=Decimal("0.01"))
    winner = serializers.CharField(max_length=200)


class ApprovedBankerSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApprovedBanker
        fields = (
            "id",
            "number",
            "full_name",
            "birth_date",
            "identity_document",
            "approved_on",
            "approved_by",
            "withdrawn_on",
            "entry_seq",
        )


class BankerApproveInput(serializers.Serializer):
    full_name = serializers.CharField(max_length=200)
    birth_date = DateField()
    identity_document = serializers.CharField(max_length=200)
    approved_on = DateField()


class BankerWithdrawInput(serializers.Serializer):
    on = DateField()
