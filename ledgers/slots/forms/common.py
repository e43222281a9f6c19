"""What the slot forms share: date widgets and the people choices."""

from django import forms
from django.contrib.auth import get_user_model

from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Membership

LOCAL_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


DATE = forms.DateInput(attrs={"type": "date"})


def people(est, *roles: str):
    ids = Membership.objects.filter(establishment=est, role__in=roles).values_list("user_id", flat=True)
    return get_user_model().objects.filter(pk__in=ids).order_by("last_name", "first_name")


class ConfirmForm(EstablishmentForm):
    """A confirmation with no input: the signed-in user attests what the page states."""
