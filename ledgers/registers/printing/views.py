"""The volumes page of a register (REG-21): the print history (originals and DUPLICATA, with the
digest of each file) and the paraphes, with the form by which the authority paraphs a volume."""

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.exports import ListExportMixin
from ledgers.core.service_views import ServiceFormView
from ledgers.registers.forms import ReauthForm
from ledgers.registers.views import RegisterMixin

from . import services


class VolumeParapheForm(ReauthForm):
    """The paraphe is the authority's signature: password again, code, passkey (as a visa)."""

    volume = forms.IntegerField(label=_("Tome n°"), min_value=1)
    paraphe = forms.CharField(label=_("Paraphe"), max_length=20, help_text=_("Vos initiales, portées sur chaque page."))
    field_order = ["volume", "paraphe", "password", "otp_token"]


class VolumesView(RegisterMixin, ListExportMixin, ServiceFormView):
    """The paraphes and the prints of a register's volumes (both exported), and the paraphe form."""

    form_class = VolumeParapheForm
    template_name = "registers/volumes.html"
    success_message = _("Tome paraphé : son nombre de pages est figé.")

    def prints(self):
        return self.register.volumeprints.select_related("printed_by").order_by("printed_at", "pk")

    def paraphes(self):
        return self.register.volumeparaphes.select_related("authority").order_by("volume")

    def export_lists(self):
        est = self.register.establishment

        def moment(value):
            return f"{est.localtime(value):%d/%m/%Y %H:%M}" if value else ""

        paraphes = (
            (p.volume, p.pages, p.last_seq, p.lang, f"{p.authority} ({p.role})", p.paraphe, moment(p.paraphed_at))
            for p in self.paraphes()
        )
        prints = (
            (
                p.volume,
                p.last_seq,
                p.lang,
                p.pages,
                str(_("DUPLICATA") if p.duplicate else _("Original")),
                p.digest,
                str(p.printed_by or ""),
                moment(p.printed_at),
            )
            for p in self.prints()
        )
        number = self.register.number
        return {
            f"{number}-paraphes": (
                [
                    _("Tome n°"),
                    _("Pages"),
                    _("Dernière entrée"),
                    _("Langue"),
                    _("Autorité"),
                    _("Paraphe"),
                    _("Paraphé le"),
                ],
                paraphes,
            ),
            f"{number}-impressions": (
                [
                    _("Tome n°"),
                    _("Dernière entrée"),
                    _("Langue"),
                    _("Pages"),
                    _("Impression"),
                    _("Empreinte du fichier"),
                    _("Imprimé par"),
                    _("Imprimé le"),
                ],
                prints,
            ),
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        est = self.register.establishment
        context.update(
            prints=self.prints(),
            paraphes=self.paraphes(),
            can_paraphe=bool(
                roles_of(self.request.user, est) & set(self.register.kind_info.paraph_roles_for(est.jurisdiction))
            ),
        )
        return context

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def perform(self, form):
        data = form.cleaned_data
        return services.volume_paraphe(
            register=self.register,
            actor=self.request.user,
            volume=data["volume"],
            paraphe=data["paraphe"],
            passkey=form.passkey_given,
        )

    def get_success_url(self):
        return reverse("registers:volumes", args=[self.register.number])
