"""The passkeys (WebAuthn credentials) people registered to sign their acts: the credential's id
and public key, as the register of authorisations names them when they are registered."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Passkey(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="passkeys", verbose_name=_("titulaire")
    )
    name = models.CharField(_("nom"), max_length=100)
    credential_id = models.CharField(_("identifiant de la clé"), max_length=1400, unique=True)
    # The COSE key the authenticator returned, and the same key as a SubjectPublicKeyInfo (DER): the
    # form an auditor's tools read. Both base64url, without padding.
    public_key_cose = models.TextField(_("clé publique (COSE)"))
    public_key = models.TextField(_("clé publique (SubjectPublicKeyInfo)"))
    algorithm = models.IntegerField(_("algorithme (COSE)"))
    rp_id = models.CharField(_("domaine"), max_length=253)
    created_at = models.DateTimeField(_("enregistrée le"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("révoquée le"), null=True, blank=True)

    class Meta:
        verbose_name = _("clé d'accès")
        verbose_name_plural = _("clés d'accès")
        ordering = ["user", "created_at"]

    def __str__(self) -> str:
        return self.name
