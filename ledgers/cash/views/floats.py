"""Pages for the tables' floats and cash boxes."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation

from .. import forms, selectors, services
from ..services import (
    box_holders,
)
from .common import CashFormView


class FloatView(CashFormView):
    form_class = forms.FloatForm
    success_message = _("Avance inscrite au carnet.")

    @property
    def title(self):
        return _("Avance de la table %(table)s") % {"table": self.session.table.number}

    def act_refusal(self) -> RuleViolation | None:
        return services.float_refusal(self.session, self.request.user)

    def get_initial(self):
        return {"box_number": self.session.table.number}

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        # The sum the cashier hands over, shown above the grid before anything is typed.
        grid = form.fields["breakdown"].widget
        if self.establishment.jurisdiction == "MC":
            grid.expect(selectors.fixed_bank(self.session.table), _("Somme mise en banque fixée pour la table"))
        else:
            try:
                minimum = selectors.minimum_avance(self.session)
            except (RuleViolation, ValidationError):  # no minimum stake yet: the service says so on sending
                minimum = None
            grid.expect(minimum, _("Avance minimale (article 49)"), exact=False)
        return form

    def perform(self, form):
        data = form.cleaned_data
        return services.float_record(
            session=self.session,
            breakdown=data["breakdown"],
            actor=self.request.user,
            kind=data.get("kind") or "initial",
            box_number=data.get("box_number", ""),
            transport_box=data.get("transport_box", ""),
            counted_by=data.get("counted_by", ""),
            called_aloud=data.get("called_aloud", False),
            receiver=data.get("receiver"),
            carry_note=data.get("carry_note", ""),
            carnet_on_table=data.get("carnet_on_table", False),
        )


class FixBankView(CashFormView):
    form_class = forms.FixBankForm
    menu_act = "fix_bank"
    title = _("Somme mise en banque fixée par la Direction des Jeux")

    def perform(self, form):
        return services.float_amount_fix(
            table=form.cleaned_data["table"], amount=form.cleaned_data["amount"], actor=self.request.user
        )


class RefaitThresholdView(CashFormView):
    form_class = forms.RefaitThresholdForm
    menu_act = "refait_threshold"
    title = _("Assurance contre le refait au trente et quarante")
    intro = _(
        "La Direction des Jeux fixe la mise à partir de laquelle un joueur peut l'assurer contre le refait, "
        "moyennant une prime du centième de la mise (article 9) ; aucune prime n'est encaissée tant "
        "qu'elle n'est pas fixée."
    )

    def get_initial(self):
        return {"amount": services.refait_threshold(self.establishment)}

    def perform(self, form):
        return services.refait_threshold_fix(
            establishment=self.establishment, amount=form.cleaned_data["amount"], actor=self.request.user
        )


class BoxHolderView(CashFormView):
    form_class = forms.BoxHolderForm

    @property
    def title(self):
        return _("Employé chargé de la caisse — table %(table)s") % {"table": self.session.table.number}

    def act_refusal(self):
        return box_holders.box_holder_refusal(self.session, self.request.user)

    def perform(self, form):
        return box_holders.box_holder_designate(session=self.session, actor=self.request.user, **form.cleaned_data)
