"""The shared custody and incident layers, on points the card domain relies on and other domains
(dice, shoes) share: volumes told apart by qualifier, authority-opened incidents, notice times."""

import datetime

from django.utils import timezone

from ledgers.cards.domains import CARDS
from ledgers.custody.selectors import book_stock, intake_registers
from ledgers.incidents.services import incident_notify, incident_open
from ledgers.registers.services import entry_append
from tests.cards.conftest import World
from tests.factories import open_register


def test_book_stock_reads_only_the_domains_own_volumes(frw: World):
    frw.receive(frw.spec(), frw.spec())
    dice = open_register(frw.est, "carnet_19", "des")  # the dice section of the same carnet modèle 19
    entry_append(
        register=dice,
        actor=frw.directeur_responsable,
        role="directeur_responsable",
        payload={"movement": "IN", "category": "sixain", "quantity": 5, "serials": []},
    )
    assert book_stock(CARDS, frw.est) == {"sixain": 2}
    assert list(intake_registers(CARDS, frw.est)) == [frw.registers["carnet"]]


def test_annex_ledger_volume_is_per_domain(mcw: World):
    (unit,) = mcw.receive()
    from ledgers.custody.services import items_transfer

    items_transfer(domain=CARDS, items=[unit], to_location=mcw.annex, actor=mcw.cartier)
    assert mcw.registers["annexe"].qualifier == "cards"
    assert mcw.registers["annexe"].entries.filter(payload__movement="TRANSFER").count() == 1


def test_authority_may_open_an_incident_and_notices_are_to_the_minute(frw: World):
    found = timezone.now().replace(second=40)
    incident = incident_open(
        establishment=frw.est,
        category="custody_check",
        actor=frw.police,
        description="Écart constaté à l'ouverture de l'armoire",
        found_at=found,
    )
    # a form gives the notice time to the minute: the same minute as the finding is accepted
    incident_notify(
        incident=incident,
        recipient_role="police",
        recipient_name="Cne Vidal",
        channel="in_person",
        notified_at=found.replace(second=0),
        actor=frw.directeur_responsable,
    )
    assert incident.notices.count() == 1
    assert incident.found_at - datetime.timedelta(minutes=1) < incident.notices.get().notified_at
