"""What the table cash forms share: the breakdown field and the establishment-bound base form."""

from decimal import Decimal

from django import forms
from django.utils import formats
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin

from .. import breakdowns

BREAKDOWN_HELP = _(
    "Le nombre de pièces par valeur ; une autre valeur sur une ligne libre : "
    "« valeur x quantité [jeton|plaque|billet] », par ex. « 1000 x 20 plaque »."
)


def _whole(value: Decimal) -> str:
    """A denomination as the piece shows it: "1 000 €", "2,50 €"."""
    places = 0 if value == value.to_integral_value() else 2
    return f"{formats.number_format(value, places, use_l10n=True, force_grouping=True)}\N{NO-BREAK SPACE}€"


def _grid_line(line: str) -> tuple[str, Decimal, str] | None:
    """(kind, value, quantity) of a typed line "valeur x quantité [nature]", None if unreadable."""
    parts = line.replace("×", "x").replace("*", "x").split()
    if len(parts) < 3 or parts[1].lower() != "x":
        return None
    kind = parts[3].lower() if len(parts) > 3 else breakdowns.Piece.CHIP
    try:
        return kind, Decimal(parts[0].replace(",", ".")), parts[2]
    except ArithmeticError:
        return None


class DenominationGrid(forms.Widget):
    """One quantity input per denomination of the nomenclature, each line's total and the running
    total computed as one types (static/js/denominations.js), the sum expected shown before typing,
    and a free line for any other value. It posts the lines as the typed nomenclature the field
    parses ("valeur x quantité nature"), so a post of the text alone (without the grid) is read
    the same way."""

    template_name = "cash/widgets/denominations.html"
    use_fieldset = True
    kinds = breakdowns.Piece.ALL

    expected: Decimal | None = None  # the sum the count or float is compared with, shown before typing
    expected_label = ""
    exact = True  # the total must equal it (MC somme mise en banque), else reach it (FR minimum)

    def expect(self, amount: Decimal | None, label, *, exact: bool = True) -> None:
        self.expected, self.expected_label, self.exact = amount, label, exact

    def nomenclature(self) -> list[tuple[str, Decimal]]:
        return [(kind, value) for kind, value in breakdowns.NOMENCLATURE if kind in self.kinds]

    @staticmethod
    def key(name: str, kind: str, value: Decimal) -> str:
        return f"{name}__{kind}__{value.normalize():f}"

    def value_from_datadict(self, data, files, name):
        lines = []
        for kind, value in self.nomenclature():
            quantity = (data.get(self.key(name, kind, value)) or "").strip()
            if quantity and quantity != "0":
                lines.append(f"{value.normalize():f} x {quantity} {kind}")
        extra = data.get(name)
        if extra:
            lines.append(extra)
        return "\n".join(lines) if lines or name in data else None

    def value_omitted_from_data(self, data, files, name):
        return self.value_from_datadict(data, files, name) is None

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        quantities: dict[tuple[str, Decimal], str] = {}
        others = []
        for line in (value or "").splitlines():
            parsed = _grid_line(line.strip()) if line.strip() else None
            if (
                parsed
                and (parsed[0], parsed[1]) in breakdowns.NOMENCLATURE
                and (parsed[0], parsed[1]) not in quantities
            ):
                quantities[(parsed[0], parsed[1])] = parsed[2]
            elif line.strip():
                others.append(line.strip())
        rows = []
        for kind, value in self.nomenclature():
            quantity = quantities.get((kind, value), "")
            rows.append(
                {
                    "name": self.key(name, kind, value),
                    "id": f"{context['widget']['attrs'].get('id', name)}_{kind}_{value.normalize():f}".replace(
                        ".", "_"
                    ),
                    "label": f"{breakdowns.PIECE_LABELS[kind]} {_whole(value)}",
                    "value": value,
                    "quantity": quantity,
                    "total": value * int(quantity) if quantity.isdigit() else None,
                }
            )
        totals = [row["total"] for row in rows if row["total"] is not None]
        typed = [_grid_line(line) for line in others]
        totals += [value * int(qty) for _kind, value, qty in filter(None, typed) if qty.isdigit()]
        context["widget"].update(
            rows=rows,
            others="\n".join(others),
            total=sum(totals) if totals else None,
            expected=self.expected,
            exact=self.exact,
            expected_label=self.expected_label,
        )
        return context


CHIPS = (breakdowns.Piece.PLAQUE, breakdowns.Piece.CHIP)  # a float or a bon asks for no banknotes


class BreakdownField(forms.CharField):
    widget = DenominationGrid

    def __init__(self, *, kinds=breakdowns.Piece.ALL, **kwargs):
        kwargs.setdefault("help_text", BREAKDOWN_HELP)
        super().__init__(**kwargs)
        self.widget.kinds = kinds  # the natures the grid offers a line for

    def clean(self, value):
        return breakdowns.parse_breakdown(super().clean(value))


class CashForm(CountersignMixin, forms.Form):
    def __init__(self, *args, establishment, request, **kwargs):
        self.establishment, self.request = establishment, request
        super().__init__(*args, **kwargs)


DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
