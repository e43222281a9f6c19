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
