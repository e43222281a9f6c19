from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from ledgers.core.errors import RuleViolation
from ledgers.core.services import director_role, establishment_set_up
from ledgers.core.setup_forms import parse_settings


class Command(BaseCommand):
    help = (
        "Create an establishment with its jurisdiction (MC or FR), its time zone, its first settings, "
        "and grant its first director (FR directeur responsable, MC directeur des jeux) to an existing "
        "account; both acts are written in the register of authorisations. Example: "
        "create_establishment --code casino-nice --name 'Casino de Nice' --jurisdiction FR "
        "--director dupont --setting SET-20=2"
    )

    def add_arguments(self, parser):
        parser.add_argument("--code", required=True, help="Short code: letters, digits, dashes (e.g. casino-nice).")
        parser.add_argument("--name", required=True)
        parser.add_argument("--jurisdiction", required=True, choices=("MC", "FR"))
        parser.add_argument("--timezone", default="", help="Default: Europe/Monaco (MC) or Europe/Paris (FR).")
        parser.add_argument("--address", default="")
        parser.add_argument(
            "--setting",
            action="append",
            default=[],
            metavar="CODE=VALUE",
            help="A first setting (the value in JSON when it reads as JSON), e.g. SET-20=2; repeatable.",
        )
        parser.add_argument("--director", required=True, help="Login of the existing account that directs it.")

    def handle(self, *args, **options):
        try:
            establishment = establishment_set_up(
                code=options["code"],
                name=options["name"],
                jurisdiction=options["jurisdiction"],
                timezone_name=options["timezone"],
                address=options["address"],
                options=parse_settings("\n".join(options["setting"])),
                director=options["director"],
                actor=None,
            )
        except (ValidationError, RuleViolation, PermissionDenied, ValueError) as exc:
            messages = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            raise CommandError(" ".join(str(m) for m in messages)) from exc
        self.stdout.write(
            f"Establishment {establishment.code} ({establishment.jurisdiction}) created; "
            f"{options['director']} holds the role {director_role(establishment)}."
        )
