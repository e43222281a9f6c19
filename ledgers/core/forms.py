"""Form pieces shared by the ledgers' pages."""

from django import forms
from django.http import HttpRequest

from .models import Establishment


class EstablishmentForm(forms.Form):
    """A form whose choices are those of the user's establishment; it knows the request too (a
    countersignature is checked at this terminal)."""

    def __init__(self, *args, establishment: Establishment, request: HttpRequest | None = None, **kwargs) -> None:
        self.establishment, self.request = establishment, request
        super().__init__(*args, **kwargs)
        self.setup()

    @property
    def jurisdiction(self) -> str:
        return self.establishment.jurisdiction

    def setup(self) -> None:
        """Limit the choices to this establishment."""
