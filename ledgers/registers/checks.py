"""Deployment checks of the registers (``manage.py check --deploy``)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def checkpoint_key_check(app_configs, **kwargs) -> list[Warning]:
    """The web tier may run without the checkpoint key (it neither seals nor verifies); the
    worker that seals and the verification job must have it (docs/operations.md §6)."""
    if settings.LEDGERS_CHECKPOINT_KEY:
        return []
    return [
        Warning(
            "LEDGERS_CHECKPOINT_KEY is not set: this process can neither seal nor verify register checkpoints.",
            hint="Set it in the environment of the Celery worker running the beat tasks and of verify_ledgers.",
            id="registers.W001",
        )
    ]
