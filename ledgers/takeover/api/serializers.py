from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ledgers.core.api.actions import Signature

from ..domains import domain_choices
from ..models import Inventory


class TakeoverInventorySerializer(serializers.ModelSerializer):
    class Meta:
        model = Inventory
        fields = (
            "id",
            "domain",
            "paper_register",
            "rows",
            "status",
            "prepared_by",
            "prepared_at",
            "signed_by",
            "signed_role",
            "signed_at",
            "visa_by",
            "visa_role",
            "visa_at",
            "visa_statement",
            "posted_by",
            "posted_at",
            "objects_created",
        )
        read_only_fields = fields


class TakeoverProblemSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text=_("Numéro de la ligne (1 : la première sous l'en-tête)."))
    field = serializers.CharField(help_text=_("Colonne en cause."))
    message = serializers.CharField()
    code = serializers.CharField(help_text=_("Identifiant de l'exigence qui refuse, le cas échéant."))


class TakeoverPreviewSerializer(serializers.Serializer):
    problems = TakeoverProblemSerializer(many=True)


class TakeoverInventoryInput(serializers.Serializer):
    """The lines as JSON objects (``rows``, keyed by the domain's column codes), or a CSV or XLSX
    sheet (``spreadsheet``, multipart) whose first line names the columns."""

    domain = serializers.ChoiceField(choices=())
    paper_register = serializers.CharField(max_length=200, required=False, default="")
    rows = serializers.ListField(
        child=serializers.DictField(child=serializers.CharField(allow_blank=True)), required=False, default=list
    )
    spreadsheet = serializers.FileField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["domain"].choices = domain_choices()


class TakeoverVisaInput(Signature):
    statement = serializers.CharField(max_length=300, required=False, default="Vu")
