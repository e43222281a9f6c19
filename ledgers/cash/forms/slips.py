"""Forms for cash slips and SFE advances."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.models import Location, LocationKind

from ..models import SlipBook
from ..services.slips import SLIP_RULES, next_number
from .common import CHIPS, BreakdownField, CashForm


class SlipBookForm(CashForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=SlipBook.Kind.choices)
    number = forms.CharField(label=_("Carnet n°"), max_length=30)
    first_number = forms.IntegerField(label=_("Premier bon"), min_value=1)
    last_number = forms.IntegerField(label=_("Dernier bon"), min_value=1)


class SlipWriteForm(CashForm):
    book = forms.ModelChoiceField(label=_("Carnet"), queryset=None)
    number = forms.IntegerField(label=_("Bon n°"), min_value=1)
    table_session = forms.ModelChoiceField(label=_("Table"), queryset=None)
    requested = BreakdownField(label=_("Jetons et plaques demandés"), kinds=CHIPS)
    handed = BreakdownField(label=_("Remis en échange (plaques, jetons ou billets)"))
    runner = forms.CharField(label=_("Porteur"), max_length=150, required=False)
    currency = forms.CharField(label=_("Devise des billets changés"), max_length=3, initial="EUR", required=False)

    def __init__(self, *args, sessions=None, **kwargs):
        super().__init__(*args, **kwargs)
        # The books of the slips this person writes (a changeur never sees the chefs de table's).
        roles = roles_of(self.request.user, self.establishment)
        kinds = [kind for kind, rule in SLIP_RULES.items() if set(rule["writers"]) & roles]
        books = SlipBook.objects.filter(establishment=self.establishment, kind__in=kinds)
        self.fields["book"].queryset = books
        if len(books) == 1:
            self.initial.setdefault("book", books[0].pk)
            self.initial.setdefault("number", next_number(books[0]))
        self.fields["table_session"].queryset = sessions
        supervisors = {
            role
            for rule in SLIP_RULES.values()
            if rule["jurisdiction"] == self.establishment.jurisdiction
            for role in rule["supervisors"]
        }
        self.add_countersignature(
            "supervisor",
            _("Contresignataire (inspecteur, chef de partie ou de table, comité)"),
            roles=sorted(supervisors),
        )


class DeskForm(CashForm):
    desk = forms.ModelChoiceField(label=_("Caisse"), queryset=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["desk"].queryset = Location.objects.filter(
            establishment=self.establishment, kind=LocationKind.CAISSE_CENTRALE
        )


class SlipVoidForm(CashForm):
    book = forms.ModelChoiceField(label=_("Carnet"), queryset=None)
    number = forms.IntegerField(label=_("Bon n°"), min_value=1)
    reason = forms.CharField(label=_("Motif"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["book"].queryset = SlipBook.objects.filter(establishment=self.establishment)
        self.add_countersignature("cosigner", _("Second signataire"))


class SfeAdvanceForm(CashForm):
    customer = forms.CharField(label=_("Client"), max_length=200)
    amount = forms.DecimalField(label=_("Montant (€)"), min_value=0, decimal_places=2)
    authorisation = forms.CharField(label=_("Autorisation de la SFE"), max_length=80)
