"""Forms for cagnottes."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import TicketBook
from .common import BreakdownField, CashForm


class CagnotteComputeForm(CashForm):
    """One line per book used: "couverture dernier-ticket-détaché"."""

    detached = forms.CharField(
        label=_("Dernier ticket détaché de chaque carnet"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Une ligne par carnet : « numéro de couverture  dernier ticket », par ex. « TH1 140 »."),
    )

    def __init__(self, *args, session=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session

    def clean_detached(self):
        books = {book.cover_number: book for book in TicketBook.objects.filter(table=self.session.table)}
        lines = []
        for raw in self.cleaned_data["detached"].splitlines():
            parts = raw.split()
            if not parts:
                continue
            if len(parts) != 2 or parts[0] not in books or not parts[1].isdigit():
                raise forms.ValidationError(
                    _("Ligne illisible ou carnet inconnu à cette table : « %(line)s ».") % {"line": raw.strip()}
                )
            lines.append({"book": books[parts[0]], "last_number": int(parts[1])})
        return lines


class CagnotteCountForm(CashForm):
    breakdown = BreakdownField(label=_("Cagnotte comptée"))
    words = forms.CharField(label=_("Mention"), max_length=40, initial="certifié exact", required=False)
    balancing_ticket = forms.IntegerField(label=_("Dernier ticket d'équilibre (col. 13)"), min_value=1, required=False)


class TableCagnotteForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    number = forms.CharField(label=_("Cagnotte n°"), max_length=40)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)
