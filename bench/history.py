"""More history in the demo houses, through the engine's bulk path and the services: the years
of register lines and the séances with their card movements and key hand-overs that the homes
and list pages must read around (their queries may not grow with it). Used by the page-query
tests and by ``bench/homes.py``; call inside a transaction that is rolled back, on a demo house."""

import datetime

from django.utils import timezone

from ledgers.cards import services as cards
from ledgers.cards.models import CardUnit
from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_user
from ledgers.core.models import Establishment, Membership, Seance, SeancePeriod
from ledgers.core.roles import Role
from ledgers.core.services import seance_close, seance_open, table_session_close, table_session_prepare
from ledgers.keys.services import key_issue, key_register, key_return
from ledgers.registers.models import Register
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.synthetic import synthetic_payloads


def more_history(per_register: int) -> None:
    """``per_register`` more entries in every open register of the demo houses, written by each
    demo user whose role writes there: the years of lines every home and list reads around."""
    memberships = Membership.objects.filter(establishment__code__in=(DEMO_MC, DEMO_FR)).select_related("user")
    start = timezone.now() - datetime.timedelta(days=365)
    for register in Register.objects.filter(establishment__code__in=(DEMO_MC, DEMO_FR), status=Register.Status.OPEN):
        writers = [m for m in memberships if m.establishment_id == register.establishment_id]
        writers = [m for m in writers if m.role in register.kind_info.record_roles]
        for membership in writers:
            entries_bulk_append(
                register=register,
                actor=membership.user,
                role=membership.role,
                payloads=synthetic_payloads(register.kind_info, per_register // len(writers), start=start),
            )


def more_seances(count: int) -> None:
    """``count`` more séances in each demo house, held through the services on days the demo held
    one (their rooms were staffed and read, SLOT-38, SLOT-50), at another time of the day: a
    blackjack table-partie prepared, a sealed sixain issued to it, examined and returned (MC: under
    the inspecteur, then controlled by the cartier), a roulette lid key handed over for the séance
    and back, the séance closed."""
    for est in Establishment.objects.filter(code__in=(DEMO_MC, DEMO_FR)).order_by("code"):
        mc = est.jurisdiction == "MC"
        director = demo_user(est, Role.DIRECTEUR_JEUX if mc else Role.DIRECTEUR_RESPONSABLE)
        keeper = demo_user(est, Role.CARTIER) if mc else director
        holder = demo_user(est, Role.INSPECTEUR if mc else Role.COMITE)
        table = est.tables.filter(game="blackjack", super_prive=False, active=True).order_by("number").first()
        sealed = CardUnit.objects.filter(
            establishment=est, parent=None, unit_type="sixain", status="in_stock", is_new=True
        ).exclude(location=None)
        unit = next(u for u in sealed.prefetch_related("members").order_by("serial") if u.colours() == [3, 3])
        depot = unit.location
        key = key_register(
            establishment=est,
            actor=director,
            code="HIST-CY",
            lock_type="cylinder_lid",
            opens="Couvercle du cylindre de réserve",
            asset_ref="réserve",
            custodian=holder,
        )
        held = Seance.objects.filter(establishment=est, status=Seance.Status.CLOSED)
        days = sorted(set(held.values_list("date", flat=True)))[-count:]
        assert len(days) == count, days
        for day in days:
            taken = set(held.filter(date=day).values_list("period", flat=True))
            period = next(p for p in (SeancePeriod.MATIN, SeancePeriod.APRES_MIDI, SeancePeriod.NUIT) if p not in taken)
            seance = seance_open(establishment=est, date=day, period=period, actor=director)
            session = table_session_prepare(seance=seance, table=table, actor=director)
            cards.cards_issue(table_session=session, units=[unit], actor=keeper, received_by="Chef de table")
            if not mc:  # FR: examined at the table before it goes back to the cabinet (CARD-37)
                cards.cards_post_control(
                    unit=unit,
                    actor=demo_user(est, Role.CROUPIER),
                    complete=True,
                    order_restored=True,
                    marks_found=False,
                )
            cards.cards_return(
                units=[unit],
                to_location=depot,
                actor=keeper,
                returned_by="Équipe de la table",
                inspecteur=demo_user(est, Role.INSPECTEUR) if mc else None,
            )
            table_session_close(session=session, actor=director)
            if mc:  # MC: the cartier's control in the depot before any further use (CARD-14)
                cards.cards_post_control(unit=unit, actor=keeper, complete=True, order_restored=True, marks_found=False)
            issue = key_issue(
                key=key,
                actor=director,
                holder=holder,
                purpose_type="core.seance",
                purpose_id=seance.pk,
                due_at=timezone.now() + datetime.timedelta(hours=6),
            )
            key_return(issue=issue, actor=director, returned_by=holder)
            seance_close(seance=seance, actor=director)
