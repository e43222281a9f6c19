from django.core.management.base import BaseCommand

from ledgers.reports.services import report_jobs_recover


class Command(BaseCommand):
    help = (
        "Renvoie les rapports restés en attente (service d'impression injoignable) et relance ou marque en "
        "échec ceux dont le travail n'a plus donné signe de vie (la tâche périodique fait de même)."
    )
    requires_system_checks = []  # run by cron every few minutes: the system checks would cost more than the work

    def handle(self, *args, **options):
        done = report_jobs_recover()
        self.stdout.write(f"resent: {done['resent']} failed: {done['failed']}")
