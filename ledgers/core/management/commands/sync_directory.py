from django.core.management.base import BaseCommand, CommandError

from ledgers.core.directory import DirectoryUnreachable, directory_configured, sync_directory


class Command(BaseCommand):
    help = (
        "Check every directory account against the directory: memberships follow its groups, "
        "the accounts it no longer has are disabled."
    )
    requires_system_checks = []  # run by cron every few minutes: the system checks would cost more than the work

    def handle(self, *args, **options):
        if not directory_configured():
            raise CommandError("No directory configured (LDAP_URL).")
        try:
            result = sync_directory()
        except DirectoryUnreachable as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{result.checked} directory accounts checked, {result.disabled} disabled.")
