"""Demo seeding for reports (called by ``manage.py seed_demo``): the self-signed certificate that
seals printed registers in the demo, one per demo establishment, kept under ``var/`` and created once."""

from ledgers.core.demo import demo_houses
from ledgers.core.models import Establishment

from .sealing import demo_certificate_create


def seed(*, stdout) -> None:
    for establishment in Establishment.objects.filter(code__in=demo_houses()).order_by("code"):
        path, created = demo_certificate_create(establishment)
        if created:
            stdout.write(f"{establishment.name} : certificat de scellement de démonstration → {path}")
