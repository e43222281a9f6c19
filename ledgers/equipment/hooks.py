"""What the equipment app wires into core's extension points: the preconditions its rules put on
table-parties (the shuffler first: a started shuffler with its dealing attachment stands in for
the sabot), and the deck check the cards domain calls when a shuffler is used."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import on_table_closing, on_table_opening, party_fact, per_session
from ledgers.core.models import TableSession
from ledgers.incidents.selectors import has_open_incident

from .models import AssetStatus, LidLock, Shoe, Shuffler, ShufflerUse, Wheel, WheelCheck
from .specs import CHECK_RULES, LID_GAMES, SHOE_GAMES_FR, SHUFFLER_DISPLAY_FR, SHUFFLER_POKER_FR


def _est(session: TableSession):
    return session.seance.establishment


def _shuffler_uses(pks: list[int]) -> dict[int, list[ShufflerUse]]:
    """The shuffler uses of each table-partie: the opening and the closing checks read them once."""
    uses = {}
    for use in ShufflerUse.objects.filter(table_session_id__in=pks).select_related("shuffler").order_by("pk"):
        uses.setdefault(use.table_session_id, []).append(use)
    return uses


def session_uses_shuffler(session: TableSession) -> bool:
    """The table-partie works with a shuffler: one was started for it, or one in service is fixed
    on the table's socle (FR: the table attribute "shuffler in use", SHUF-11)."""
    if ShufflerUse.objects.filter(table_session=session).exists():
        return True
    return Shuffler.objects.filter(socle__table_id=session.table_id, status=AssetStatus.IN_SERVICE).exists()


@on_table_opening
def check_shuffler_started(session: TableSession) -> None:
    """FR blackjack and punto banco: a shuffler fixed on the table is started with its opening
    checklist before play (SHUF-14, SHUF-15)."""
    est = _est(session)
    game = session.table.game
    if est.jurisdiction != "FR" or game not in SHUFFLER_DISPLAY_FR:
        return
    started = {use.shuffler_id for use in per_session("equipment.shuffler_uses", session, _shuffler_uses, [])}
    for shuffler in Shuffler.objects.filter(socle__table_id=session.table_id, status=AssetStatus.IN_SERVICE):
        if has_open_incident(shuffler):
            continue
        if shuffler.pk not in started:
            raise RuleViolation(
                SHUFFLER_DISPLAY_FR[game][0],
                _(
                    "Le %(machine)s n'a pas été mis en marche avec ses vérifications d'ouverture (affichage, jeux "
                    "comptés)."
                )
                % {"machine": shuffler},
            )


@on_table_opening
def check_shoe_allocated(session: TableSession) -> None:
    """FR: the sabot is allocated at the start of each séance, before the table opens (SHOE-12,
    recorded per SHOE-06 / SHOE-13) — unless a shuffler fitted with its dealing attachment deals
    the cards in place of the sabot (art. 40-1 B)."""
    est = _est(session)
    if est.jurisdiction != "FR" or session.table.game not in SHOE_GAMES_FR:
        return
    if Shoe.objects.filter(table_session=session).exists():
        return
    uses = per_session("equipment.shuffler_uses", session, _shuffler_uses, [])
    if any(use.opening.get("embout") is True for use in uses):
        return
    raise RuleViolation(
        "SHOE-12",
        _("Aucun sabot n'a été affecté à la table %(table)s pour cette séance : affectez-le avant l'ouverture.")
        % {"table": session.table},
    )


@on_table_opening
def check_wheel_ready(session: TableSession) -> None:
    """The wheel was checked before the séance, and passed (MC WHEEL-06, FR WHEEL-08); after a failed
    check the table stays closed (INC-08)."""
    est = _est(session)
    rule = CHECK_RULES[est.jurisdiction].get(session.table.game)
    if rule is None:
        return
    code = rule[0]
    wheel = Wheel.objects.filter(table=session.table).first()
    if wheel is None or wheel.status != AssetStatus.IN_SERVICE:
        raise RuleViolation(
            code, _("Aucun matériel en service n'est installé à la table %(table)s.") % {"table": session.table}
        )
    if has_open_incident(wheel):
        raise RuleViolation(
            "INC-08", _("Le %(wheel)s fait l'objet d'un incident ouvert : la table reste fermée.") % {"wheel": wheel}
        )
    latest = WheelCheck.objects.filter(table_session=session, wheel=wheel).order_by("-checked_at").first()
    if latest is None:
        raise RuleViolation(
            code, _("Le %(wheel)s n'a pas été vérifié avant la séance : la table ne peut ouvrir.") % {"wheel": wheel}
        )
    if not latest.passed:
        raise RuleViolation(
            "INC-08",
            _("La dernière vérification du %(wheel)s n'est pas conforme : la table reste fermée.") % {"wheel": wheel},
        )


