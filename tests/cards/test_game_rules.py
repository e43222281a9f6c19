"""Per-game deck rules (SET-02 decks, SET-03 freshness), enforced when cards are issued to a
table session: one test per GAME row about decks."""

from ledgers.cards import services
from ledgers.cards.deck_rules import DECK_RULES, rule_for, rules_table
from ledgers.cards.models import CardUnit
from ledgers.core.services import table_session_close
from ledgers.custody.models import ItemStatus
from tests.cards.conftest import World
from tests.cards.conftest import refused as _refused


def _issued(session):
    return CardUnit.objects.filter(table_session=session, parent__table_session__isnull=True).count()


def test_every_card_game_of_both_jurisdictions_has_a_deck_rule(mc, fr):
    from ledgers.core.games import games_for

    for est in (mc, fr):
        for game in games_for(est.jurisdiction):
            if "cards" in game.equipment:
                assert (est.jurisdiction, game.code) in DECK_RULES, game.code
    assert len(rules_table(mc)) == 12 and len(rules_table(fr)) == 10


def test_game_01_mc_blackjack_takes_the_number_fixed_by_the_direction(mcw: World):
    (huitain, sixain) = mcw.receive(mcw.spec("huitain"), mcw.spec())
    _refused("GAME-01", mcw.issue, mcw.session("blackjack"), huitain)
    mcw.est.options = {"SET-02": {"blackjack": 8}}
    mcw.est.save()
    assert [c.decks for c in rule_for(mcw.est, "blackjack").compositions] == [8]
    _refused("GAME-01", mcw.issue, mcw.session("blackjack"), sixain)
    mcw.issue(mcw.session("blackjack"), huitain)


def test_game_05_fr_blackjack_one_sixain_three_and_three_colours_in_perfect_condition(frw: World):
    (odd, good, worn) = frw.receive(frw.spec(), frw.spec(), frw.spec())
    decks = list(odd.members.order_by("position"))
    session = frw.session("blackjack")
    _refused("GAME-05", frw.issue, session, *decks)  # six decks, but not a whole sixain
    (lopsided,) = frw.receive(
        type(frw.spec())(
            unit_type="sixain",
            serial="S-LOP",
            decks=tuple(type(frw.spec().decks[0])(f"S-LOP-{i}", "rouge" if i <= 4 else "bleu") for i in range(1, 7)),
        )
    )
    _refused("GAME-05", frw.issue, session, lopsided)  # 4 + 2
    services.cards_withdraw(units=[worn], status="out_of_use", reason="usé", actor=frw.directeur_responsable)
    _refused("GAME-05", frw.issue, session, worn)
    frw.issue(session, good)
    assert _issued(session) == 1


def test_game_09_black_jack_one_deck_a_new_deck_each_seance(mcw: World):
    (deck, second) = mcw.receive(mcw.spec("jeu"), mcw.spec("jeu"))
    session = mcw.open_table("blackjack_one_deck", deck)
    mcw.give_back(deck)
    table_session_close(session=session, actor=mcw.director)
    services.cards_post_control(
        unit=CardUnit.objects.get(pk=deck.pk), actor=mcw.cartier, complete=True, order_restored=True, marks_found=False
    )
    next_seance = mcw.new_seance(days_ago=-1)
    session = mcw.session("blackjack_one_deck", seance=next_seance)
    _refused("GAME-09", mcw.issue, session, deck)
    _refused("GAME-09", mcw.issue, session, deck, second)
    mcw.issue(session, second)


def test_game_12_mc_punto_banco_eight_decks_or_six_with_a_shuffler_dealer(mcw: World):
    (huitain, sixain, deck) = mcw.receive(mcw.spec("huitain"), mcw.spec(), mcw.spec("jeu"))
    _refused("GAME-12", mcw.issue, mcw.session("punto_banco"), sixain, deck)
    mcw.issue(mcw.session("punto_banco"), huitain)
    mcw.issue(mcw.session("super_prive"), sixain)


def test_game_14_fr_punto_banco_plain_backed_sixain_not_reused_once_imperfect(frw: World):
    (sixain, worn) = frw.receive(frw.spec(), frw.spec())
    services.cards_withdraw(
        units=[worn], status="out_of_use", reason="n'est plus parfait", actor=frw.directeur_responsable
    )
    _refused("GAME-14", frw.issue, frw.session("punto_banco"), worn)
    _refused("GAME-14", frw.issue, frw.session("punto_banco"), *list(sixain.members.all())[:3])
    frw.issue(frw.session("punto_banco"), sixain)
    assert rule_for(frw.est, "punto_banco").plain_back


