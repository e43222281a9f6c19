"""The register volumes the equipment flows write in, and how to put one in service (created by
the Direction, then coté et paraphé by the authority of its kind)."""

from django.contrib.auth.models import AbstractBaseUser

from ledgers.core.models import Establishment
from ledgers.registers.kinds import get_kind
from ledgers.registers.models import Register
from ledgers.registers.services import register_create, register_open


def required_volumes(establishment: Establishment) -> list[tuple[str, str]]:
    """(kind, qualifier) of every volume the sabot, shuffler and wheel flows need here; the carnets
    of the FR tables whose game uses a sabot are one per table."""
    from .specs import SHOE_GAMES_FR

    common = [("materiel_jeu", ""), ("sorties_tables", "shoes"), ("incidents", "")]
    if establishment.jurisdiction == "MC":
        return [
            *common,
            ("prise_en_charge", "sabots"),
            ("comptabilite_annexe", "shoes"),
            ("verifications_materiel", ""),
            ("roulement_lanceurs", ""),
        ]
    carnets = [
        (SHOE_GAMES_FR[game]["carnet"], number)
        for number, game in establishment.tables.filter(game__in=SHOE_GAMES_FR).values_list("number", "game")
    ]
    # FR: the police informed of an anomaly is a line of the notices to the authorities (AUTH-06).
    notices = [("informations_autorites", "")]
    return [*common, *notices, ("carnet_19", "sabots"), ("main_courante_roue", ""), *sorted(carnets)]


def open_volume(
    establishment: Establishment,
    kind: str,
    qualifier: str,
    *,
    director: AbstractBaseUser,
    authority: AbstractBaseUser,
    paraphe: str,
) -> Register:
    """The open volume of ``kind``/``qualifier``, created and coté et paraphé if there is none."""
    register = (
        Register.objects.filter(establishment=establishment, kind=kind, qualifier=qualifier)
        .exclude(status=Register.Status.CLOSED)
        .order_by("number")
        .first()
    )
    if register is None:
        register = register_create(establishment=establishment, kind=kind, qualifier=qualifier, actor=director)
    if register.status == Register.Status.AWAITING_OPENING:
        register_open(register=register, actor=authority, paraphe=paraphe)
        register.refresh_from_db()
    return register


def paraphing_roles(establishment: Establishment, kind: str) -> tuple[str, ...]:
    """Who may cote and paraph a volume of ``kind`` here (the kind may name roles of both
    jurisdictions: each establishment has staff in its own)."""
    return get_kind(kind).paraph_roles_for(establishment.jurisdiction)