@on_table_closing
def check_shuffler_ended(session: TableSession) -> None:
    """FR: no end of partie without the hood opened and the machine shown empty (SHUF-13), and at
    blackjack and punto banco the cards removed and the machine disconnected (SHUF-14, SHUF-15)."""
    est = _est(session)
    if est.jurisdiction != "FR":
        return
    use = party_fact(session, "shuffler_open_use")
    if use is None:
        return
    if use["ended_at"] is None and session.table.game in SHUFFLER_DISPLAY_FR:
        code = SHUFFLER_DISPLAY_FR[session.table.game][0]
    else:
        code = "SHUF-13"
    raise RuleViolation(
        code,
        _(
            "Fin de partie impossible : la fin de séance du %(machine)s (capot ouvert, "
            "mélangeur vide) n'est pas confirmée."
        )
        % {"machine": Shuffler(machine_type=use["machine_type"], number=use["number"])},
    )


@on_table_closing
def check_lid_locked(session: TableSession) -> None:
    """MC roulette: no end of partie before the lid is locked and its key returned (WHEEL-02, KEY-08)."""
    est = _est(session)
    if session.table.game not in LID_GAMES[est.jurisdiction] or session.opened_at is None:
        return  # a table that never opened (a failed check kept it closed) has no partie to end
    if not LidLock.objects.filter(table_session=session).exists():
        raise RuleViolation(
            "WHEEL-02",
            _(
                "Fin de partie impossible : le cylindre doit être recouvert de son "
                "couvercle fermé à clé, et la clé remise à son détenteur."
            ),
        )


_COLOURS = {"rouge": "rouge", "red": "rouge", "bleu": "bleu", "blue": "bleu"}
_PLASTIC = {"plastique", "plastifié", "plastifiée", "plastic"}


def shuffler_deck_check(*, table_session: TableSession, decks: Sequence[Mapping[str, Any]]) -> None:
    """For the cards domain, before it issues decks to a table: FR stud, hold'em and ultimate hold'em
    with a shuffler use exactly two decks, one red and one blue, of plastic-coated cards subject to
    prior approval (SHUF-12); at ultimate hold'em two decks of different back colours (SHUF-10).

    ``decks``: one mapping per deck with "back" (colour), "material" and "approval_reference".
    Nothing is checked where the table does not work with a shuffler."""
    est = _est(table_session)
    game = table_session.table.game
    if est.jurisdiction != "FR" or game not in SHUFFLER_POKER_FR or not session_uses_shuffler(table_session):
        return
    backs = [_COLOURS.get(str(deck.get("back", "")).strip().lower(), str(deck.get("back", ""))) for deck in decks]
    if game == "ultimate_holdem" and (len(decks) != 2 or len(set(backs)) != 2):
        raise RuleViolation(
            "SHUF-10",
            _(
                "Avec un mélangeur, l'ultimate hold'em se joue avec deux jeux de format "
                "américain de couleurs de dos différentes."
            ),
        )
    if len(decks) != 2 or sorted(backs) != ["bleu", "rouge"]:
        raise RuleViolation("SHUF-12", _("Avec un mélangeur, deux jeux sont requis : l'un rouge, l'autre bleu."))
    for deck in decks:
        if (
            str(deck.get("material", "")).strip().lower() not in _PLASTIC
            or not str(deck.get("approval_reference", "")).strip()
        ):
            raise RuleViolation(
                "SHUF-12",
                _("Les cartes utilisées avec un mélangeur sont plastifiées et soumises à agrément préalable."),
            )
