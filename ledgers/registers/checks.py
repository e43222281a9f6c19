"""Deployment checks of the registers (``manage.py check --deploy``)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def signing_key_check(app_configs, **kwargs) -> list[Warning]:
    """The web tier may run without the signing key (it neither seals nor verifies with it: the
    public keys suffice to verify); the worker that seals must have it (docs/operations.md §6)."""
    if settings.LEDGERS_SIGNING_KEY or settings.LEDGERS_SIGNING_KEY_FILE:
        return []
    return [
        Warning(
            "LEDGERS_SIGNING_KEY is not set: this process cannot seal register checkpoints and tree heads.",
            hint="Set LEDGERS_SIGNING_KEY or LEDGERS_SIGNING_KEY_FILE in the environment of the Celery worker "
            "running the beat tasks.",
            id="registers.W001",
        )
    ]
