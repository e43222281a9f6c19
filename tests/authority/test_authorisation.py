"""AUTH-03: the authorisation dossier's figures (tables installed and authorised and minimum stakes
per game, slot machines, electronic forms of table games) reproduced at any date."""

import datetime
from decimal import Decimal

from django.urls import reverse
from django.utils import timezone

from ledgers.authority.authorisation import authorisation_figures
from ledgers.authority.models import Declaration
from ledgers.authority.services import declaration_record
from ledgers.core.authz import save_audited
from tests.factories import GamingTableFactory, RoomFactory, make_user, open_register, record_arrete
from tests.slots.conftest import fr_room  # noqa: F401  (fixture)


def test_auth_03_figures_at_any_date(fr_room, client):  # noqa: F811
    est = fr_room.est
    today = timezone.localdate()
    room = RoomFactory(establishment=est)
    for number, game in (("BJ1", "blackjack"), ("BJ2", "blackjack"), ("TC1", "three_card_poker")):
        GamingTableFactory(establishment=est, room=room, number=number, game=game)
    director = fr_room.keeper
    est.options = {**est.options, "SET-08": {"three_card_poker": 5}}
    save_audited(est, actor=director, reason="arrêté d'autorisation")
    fr_room.on_floor()
    fr_room.register_machine()  # registered, not yet in service
    open_register(est, "declarations_prealables")
    declare = dict(
        establishment=est,
        actor=director,
        sent_on=today - datetime.timedelta(days=20),
        recipients=Declaration.Recipient.values,
        proof="LRAR 2",
        operation="5",
    )
    declaration_record(details="Roulette électronique", implementation_date=today, **declare)
    declaration_record(
        details="Black jack électronique", implementation_date=today + datetime.timedelta(days=5), **declare
    )

    now = authorisation_figures(est, today)
    by_game = {g.game: (g.tables, g.authorised_minimum) for g in now.games}
    assert by_game == {"blackjack": (2, None), "three_card_poker": (1, Decimal("5"))}  # SET-08: no arrêté yet
    assert now.arrete is None

    # the arrêté in force: its tables per game and in all beside those installed, its minimums over SET-08
    games = {"blackjack": 3, "three_card_poker": (1, Decimal("8")), "rampo": 1}
    arrete = record_arrete(est, games, effective_from=today)
    now = authorisation_figures(est, today)
    by_game = {g.game: (g.tables, g.authorised_tables, g.authorised_minimum) for g in now.games}
    assert by_game == {
        "blackjack": (2, 3, None),
        "rampo": (0, 1, None),
        "three_card_poker": (1, 1, Decimal("8.00")),
    }
    assert (now.arrete, now.tables) == (arrete, 3)
    assert now.slot_machines == 1
    assert [d.details for d in now.electronic_forms] == ["Roulette électronique"]

    before = authorisation_figures(est, today - datetime.timedelta(days=1))
    assert (before.games, before.slot_machines, before.electronic_forms) == ([], 0, [])

    client.force_login(director)
    page = client.get(reverse("authority:authorisation")).content.decode()
    assert "Roulette électronique" in page and '<dd id="slot-machines">1</dd>' in page
    assert '<td class="num" id="tables-installed">3</td>' in page
    assert '<td class="num" id="tables-authorised">5</td>' in page
    yesterday = client.get(reverse("authority:authorisation"), {"date": str(today - datetime.timedelta(days=1))})
    assert '<dd id="slot-machines">0</dd>' in yesterday.content.decode()
    client.force_login(make_user(est, "croupier"))
    assert client.get(reverse("authority:authorisation")).status_code == 403
