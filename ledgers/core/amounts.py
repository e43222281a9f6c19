"""Amounts in euros: parsed to the cent, bounded by the money columns, rounded and written in words."""

from decimal import ROUND_CEILING, Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

CENT = Decimal("0.01")


def money(value) -> Decimal:
    try:
        amount = Decimal(str(value)).quantize(CENT)
    except (InvalidOperation, ValueError) as exc:
        raise ValidationError(_("Montant invalide : %(value)s.") % {"value": value}) from exc
    if amount < 0:
        raise ValidationError(_("Un montant ne peut être négatif."))
    return amount


def round_up_half_euro(amount: Decimal) -> Decimal:
    return ((amount * 2).to_integral_value(rounding=ROUND_CEILING) / 2).quantize(CENT)


def amount_in_words(amount: Decimal) -> str:
    """An amount in euros written in French words, as a register is "arrêté en toutes lettres".
    num2words writes the numbers; its currency mode reads integers as cents and writes "zéro
    centimes" and "un million euros", so the euro grammar is done here."""
    from num2words import num2words  # its sixty modules of languages, loaded when an amount is written out

    amount = Decimal(amount).quantize(CENT)
    sign = "moins " if amount < 0 else ""
    euros, cents = divmod(int(abs(amount) * 100), 100)
    words = num2words(euros, lang="fr")
    if euros >= 1_000_000 and euros % 1_000_000 == 0:
        unit = "d'euros"
    else:
        unit = "euros" if euros > 1 else "euro"
    text = f"{sign}{words} {unit}"
    if cents:
        text += f" et {num2words(cents, lang='fr')} centime{'s' if cents > 1 else ''}"
    return text


MONEY_LIMIT = Decimal(10) ** 12  # the money columns hold 14 digits, 2 of them cents


def within_money_limit(amount: Decimal) -> Decimal:
    """A computed amount the money columns can store, else bad input (400), not a database error."""
    if abs(amount) >= MONEY_LIMIT:
        raise ValidationError(_("Montant hors limites : %(value)s.") % {"value": amount})
    return amount
