"""The caller's authenticators through the API, as on their profile page: a TOTP device (enrol,
confirm with a code, withdraw) and passkeys (creation options, registration, revocation). The
directorate withdraws a lost one of someone in its establishment the same way (by its id)."""

from django.shortcuts import get_object_or_404
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework import serializers, status

from ledgers.signatures.models import Passkey

from .. import authenticators
from .actions import NoInput, ServiceAction


class TotpSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    confirmed = serializers.BooleanField()
    config_url = serializers.SerializerMethodField(help_text="otpauth:// : la clé, à montrer une seule fois.")
    qr_svg = serializers.SerializerMethodField(help_text="La même clé en QR code (SVG).")

    def get_config_url(self, device) -> str:
        return "" if device.confirmed else device.config_url

    def get_qr_svg(self, device) -> str:
        return "" if device.confirmed else authenticators.totp_qr_svg(device)


class RevokedSerializer(serializers.Serializer):
    id = serializers.IntegerField()


class TotpConfirmInput(serializers.Serializer):
    token = serializers.CharField(max_length=16, write_only=True)


class PasskeySerializer(serializers.ModelSerializer):
    class Meta:
        model = Passkey
        fields = ["id", "name", "credential_id", "public_key", "algorithm", "rp_id", "created_at", "revoked_at"]


class PasskeyOptionsSerializer(serializers.Serializer):
    options = serializers.JSONField(help_text="PublicKeyCredentialCreationOptions (JSON, base64url).")
    state = serializers.CharField(help_text="À renvoyer avec la clé créée.")


class PasskeyRegisterInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    credential = serializers.JSONField(help_text="Le PublicKeyCredential rendu par navigator.credentials.create().")
    state = serializers.CharField()


class TotpStartView(ServiceAction):
    """Enrol a new authenticator application: its key (otpauth URL and QR code), unconfirmed."""

    output_serializer = TotpSerializer

    def perform(self, data):
        return authenticators.totp_enrol_start(user=self.request.user)


class TotpConfirmView(ServiceAction):
    """Confirm the new authenticator with a code it shows (under the login throttle)."""

    input_serializer, output_serializer = TotpConfirmInput, TotpSerializer
    answer = status.HTTP_200_OK

    def perform(self, data):
        device = get_object_or_404(TOTPDevice, user=self.request.user, confirmed=False)
        return authenticators.totp_confirm_throttled(
            self.request._request, device=device, token=data["token"], establishment=self.establishment
        )


class TotpRevokeView(ServiceAction):
    """Withdraw an authenticator: one's own, or a lost one of someone here (the directorate)."""

    input_serializer, output_serializer = NoInput, RevokedSerializer
    answer = status.HTTP_200_OK

    def perform(self, data, pk):
        device = get_object_or_404(
            TOTPDevice.objects.filter(user__in=authenticators.people_here(self.establishment))
            | TOTPDevice.objects.filter(user=self.request.user),
            pk=pk,
        )
        authenticators.totp_revoke(device=device, actor=self.request.user, establishment=self.establishment)
        return {"id": pk}


class PasskeyOptionsView(ServiceAction):
    """The creation options of a new passkey of the caller, with the state to send back."""

    output_serializer = PasskeyOptionsSerializer
    answer = status.HTTP_200_OK

    def perform(self, data):
        return authenticators.passkey_registration_begin(self.request.user)


class PasskeyRegisterView(ServiceAction):
    """Register the passkey the authenticator created: a line names its credential id and key."""

    input_serializer, output_serializer = PasskeyRegisterInput, PasskeySerializer

    def perform(self, data):
        return authenticators.passkey_registration_finish(
            user=self.request.user, establishment=self.establishment, **data
        )


class PasskeyRevokeView(ServiceAction):
    """Revoke a passkey: one's own, or a lost one of someone here (the directorate)."""

    input_serializer, output_serializer = NoInput, PasskeySerializer
    answer = status.HTTP_200_OK

    def perform(self, data, pk):
        passkey = get_object_or_404(
            Passkey.objects.filter(user__in=authenticators.people_here(self.establishment))
            | Passkey.objects.filter(user=self.request.user),
            pk=pk,
        )
        return authenticators.passkey_revoke(passkey=passkey, actor=self.request.user, establishment=self.establishment)
