from django import template
from django.db.models import Model
from django.urls import reverse

register = template.Library()


@register.simple_tag
def history_url(obj: Model) -> str:
    """Link to the history page of a tracked object."""
    meta = obj._meta
    return reverse("object-history", args=[meta.app_label, meta.model_name, obj.pk])
