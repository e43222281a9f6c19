"""Seed the demo casinos: the organisation, then each ledgers app's own demo data."""

import importlib
import importlib.util

from django.apps import apps
from django.core.management.base import BaseCommand

from ledgers.core.demo import DEMO_PASSWORD, demo_logins


class Command(BaseCommand):
    help = (
        "Crée (ou complète) les casinos de démonstration de Monte-Carlo et de Nice : organisation, "
        "utilisateurs par rôle et registres. Sans effet s'ils existent déjà."
    )

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="Adresse affichée pour se connecter.")

    def handle(self, *args, url: str, **options):
        # ledgers.core first (it is first in INSTALLED_APPS), then every other domain app in order.
        for config in apps.get_app_configs():
            module = f"{config.name}.demo"
            if config.name.startswith("ledgers.") and importlib.util.find_spec(module) is not None:
                importlib.import_module(module).seed(stdout=self.stdout)
        self.print_logins(url)

    def print_logins(self, url: str) -> None:
        rows = [("Identifiant", "Rôle", "Établissement", "Mot de passe")]
        rows += [(username, role, est, DEMO_PASSWORD) for username, role, est in demo_logins()]
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        line = "  ".join("-" * w for w in widths)
        self.stdout.write("")
        for i, row in enumerate(rows):
            self.stdout.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
            if i == 0:
                self.stdout.write(line)
        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS(f"Connectez-vous sur {url}"))
