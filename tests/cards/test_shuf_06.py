"""SHUF-06 (AM 88-384 art. 1.6, 1.7): a shuffler or a shuffler-dealer does not replace the control
of the cards at the table — the second control of art. 1.2 (CARD-15) is still required, and the
opening is refused under SHUF-06 while a unit lacks it."""

from ledgers.cards import services
from ledgers.core.models import TableSession
from ledgers.core.services import table_session_open
from ledgers.equipment import services as equipment
from ledgers.equipment.models import MachineType
from tests.cards.conftest import World, refused
from tests.equipment.conftest import mounted_shuffler
from tests.factories import open_register


def test_shuf_06_second_control_required_with_a_shuffler(mcw: World):
    open_register(mcw.est, "materiel_jeu")
    tables = {
        # punto banco with a mélangeur: eight decks, a sixain and two single decks
        "punto_banco": (
            mounted_shuffler(mcw, "punto_banco", machine_type=MachineType.BATCH, number="M1"),
            (mcw.spec(), mcw.spec("jeu"), mcw.spec("jeu")),
        ),
        # black-jack with a mélangeur distributeur: one sixain
        "blackjack": (
            mounted_shuffler(mcw, "blackjack", machine_type=MachineType.CONTINUOUS, number="M2"),
            (mcw.spec(),),
        ),
    }
    for game, (machine, specs) in tables.items():
        units = mcw.receive(*specs)
        session = mcw.session(game)
        equipment.shuffler_use_start(session=session, shuffler=machine, actor=mcw.croupier)
        mcw.issue(session, *units)
        for unit in units:
            services.cards_unseal(unit=unit, actor=mcw.croupier, seal_intact=True)
        # The machine is on the table's socle and started, every deck unsealed at the table; each
        # unit but the last passes its second control: the table still cannot open.
        for unit in units[:-1]:
            services.cards_table_control(unit=unit, actor=mcw.croupier, complete=True, order_intact=True)
        refused("SHUF-06", table_session_open, session=session, actor=mcw.director)
        assert TableSession.objects.get(pk=session.pk).status == TableSession.Status.PREPARING
        services.cards_table_control(unit=units[-1], actor=mcw.croupier, complete=True, order_intact=True)
        assert table_session_open(session=session, actor=mcw.director).status == TableSession.Status.OPEN
