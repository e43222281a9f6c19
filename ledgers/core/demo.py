"""Names shared by the demo seeders (``manage.py seed_demo``).

``seed_demo`` seeds the organisation first, then calls ``seed(stdout=...)`` in the ``demo``
module of every ledgers app that has one, in INSTALLED_APPS order. Each seeder must be idempotent
(running seed_demo twice changes nothing the second time) and go through the services.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from .models import Establishment

DEMO_MC = "montecarlo"  # Monaco establishment code
DEMO_FR = "nice"  # France establishment code
DEMO_PASSWORD = "demo-casino-2026"  # printed by seed_demo; demo only


def demo_username(establishment_code: str, role: str) -> str:
    return f"{role}.{establishment_code}"


def demo_user(establishment: Establishment, role: str) -> AbstractBaseUser:
    return get_user_model().objects.get(username=demo_username(establishment.code, role))