def test_game_23_mc_trente_et_quarante_six_decks(mcw: World):
    (huitain, sixain) = mcw.receive(mcw.spec("huitain"), mcw.spec())
    _refused("GAME-23", mcw.issue, mcw.session("trente_quarante"), huitain)
    mcw.issue(mcw.session("trente_quarante"), sixain)


def test_game_26_mc_chemin_de_fer_three_and_three_colours(mcw: World):
    (mono, good) = mcw.receive(mcw.spec(colours=("bleu", "bleu")), mcw.spec())
    _refused("GAME-26", mcw.issue, mcw.session("chemin_de_fer"), mono)
    mcw.issue(mcw.session("chemin_de_fer"), good)


def test_game_30_banque_a_tout_va_a_complete_new_sixain_each_of_two_seances(mcw: World):
    (used, fresh, third) = mcw.receive(mcw.spec(), mcw.spec(), mcw.spec())
    session = mcw.open_table("blackjack", used)
    mcw.give_back(used)
    table_session_close(session=session, actor=mcw.director)
    services.cards_post_control(
        unit=CardUnit.objects.get(pk=used.pk), actor=mcw.cartier, complete=True, order_restored=True, marks_found=False
    )
    tav = mcw.session("banque_tout_va")
    _refused("GAME-30", mcw.issue, tav, used)
    _refused("GAME-30", mcw.issue, tav, *list(fresh.members.all()))
    mcw.issue(tav, fresh)
    mcw.session("banque_tout_va", seance=mcw.new_seance(period="apres_midi"))
    third_seance = mcw.new_seance(period="nuit")
    _refused("GAME-30", mcw.issue, mcw.session("banque_tout_va", seance=third_seance), third)


def test_game_32_fr_ultimate_holdem_one_deck_or_a_red_and_a_blue(frw: World):
    (sixain,) = frw.receive(frw.spec())
    reds = list(sixain.members.filter(back_colour="rouge"))
    blues = list(sixain.members.filter(back_colour="bleu"))
    _refused("GAME-32", frw.issue, frw.session("ultimate_holdem"), reds[0], reds[1])
    frw.issue(frw.session("ultimate_holdem"), reds[0], blues[0])
    reds[0].refresh_from_db()
    assert reds[0].parent_id == sixain.pk and reds[0].status == ItemStatus.ISSUED  # link to its sixain kept


def test_game_34_fr_three_card_poker_a_new_deck_each_seance(frw: World):
    (sixain,) = frw.receive(frw.spec())
    deck, other = list(sixain.members.order_by("position"))[:2]
    session = frw.open_table("three_card_poker", deck)
    frw.give_back(deck)
    table_session_close(session=session, actor=frw.director)
    deck.refresh_from_db()
    assert deck.status == ItemStatus.IN_STOCK and not deck.is_new
    later = frw.session("three_card_poker", seance=frw.new_seance(days_ago=-1))
    _refused("GAME-34", frw.issue, later, deck)
    _refused("GAME-34", frw.issue, later, other, list(sixain.members.order_by("position"))[2])
    frw.issue(later, other)


def test_game_39_fr_chemin_de_fer_a_whole_sixain_three_and_three(frw: World):
    (sixain,) = frw.receive(frw.spec())
    _refused("GAME-39", frw.issue, frw.session("chemin_de_fer"), *list(sixain.members.all()))
    frw.issue(frw.session("chemin_de_fer"), sixain)


def test_game_40_fr_baccara_deux_tableaux_new_decks_two_and_one_or_three_and_three(frw: World):
    (sixain, other) = frw.receive(frw.spec(), frw.spec())
    reds = list(sixain.members.filter(back_colour="rouge"))
    blues = list(sixain.members.filter(back_colour="bleu"))
    session = frw.session("baccara_deux_tableaux")
    _refused("GAME-40", frw.issue, session, reds[0], reds[1], reds[2])  # 3 + 0
    frw.issue(session, reds[0], reds[1], blues[0])  # banque limitée: 2 + 1
    frw.issue(frw.session("baccara_deux_tableaux", seance=frw.new_seance(period="apres_midi")), other)
