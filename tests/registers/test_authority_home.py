"""The authorities' home: the registers awaiting their visa or their cote et paraphe, one line per
kind with its count and oldest wait, the longest waiting first, read at the same cost whatever the
registers hold."""

from django.urls import reverse

from ledgers.registers import selectors
from ledgers.registers.dashboard import AWAITING_PAGE_PARAM, AWAITING_PAGE_SIZE
from ledgers.registers.kinds import AUTHORISATIONS
from ledgers.registers.services import entry_append, register_create, visa_sign
from tests.factories import DEFAULT_PASSWORD
from tests.registers.conftest import opened_register


def write(register, staff, count: int) -> None:
    for n in range(count):
        entry_append(register=register, actor=staff.writer, role=staff.writer_role, payload={"subject": f"fait {n}"})
    register.refresh_from_db()


def awaiting(user, establishment):
    """The volumes awaiting ``user``, beside the house's register of authorisations (the staff's
    roles the fixtures grant, which the authority visas too)."""
    return [r for r in selectors.registers_awaiting_authority(user, establishment) if r.kind != AUTHORISATIONS.code]


def test_registers_awaiting_a_visa_come_by_their_oldest_entry_not_yet_visaed(mc, mc_staff):
    first, second = opened_register(mc, mc_staff, qualifier="a"), opened_register(mc, mc_staff, qualifier="b")
    write(first, mc_staff, 2)
    write(second, mc_staff, 2)
    write(first, mc_staff, 1)
    waiting = list(awaiting(mc_staff.visa, mc))
    assert [(r.number, r.to_visa) for r in waiting] == [(first.number, 3), (second.number, 2)]
    assert waiting[0].waiting_since == first.entries.get(seq=2).recorded_at  # seq 1: the opening act

    # Visaed up to its second entry, the first register waits only for its third, written after
    # the second register's entries.
    visa_sign(register=first, actor=mc_staff.visa, up_to_seq=3, statement="Vu.")
    waiting = list(awaiting(mc_staff.visa, mc))
    assert [(r.number, r.to_visa) for r in waiting] == [(second.number, 2), (first.number, 1)]
    assert waiting[1].waiting_since == first.entries.get(seq=4).recorded_at

    first.refresh_from_db()
    visa_sign(register=first, actor=mc_staff.visa, up_to_seq=first.head_seq, statement="Vu.")
    assert [r.number for r in awaiting(mc_staff.visa, mc)] == [second.number]


def test_a_volume_to_cote_and_paraph_waits_for_its_authority_only(mc, mc_staff):
    volume = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director, qualifier="c")
    assert [r.number for r in awaiting(mc_staff.authority, mc)] == [volume.number]
    assert list(awaiting(mc_staff.writer, mc)) == []
    assert list(awaiting(mc_staff.visa, mc)) == []


def home(client, user, page: int = 1):
    client.login(username=user.username, password=DEFAULT_PASSWORD)
    return client.get(reverse("dashboard"), {AWAITING_PAGE_PARAM: page})


def test_the_home_pages_the_waiting_registers_and_reads_them_at_a_constant_cost(
    client, fr, fr_staff, django_assert_max_num_queries
):
    oldest = opened_register(fr, fr_staff, qualifier="0")
    write(oldest, fr_staff, 2)
    home(client, fr_staff.visa)  # caches warm (content types, session)
    with django_assert_max_num_queries(100) as captured:
        response = home(client, fr_staff.visa)
    few = len(captured)
    html = response.content.decode()
    assert reverse("registers:visa", args=[oldest.number]) in html and "2 entrées à viser" in html
    assert "depuis" in html

    # More registers than a page, each with more history: the same queries.
    for n in range(1, AWAITING_PAGE_SIZE + 3):
        write(opened_register(fr, fr_staff, qualifier=str(n)), fr_staff, 3)
    write(oldest, fr_staff, 40)
    with django_assert_max_num_queries(few):
        response = home(client, fr_staff.visa)
    html = response.content.decode()
    assert reverse("registers:visa", args=[oldest.number]) in html  # the oldest waits first
    assert "42 entrées à viser" in html
    # One line for the kind, its volumes counted and their entries summed, opened on demand; the
    # house's register of authorisations, which also awaits the visa, is the only other line.
    count = AWAITING_PAGE_SIZE + 3
    assert html.count('class="kind-group"') == 2 and "Registre des habilitations" in html
    assert f"{count} registres · {42 + 3 * (count - 1)} entrées à viser" in html
    assert "page 1 sur" not in html
