import datetime
import zoneinfo

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.core.errors import RuleViolation
from ledgers.registers.selectors import record_actor, registers_named
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.synthetic import synthetic_payloads


class Command(BaseCommand):
    help = _(
        "Ajoute N entrées synthétiques valides à un registre ouvert, par la voie d'inscription groupée "
        "(pour les mesures de performance). L'auteur est un utilisateur qui détient un rôle d'inscription "
        "de ce type de registre dans son établissement."
    )

    def add_arguments(self, parser):
        parser.add_argument("number", metavar="NUMBER", help=_("Numéro du registre."))
        parser.add_argument("--entries", type=int, required=True, metavar="N", help=_("Nombre d'entrées à ajouter."))
        parser.add_argument(
            "--batch", type=int, default=2000, metavar="B", help=_("Entrées par INSERT groupé (2000 par défaut).")
        )

    def handle(self, *args, number: str, entries: int, batch: int, **options) -> None:
        if entries < 1 or batch < 1:
            raise CommandError(_("--entries et --batch doivent être positifs."))
        found, _unknown = registers_named([number])
        if not found:
            raise CommandError(_("Registre inconnu : %(numbers)s") % {"numbers": number})
        register = found[0]
        writer = record_actor(register)
        if writer is None:
            raise CommandError(
                _(
                    "Aucun utilisateur de %(establishment)s ne détient de rôle d'inscription pour les registres "
                    "« %(kind)s » (%(roles)s)."
                )
                % {
                    "establishment": register.establishment.code,
                    "kind": register.kind,
                    "roles": ", ".join(register.kind_info.record_roles),
                }
            )
        actor, role = writer
        # One fact a minute, the last one now, in the establishment's time.
        now = timezone.localtime(timezone=zoneinfo.ZoneInfo(register.establishment.timezone))
        start = now - datetime.timedelta(minutes=entries)
        payloads = synthetic_payloads(register.kind_info, entries, start=start)
        try:
            count = entries_bulk_append(register=register, actor=actor, role=role, payloads=payloads, batch_size=batch)
        except RuleViolation as exc:
            raise CommandError(str(exc)) from exc
        register.refresh_from_db()
        self.stdout.write(
            _("%(count)s entrées ajoutées à %(number)s par %(actor)s (%(role)s) ; tête : n° %(head)s.")
            % {
                "count": count,
                "number": register.number,
                "actor": actor.get_username(),
                "role": role,
                "head": register.head_seq,
            }
        )
