"""AUTH-01 to AUTH-04: the arrêtés d'autorisation of the games, and the French tables set up under
them, in the register of gaming authorisations."""

import datetime
from collections.abc import Iterable, Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.amounts import money
from ledgers.core.authz import role_named_by_text
from ledgers.core.games import GAMES
from ledgers.core.hooks import set_up_act, set_up_detail
from ledgers.core.models import Establishment, GamingTable
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next, register_language

from ..models import Arrete, ArreteGame, Declaration, TableAuthorisation
from ..registers import AUTHORISATIONS
from ..table_mix import table_grounds
from .common import _require_fr, _required
from .declarations import declaration_follow_up


def _games(establishment: Establishment, games: Iterable[Mapping]) -> list[ArreteGame]:
    """The arrêté's lines, one per game played in the establishment's jurisdiction."""
    lines: dict[str, ArreteGame] = {}
    for given in games:
        game, tables, minimum = given["game"], given["tables"], given.get("minimum_stake")
        minimum = money(minimum) if minimum is not None else None
        if game not in GAMES or establishment.jurisdiction not in GAMES[game].jurisdictions:
            raise ValidationError({"games": _("Jeu inconnu dans cet établissement : %(game)s.") % {"game": game}})
        if game in lines:
            raise ValidationError(
                {"games": _("Un jeu ne figure qu'une fois : %(game)s.") % {"game": GAMES[game].label}}
            )
        if tables < 1 or (minimum is not None and minimum <= 0):
            raise ValidationError(
                {
                    "games": _("%(game)s : au moins une table, et une mise minimale positive.")
                    % {"game": GAMES[game].label}
                }
            )
        lines[game] = ArreteGame(game=game, tables=tables, minimum_stake=minimum)
    if not lines:
        raise ValidationError({"games": _("L'arrêté autorise au moins un jeu.")})
    return [lines[game] for game in sorted(lines)]


def _game_line(line: ArreteGame) -> str:
    text = _("%(game)s : %(tables)s table(s)") % {"game": GAMES[line.game].label, "tables": line.tables}
    if line.minimum_stake is None:
        return str(text)
    return str(_("%(text)s, mise minimale %(min)s €") % {"text": text, "min": line.minimum_stake})


@transaction.atomic
def arrete_record(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    reference: str,
    signed_on: datetime.date,
    effective_from: datetime.date,
    total_tables: int,
    games: Iterable[Mapping],
    follows: Declaration | None = None,
) -> Arrete:
    """The arrêté d'autorisation, or its amendment (a new arrêté, AUTH-02), inscribed by the
    directeur responsable: the total number of tables authorised and, per game (``games``: dicts of
    ``game``, ``tables``, ``minimum_stake`` or None), its tables and the minimum stake it fixes
    (AUTH-03, AUTH-04). The prior declaration it follows up (``follows``) is then marked "arrêté
    modifié"."""
    _require_fr(establishment, AUTHORISATIONS.title)
    role = role_named_by_text(
        actor,
        establishment,
        (Role.DIRECTEUR_RESPONSABLE,),
        "AUTH-03",
        _("L'arrêté d'autorisation est inscrit par le directeur responsable."),
    )
    fields = _required(reference=reference)
    if signed_on > establishment.localtime(timezone.now()).date():
        raise ValidationError({"signed_on": _("La date de signature ne peut pas être dans le futur.")})
    if effective_from < signed_on:
        raise ValidationError({"effective_from": _("L'arrêté entre en vigueur au plus tôt le jour de sa signature.")})
    if total_tables < 1:
        raise ValidationError({"total_tables": _("L'arrêté autorise au moins une table.")})
    lines = _games(establishment, games)
    if sum(line.tables for line in lines) > total_tables:
        raise ValidationError(
            {"games": _("Les tables autorisées par jeu dépassent le nombre total de tables autorisées.")}
        )
    if follows is not None and follows.establishment_id != establishment.pk:
        raise ValidationError({"follows": _("Déclaration inconnue dans cet établissement.")})
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    latest = Arrete.objects.filter(establishment=establishment).order_by("-effective_from").first()
    if latest is not None and effective_from < latest.effective_from:
        raise ValidationError(
            {
                "effective_from": _(
                    "L'arrêté n° %(n)s est en vigueur depuis le %(date)s : un arrêté suivant entre en vigueur après."
                )
                % {"n": latest.number, "date": latest.effective_from.strftime("%d/%m/%Y")}
            }
        )
    register = current_register(establishment, AUTHORISATIONS.code)
    number = Arrete.objects.filter(establishment=establishment).count() + 1
    arrete = Arrete.objects.create(
        establishment=establishment,
        register=register,
        number=number,
        reference=fields["reference"],
        signed_on=signed_on,
        effective_from=effective_from,
        total_tables=total_tables,
        follows=follows,
        recorded_by=actor,
        entry_seq=entry_seq_next(register),
    )
    for line in lines:
        line.arrete = arrete
    ArreteGame.objects.bulk_create(lines)
    with register_language():
        payload = {
            "arrete": number,
            "event": str(_("Arrêté d'autorisation")),
            "reference": fields["reference"],
            "signed_on": signed_on.isoformat(),
            "effective_from": effective_from.isoformat(),
            "total_tables": total_tables,
            "games": [
                {
                    "game": line.game,
                    "tables": line.tables,
                    "minimum_stake": str(line.minimum_stake) if line.minimum_stake is not None else None,
                }
                for line in lines
            ],
            "detail": str(
                _("%(reference)s, signé le %(signed)s, en vigueur le %(effective)s : %(total)s tables — %(games)s")
                % {
                    "reference": fields["reference"],
                    "signed": signed_on.strftime("%d/%m/%Y"),
                    "effective": effective_from.strftime("%d/%m/%Y"),
                    "total": total_tables,
                    "games": " ; ".join(_game_line(line) for line in lines),
                }
            ),
            "declaration": follows.number if follows is not None else None,
            "signed_by": display_name(actor),
        }
    entry_append(register=register, actor=actor, role=role, payload=payload)
    if follows is not None:  # AUTH-02: the declaration's follow-up is this amendment
        declaration_follow_up(
            declaration=follows,
            actor=actor,
            follow_up=Declaration.FollowUp.AMENDED,
            note=str(_("Arrêté n° %(n)s (%(reference)s)") % {"n": number, "reference": fields["reference"]}),
        )
    return arrete


def table_set_up_write(
    *, table: GamingTable, before: GamingTable | None, actor: AbstractBaseUser, role: str
) -> TableAuthorisation:
    """A French table's set-up in the register of gaming authorisations, with what allows it (the
    arrêté in force, the declaration relied on), in the set-up's transaction."""
    est = table.establishment
    grounds = table_grounds(table, est.localtime(timezone.now()).date())
    register = current_register(est, AUTHORISATIONS.code)
    line = TableAuthorisation.objects.create(
        table=table, arrete=grounds.arrete, declaration=grounds.declaration, entry_seq=entry_seq_next(register)
    )
    declaration = grounds.declaration
    with register_language():
        payload = {
            "arrete": grounds.arrete.number,
            "event": str(set_up_act(table, before)),
            "table": table.number,
            "detail": set_up_detail(table, before),
            "declaration": (
                str(_("n° %(n)s (%(op)s°)") % {"n": declaration.number, "op": declaration.operation})
                if declaration is not None
                else None
            ),
            "signed_by": display_name(actor),
        }
    entry_append(register=register, actor=actor, role=role, payload=payload)
    return line
