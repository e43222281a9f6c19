"""Volume boundaries: stored when a layout completes a volume, and the volume in use laid out from
its own first entry, to the same bytes as a layout of the whole register (REG-21)."""

import io

import pytest
from django.db import connection, transaction
from django.test import override_settings

from bench.scale import range_starts
from ledgers.registers import services
from ledgers.registers.models import Entry
from ledgers.registers.printing import render_register, render_register_volumes
from ledgers.registers.printing.models import VolumeBoundary
from tests.factories import make_user

from .printed import LONG, filled_register

SMALL_VOLUMES = override_settings(REGISTER_VOLUME_PAGES=2)


def all_volumes(register) -> dict[int, bytes]:
    files: dict[int, io.BytesIO] = {}
    render_register_volumes(register, lambda v: files.setdefault(v.number, io.BytesIO()))
    return {number: f.getvalue() for number, f in files.items()}


def one(register, **kwargs) -> bytes:
    out = io.BytesIO()
    render_register(register, out, **kwargs)
    return out.getvalue()


def entry_ranges(register, action) -> list[int]:
    """The lowest seq of every range of entries ``action`` reads."""
    starts = []

    def record(execute, sql, params, many, context):
        starts.extend(range_starts(sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        action()
    return starts


@pytest.fixture
def register(mc):
    return filled_register(mc, records=60)


@SMALL_VOLUMES
@pytest.mark.django_db
def test_reg_21_the_boundaries_of_complete_volumes_are_stored(register):
    volumes = all_volumes(register)
    bounds = list(VolumeBoundary.objects.filter(register=register).order_by("volume"))
    assert [b.volume for b in bounds] == list(range(1, len(volumes)))  # every volume but the one in use
    first = 1
    for b in bounds:
        assert (b.lang, b.first_seq, b.pages) == ("fr", first, 4)  # cover, 2 pages of entries, closing page
        assert b.last_hash == Entry.objects.get(register=register, seq=b.last_seq).entry_hash
        first = b.last_seq + 1
    all_volumes(register)  # laid out again: stored once
    assert VolumeBoundary.objects.filter(register=register).count() == len(bounds)
    with pytest.raises(Exception, match="append-only table"), transaction.atomic():
        VolumeBoundary.objects.filter(pk=bounds[0].pk).update(last_seq=1)


@SMALL_VOLUMES
@pytest.mark.django_db
def test_reg_21_printing_the_volume_in_use_does_not_read_earlier_entries(register):
    scratch_starts = entry_ranges(register, lambda: one(register))  # no boundary yet: laid out from entry 1
    assert min(scratch_starts) == 1
    full = all_volumes(register)
    last = VolumeBoundary.objects.filter(register=register).latest("volume")
    printed = []
    starts = entry_ranges(register, lambda: printed.append(one(register)))
    assert starts and min(starts) == last.last_seq + 1  # only the volume's own entries
    assert printed[0] == full[len(full)]  # the same bytes as the layout of the whole register


@SMALL_VOLUMES
@pytest.mark.django_db
@pytest.mark.parametrize("long_every", [0, 1, 3])
def test_reg_21_every_volume_laid_out_from_its_boundary_prints_the_same_bytes(mc, long_every):
    """Entries taller than a row (several blocks) may run over a volume's cut: the next volume
    skips the blocks already printed."""
    register = filled_register(mc, records=60)
    writer = make_user(register.establishment, "inspecteur")
    for i in range(40):
        text = " ".join([LONG] * 30) if long_every and i % long_every == 0 else f"Fait n° {i}."
        services.entry_append(
            register=register, actor=writer, role="inspecteur", payload={"subject": f"Suite {i}", "text": text}
        )
    register.refresh_from_db()
    full = all_volumes(register)
    assert len(full) >= 3
    for number, pdf in full.items():
        assert one(register, volume=number) == pdf, number
    if long_every == 1:  # every entry runs over several blocks: cuts fall inside entries
        assert VolumeBoundary.objects.filter(register=register, carried__gt=0).exists()
