"""The QR code of every printed page decodes to the page's last entry, read back from the PDF."""

import datetime
import io
import re

import pypdfium2
import pytest
import zxingcpp
from django.core.management import call_command

from ledgers.registers.kinds import get_kind
from ledgers.registers.printing.register import render_register
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.synthetic import synthetic_payloads
from tests.registers.conftest import opened_register
from tests.registers.test_tree_heads import HOST

LAST_ON_PAGE = re.compile(r"Dernière entrée de la page : n° (\d+)")


def page_qr_codes(pdf: bytes) -> list[tuple[str, list[str]]]:
    """For each page: its text, and the text of every QR code found on its image at 200 dpi."""
    document = pypdfium2.PdfDocument(pdf)
    pages = []
    for page in document:
        text = page.get_textpage().get_text_range()
        image = page.render(scale=200 / 72, grayscale=True).to_pil()
        pages.append(
            (text, [code.text for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)])
        )
    document.close()
    return pages


@pytest.mark.django_db
def test_reg_21_every_printed_page_carries_a_qr_code_that_decodes_to_its_last_entry(mc, mc_staff):
    register = opened_register(mc, mc_staff)
    entries_bulk_append(
        register=register,
        actor=mc_staff.writer,
        role=mc_staff.writer_role,
        payloads=synthetic_payloads(get_kind("main_courante"), 80, start=datetime.datetime(2025, 1, 1, 20, 0)),
    )
    call_command("seal_checkpoints", stdout=io.StringIO())
    out = io.BytesIO()
    render_register(register, out)
    hashes = dict(register.entries.values_list("seq", "entry_hash"))
    checked = set()
    for text, codes in page_qr_codes(out.getvalue()):
        last = LAST_ON_PAGE.search(text)
        if last is None:
            assert codes == []
            continue
        seq = int(last.group(1))
        assert codes == [f"LEDGER2 {register.number} {seq} {hashes[seq].upper()} MCB 1 {len(hashes)} {HOST}"]
        checked.add(seq)
    assert len(checked) >= 3 and max(checked) == max(hashes)
