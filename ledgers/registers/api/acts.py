"""The acts on a register through the API, as on its pages: create a register, cote and paraph it,
write a main courante fact, correct an entry, close the register. Each calls its service; a
refusal answers 409 with the rule's code and article."""

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from ledgers.core.api.actions import ServiceAction, Signature
from ledgers.core.api.fields import DateTimeField

from .. import services
from ..kinds import kind_choices
from ..models import Register
from ..opening import State, registers_to_open
from ..selectors import entry_for, register_for
from .serializers import EntrySerializer, RegisterSerializer


class RegisterCreateInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=())
    qualifier = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
    title = serializers.CharField(required=False, allow_blank=True, default="", max_length=250)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kind_choices()


class RegisterOpenInput(Signature):
    paraphe = serializers.CharField(max_length=20)
    statement = serializers.CharField(required=False, allow_blank=True, default="")


class KindVisaInput(Signature):
    kind = serializers.ChoiceField(choices=(), help_text=_("Nature des registres visés ensemble."))
    up_to = serializers.DictField(
        child=serializers.IntegerField(min_value=1),
        help_text=_("Pour chaque volume (son numéro), la dernière entrée que son visa couvre."),
    )
    statement = serializers.CharField(required=False, allow_blank=True, default="")
    passkeys = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        default=dict,
        help_text=_("Pour chaque volume (son numéro), l'assertion de clé d'accès qui signe son visa."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kind_choices()


class MainCouranteInput(serializers.Serializer):
    event_at = DateTimeField()
    subject = serializers.CharField(max_length=200)
    text = serializers.CharField()


class CorrectionInput(serializers.Serializer):
    reason = serializers.CharField()
    approval = serializers.CharField()
    payload = serializers.DictField(help_text="Les valeurs corrigées des colonnes du registre.")


class RegisterCloseInput(serializers.Serializer):
    statement = serializers.CharField(required=False, allow_blank=True, default="")


class RegisterCreateView(ServiceAction):
    """Create a register of the establishment; it waits for its cote et paraphe."""

    input_serializer, output_serializer = RegisterCreateInput, RegisterSerializer

    def perform(self, data):
        return services.register_create(establishment=self.establishment, actor=self.request.user, **data)


class RegisterOpenView(ServiceAction):
    """The authority cotes and paraphs the register: its opening act (REG-01, REG-26), signed as a
    visa is (password, authenticator code, passkey)."""

    input_serializer, output_serializer = RegisterOpenInput, EntrySerializer

    def perform(self, data, register_number):
        register = register_for(self.request.user, register_number)
        return services.register_open(register=register, actor=self.request.user, passkey=self.passkey, **data)


class KindVisaView(ServiceAction):
    """The authority's visa of every volume of one kind in one act (REG-04, REG-22), as on the
    grouped home: each volume's visa its own entry, each signed with its own passkey assertion."""

    input_serializer, output_serializer, many = KindVisaInput, EntrySerializer, True

    def perform(self, data):
        return services.visa_sign_kind(
            establishment=self.establishment,
            kind=data["kind"],
            actor=self.request.user,
            up_to=data["up_to"],
            statement=data["statement"],
            passkeys=data["passkeys"],
        )


class MainCouranteView(ServiceAction):
    """A fact written in a main courante."""

    input_serializer, output_serializer = MainCouranteInput, EntrySerializer

    def perform(self, data, register_number):
        return services.main_courante_record(
            register=register_for(self.request.user, register_number),
            actor=self.request.user,
            subject=data["subject"],
            text=data["text"],
            event_at=timezone.localtime(data["event_at"]).strftime(services.EVENT_AT_FORMAT),
        )


class CorrectionView(ServiceAction):
    """A counter-entry correcting an entry, with its reason and its approval in words (REG-27)."""

    input_serializer, output_serializer = CorrectionInput, EntrySerializer

    def perform(self, data, register_number, seq):
        entry = entry_for(register_for(self.request.user, register_number), seq)
        return services.entry_correct(entry=entry, actor=self.request.user, **data)


class RegisterCloseView(ServiceAction):
    """The closing act: the register takes no entry after it."""

    input_serializer, output_serializer = RegisterCloseInput, EntrySerializer

    def perform(self, data, register_number):
        register = register_for(self.request.user, register_number)
        return services.register_close(register=register, actor=self.request.user, statement=data["statement"])


class RegisterWithdrawInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class RegisterToOpenSerializer(serializers.Serializer):
    """A volume the house must have open before its first séance, and its state."""

    kind = serializers.CharField(source="need.kind")
    kind_title = serializers.CharField(source="title")
    qualifier = serializers.CharField(source="need.qualifier")
    qualifier_label = serializers.CharField()
    table = serializers.CharField()
    authority = serializers.CharField(help_text="Qui le cote et le paraphe ici.")
    requirement = serializers.CharField()
    state = serializers.ChoiceField(choices=State.choices)
    register = serializers.CharField(source="number", help_text="Le volume ouvert ou en attente (vide : à créer).")


class RegistersToOpenView(ServiceAction):
    """GET: the registers the house must have open before its first séance, each with its state (to
    create, awaiting its cote et paraphe, open). POST: the directorate creates every missing volume
    in one act; each awaits its authority's cote et paraphe."""

    serializer_class = RegisterToOpenSerializer
    output_serializer = RegisterSerializer
    many = True
    queryset = Register.objects.none()  # what the schema reads the model from; the list is computed

    @extend_schema(responses=RegisterToOpenSerializer(many=True))
    def get(self, request):
        rows = registers_to_open(self.establishment)
        return Response(RegisterToOpenSerializer(rows, many=True).data)

    def perform(self, data):
        return services.registers_to_open_create(establishment=self.establishment, actor=self.request.user)


class RegisterWithdrawView(ServiceAction):
    """Withdraw a volume created by mistake, before its cote et paraphe: it stays, "withdrawn"."""

    input_serializer, output_serializer = RegisterWithdrawInput, RegisterSerializer

    def perform(self, data, register_number):
        register = register_for(self.request.user, register_number)
        return services.register_withdraw(register=register, actor=self.request.user, reason=data["reason"])
