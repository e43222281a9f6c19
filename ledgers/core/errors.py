"""The one exception type for what the regulatory texts forbid."""

from django.utils.encoding import force_str

from .catalogue import REQUIREMENTS


class RuleViolation(Exception):
    """A change the texts forbid. ``code`` is the catalogue ID, ``article`` the text it cites.

    The UI shows ``str(exc)``; the API answers 409 with ``{"code", "article", "detail"}``.
    """

    def __init__(self, code: str, message: str, *, article: str | None = None) -> None:
        if code not in REQUIREMENTS:
            raise ValueError(f"unknown catalogue requirement {code!r}")
        self.code = code
        self.article = article or REQUIREMENTS[code].article
        self.message = message
        super().__init__(f"{code} — {self.article} : {force_str(message)}")

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "article": self.article, "detail": force_str(self.message)}


# Impossible acts. An act that the recorded state of its object makes impossible (issuing a
# destroyed or withdrawn card unit, returning cards that are not out, allocating a die that is not
# in its depot, checking a table's dice twice, opening a table-partie twice) is refused like any
# rule of the texts: 409 with the catalogue row that governs the object's whereabouts or
# lifecycle (cards CARD-08 / CARD-28: a unit is in a depot, at a table or destroyed, never
# anywhere else, and a destroyed unit never returns to service; dice DICE-06 / DICE-18; a
# séance's record DICE-11 / DICE-25...). When no row governs the transition, STATE_RULE: records
# are append-only, so what is recorded is never done a second time nor undone (only corrected
# by a new entry). Bad input that is no act at all (an unknown id, a malformed number, a missing
# field) stays a 400.
STATE_RULE = "REG-20"


def impossible(message: str, code: str = STATE_RULE) -> RuleViolation:
    """The refusal of an act the object's recorded state makes impossible (see above)."""
    return RuleViolation(code, message)
