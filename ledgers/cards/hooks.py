"""What the cards app wires into core's extension points: the table opening and closing
preconditions of the card domain."""

from django.db.models import F, OuterRef
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.expressions import ArraySubquery
from ledgers.core.hooks import (
    Missing,
    on_table_closing,
    on_table_opening,
    on_table_opening_gap,
    party_fact,
    party_facts,
    per_session,
)
from ledgers.core.models import TableSession

from . import deck_rules, selectors
from .domains import rule_id
from .models import CardEvent, CardUnit

Kind = CardEvent.Kind


@on_table_opening
def cards_ready_for_play(session: TableSession) -> None:
    """Before the table plays, every unit issued to it passed its control at the table: the second
    control (MC, CARD-15) / comptée et vérification (FR, CARD-36), or for a prêt-à-l'emploi deck
    the second mix and shuffle (CARD-22); none is under an open incident (CARD-19 / CARD-38). MC:
    a shuffler or shuffler-dealer at the table changes nothing to the control (SHUF-06)."""
    est = session.seance.establishment
    # Every table opening asks, most with no cards at the table: the units alone, then what was
    # done to them in one query and what quarantines them in another, rather than two per unit.
    units = per_session("cards.units", session, _units_at, [])
    if not units:
        return
    done = set(
        CardEvent.objects.filter(
            table_session=session, unit__in=units, ok=True, kind__in=(Kind.PAE_CONFIRMATION, Kind.SECOND_CONTROL)
        ).values_list("unit_id", "kind")
    )
    quarantined = set(
        selectors.under_open_incident(est)
        .filter(object_id__in=[u.pk for u in units])
        .values_list("object_id", flat=True)
    )
    for unit in units:
        if (unit.pk, Kind.PAE_CONFIRMATION if unit.pae else Kind.SECOND_CONTROL) not in done:
            if unit.pae:
                raise RuleViolation(
                    "CARD-22",
                    _(
                        "%(unit)s (prêt à l'emploi) : le second brassage et le second mélange "
                        "à table ne sont pas confirmés."
                    )
                    % {"unit": unit},
                )
            if est.jurisdiction == "MC" and session.shuffler_uses.exists():
                raise RuleViolation(
                    "SHUF-06",
                    _(
                        "%(unit)s n'a pas reçu son contrôle à table : le mélangeur ne dispense pas de "
                        "contrôler et reconnaître les cartes, la table ne peut ouvrir."
                    )
                    % {"unit": unit},
                )
            raise RuleViolation(
                rule_id(est, "CARD-15", "CARD-36"),
                _(
                    "%(unit)s n'a pas reçu son contrôle à table (cartes étalées, vérifiées dans l'ordre "
                    "du fabricant) : la table ne peut ouvrir."
                )
                % {"unit": unit},
            )
        if unit.pk in quarantined:
            raise RuleViolation(
                rule_id(est, "CARD-19", "CARD-38"),
                _("%(unit)s est en quarantaine (incident ouvert) : rentrez-le avant d'ouvrir la table.")
                % {"unit": unit},
            )


def _units_at(pks: list[int]) -> dict[int, list[CardUnit]]:
    """The units issued to each table-partie (``selectors.units_at``), by serial."""
    at = {}
    units = CardUnit.objects.filter(table_session_id__in=pks).exclude(parent__table_session_id=F("table_session_id"))
    for unit in units.order_by("serial"):
        at.setdefault(unit.table_session_id, []).append(unit)
    return at


@on_table_opening_gap
def no_cards_at_the_table(session: TableSession) -> list[Missing]:
    """A card game's table with no unit issued to it opens only once the person opening confirms it."""
    rule = deck_rules.rule_for(session.seance.establishment, session.table.game)
    if rule is None or selectors.units_at(session).exists():
        return []
    return [Missing(_("cartes remises à la table (%(rule)s)") % {"rule": rule.describe()}, rule.requirement)]


# The serials of the units issued to each table-partie (``selectors.units_at``), read with the séances' parties.
party_facts(
    cards_out=lambda: ArraySubquery(
        CardUnit.objects.filter(table_session=OuterRef("pk"))
        .exclude(parent__table_session_id=F("table_session_id"))
        .order_by("serial")
        .values("serial")
    )
)


@on_table_closing
def cards_back_before_closing(session: TableSession) -> None:
    """Fin de partie only once every unit is back in a depot: MC under the inspecteur's surveillance
    (CARD-18); FR after its post-partie control (CARD-37)."""
    out = party_fact(session, "cards_out")
    if not out:
        return
    est = session.seance.establishment
    serials = ", ".join(out)
    if est.jurisdiction == "MC":
        raise RuleViolation("CARD-18", _("Cartes non rentrées au dépôt : %(s)s.") % {"s": serials})
    raise RuleViolation(
        "CARD-37",
        _("Cartes non remises dans l'ordre du fabricant, examinées et rentrées à l'armoire : %(s)s.") % {"s": serials},
    )
