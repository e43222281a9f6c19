"""Sabots for the tests of every domain, through the equipment services: the volumes their flows
write in, an approved model, sabots taken into stock.

The equipment tests build on these; other domains need them because a French table of a sabot
game opens only once its sabot is allocated (SHOE-12) and closes only once it is back (SHOE-09)."""

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser

from ledgers.core.models import Establishment, Location
from ledgers.equipment import services
from ledgers.equipment.models import ApprovedModel, Shoe
from ledgers.equipment.volumes import open_volume, paraphing_roles, required_volumes
from tests.factories import make_user


def open_equipment_volumes(
    establishment: Establishment, users: Mapping[str, AbstractBaseUser], *, director: AbstractBaseUser
) -> None:
    """Every volume the sabot, shuffler and wheel flows write in, coté et paraphé by the first of
    ``users`` (role → user) who may paraph it, else by a new user holding the kind's authority role
    (the carnet d'avances is paraphed by the Interior ministry control officials); a volume already
    open is kept."""
    for kind, qualifier in required_volumes(establishment):
        roles = paraphing_roles(establishment, kind)
        authority = next((users[role] for role in roles if role in users), None)
        if authority is None:
            authority = make_user(establishment, roles[0], username=f"{roles[0]}-{establishment.code}")
            users = {**users, roles[0]: authority}
        open_volume(establishment, kind, qualifier, director=director, authority=authority, paraphe="P.")


def shoe_model(establishment: Establishment, *, actor: AbstractBaseUser, approved: bool = True) -> ApprovedModel:
    """The establishment's sabot model, with (or without) its approval reference."""
    name = "Sabot 6 jeux" if approved else "Sabot sans agrément"
    existing = ApprovedModel.objects.filter(
        establishment=establishment, kind=ApprovedModel.Kind.SHOE, name=name
    ).first()
    return existing or services.approved_model_register(
        establishment=establishment,
        kind=ApprovedModel.Kind.SHOE,
        manufacturer="Cartamundi",
        name=name,
        actor=actor,
        approval_reference="AM-2019-041" if approved else "",
        approval_issuer="Ministre de l'intérieur",
    )


def receive_shoes(
    establishment: Establishment,
    numbers: Sequence[str],
    *,
    location: Location,
    model: ApprovedModel,
    actor: AbstractBaseUser,
) -> list[Shoe]:
    """Sabots numbered ``numbers`` taken into stock at ``location``."""
    return services.shoe_receive(
        establishment=establishment,
        model=model,
        location=location,
        shoes=[(n, f"SN-{n}") for n in numbers],
        actor=actor,
    )
