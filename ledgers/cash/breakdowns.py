"""Nomenclatures of chips, plaques and banknotes: the lines a float, a count or a cash box lists."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.amounts import money


class Piece:
    CHIP, PLAQUE, BANKNOTE = "jeton", "plaque", "billet"
    ALL = (CHIP, PLAQUE, BANKNOTE)


# The denominations a float or a count lists, as the grid of the cash forms offers them (highest
# first, by nature); another value is typed on a free line.
NOMENCLATURE: tuple[tuple[str, Decimal], ...] = tuple(
    (kind, Decimal(value))
    for kind, values in (
        (Piece.PLAQUE, ("10000", "5000", "1000", "500", "100")),
        (Piece.CHIP, ("100", "50", "25", "20", "10", "5", "2", "1")),
        (Piece.BANKNOTE, ("500", "200", "100", "50", "20", "10", "5")),
    )
    for value in values
)
PIECE_LABELS = {Piece.PLAQUE: _("Plaque"), Piece.CHIP: _("Jeton"), Piece.BANKNOTE: _("Billet")}


def clean_breakdown(lines) -> list[dict]:
    """A nomenclature: [{"value", "quantity", "kind"}], values as strings with cents, merged by
    (kind, value) and sorted by decreasing value."""
    merged: dict[tuple[str, Decimal], int] = {}
    for line in lines or ():
        kind = line.get("kind", Piece.CHIP)
        if kind not in Piece.ALL:
            raise ValidationError(_("Nature inconnue : %(kind)s (jeton, plaque ou billet).") % {"kind": kind})
        value = money(line.get("value"))
        try:
            quantity = int(line.get("quantity"))
        except (TypeError, ValueError) as exc:
            raise ValidationError(_("Quantité invalide.")) from exc
        if value <= 0 or quantity <= 0:
            raise ValidationError(_("Chaque ligne a une valeur et une quantité positives."))
        merged[(kind, value)] = merged.get((kind, value), 0) + quantity
    if not merged:
        raise ValidationError(_("La nomenclature est vide."))
    return [
        {"kind": kind, "value": str(value), "quantity": qty}
        for (kind, value), qty in sorted(merged.items(), key=lambda item: (-item[0][1], item[0][0]))
    ]


def parse_breakdown(text: str) -> list[dict]:
    """Lines typed as "valeur x quantité [jeton|plaque|billet]", e.g. "1000 x 20 plaque"."""
    lines = []
    for raw in text.splitlines():
        raw = raw.strip()
        if not raw:
            continue
        parts = raw.replace("×", "x").replace("*", "x").split()
        if len(parts) < 3 or parts[1].lower() != "x":
            raise ValidationError(
                _("Ligne illisible : « %(line)s » (attendu : valeur x quantité [nature]).") % {"line": raw}
            )
        lines.append(
            {
                "value": parts[0].replace(",", "."),
                "quantity": parts[2],
                "kind": parts[3].lower() if len(parts) > 3 else Piece.CHIP,
            }
        )
    return clean_breakdown(lines)


def breakdown_total(lines: list[dict]) -> Decimal:
    return sum((Decimal(line["value"]) * line["quantity"] for line in lines), Decimal("0.00"))


def breakdown_text(lines: list[dict]) -> str:
    return " ; ".join(f"{line['quantity']} × {line['value']} € ({line['kind']})" for line in lines)


def has_banknotes(lines: list[dict]) -> bool:
    return any(line["kind"] == Piece.BANKNOTE for line in lines)
