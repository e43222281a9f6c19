import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from ledgers.registers import services
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.models import Entry
from ledgers.registers.printing import render_register
from ledgers.registers.printing.blocks import RED
from ledgers.registers.selectors import entries_for_print
from tests.factories import make_user, open_register

from .printed import ACCENTS, filled_register, page_texts

PAGE = re.compile(r"Page (\d+) / (\d+)")
LAST = re.compile(r"Dernière entrée de la page : n° (\d+)")


def render(register, **kwargs) -> bytes:
    out = io.BytesIO()
    render_register(register, out, **kwargs)
    return out.getvalue()


@pytest.fixture
def register(mc):
    return filled_register(mc, records=60)


def test_reg_21_every_page_numbered_n_of_n_with_paraphe_and_digest(register):
    pages = page_texts(render(register))
    total = len(pages)
    assert total >= 3
    hashes = dict(Entry.objects.filter(register=register).values_list("seq", "entry_hash"))
    previous = 0
    for number, text in enumerate(pages, start=1):
        assert PAGE.findall(text) == [(str(number), str(total))]
        assert "Coté et paraphé par" in text and "PA" in text  # the paraphe block, every page
        if number == 1:  # the cover of the first volume: no entry before it
            assert not LAST.search(text)
            continue
        seq = int(LAST.search(text).group(1))
        assert f"Empreinte : {hashes[seq][:16]}" in text
        assert seq >= previous  # the page that ends the volume repeats the last entry
        previous = seq
    assert previous == register.head_seq


def test_reg_21_cover_first(register):
    pages = page_texts(render(register))
    cover = pages[0]
    assert f"Registre n° {register.number} — tome 1" in cover
    for text in (
        "Casino de Monte-Carlo",
        "Main courante de la direction des jeux",
        "Principauté de Monaco",
        f"Nombre de pages\n{len(pages)}",
        f"n° 1 à {register.head_seq}",
    ):
        assert text in cover
    assert f"Le présent tome comporte {len(pages)} pages, numérotées de 1 à {len(pages)}" in cover


def test_reg_21_opening_act_first(register):
    first = page_texts(render(register))[1]  # after the cover
    opening = Entry.objects.get(register=register, seq=1)
    assert "Acte d'ouverture — cote et paraphe" in first
    assert opening.payload["authority"] in first
    assert "Commissaire du Gouvernement" in first
    assert "a été coté et paraphé par" in first  # the opening statement (the authority's own words)
    assert re.search(r"Le présent exemplaire comporte (\d+) pages, numérotées de 1 à \1\.", first)
    assert opening.entry_hash in first


def test_reg_04_visa_stamp_where_it_falls(register):
    text = "\n".join(page_texts(render(register)))
    visa = Entry.objects.get(register=register, kind="visa")
    stamp = text.index(f"Visa — entrée n° {visa.seq}")
    assert text.index("Fait n° 10\n") < stamp < text.index("Fait n° 11\n")
    covered = Entry.objects.get(register=register, seq=visa.payload["covers_seq"])
    assert f"n° 1 à {covered.seq} — empreinte de l'entrée n° {covered.seq} : {covered.entry_hash[:16]}" in text
    assert "« Vu et vérifié sans observation. »" in text
    assert "Service de Contrôle des Jeux" in text


def _drawn_in(pdf: bytes, color) -> str:
    """The text drawn with a given fill colour (pypdf's operator visitor)."""
    current, found = None, []

    def before(operator, operands, cm, tm):
        nonlocal current
        if operator == b"rg":
            current = tuple(round(float(v), 2) for v in operands)

    def text(chunk, cm, tm, font, size):
        if current == tuple(round(v, 2) for v in color):
            found.append(chunk)

    for page in PdfReader(io.BytesIO(pdf)).pages:
        page.extract_text(visitor_operand_before=before, visitor_text=text)
    return "".join(found)


def test_reg_27_correction_in_red_pointing_to_the_entry_with_its_approval(register):
    pdf = render(register)
    correction = Entry.objects.get(register=register, kind="correction")
    red = _drawn_in(pdf, RED)
    assert "Correction de l'entrée n° 5 — motif : erreur de table — approuvée en toutes lettres : " in red
    assert "« approuvé : lire table numéro quatre »" in red
    assert "Fait corrigé" in red and "→ n° 5" in red
    # The corrected entry stays printed, and says where its correction is.
    text = "\n".join(page_texts(pdf))
    assert "Fait n° 5\n" in text
    assert f"Entrée corrigée par l'entrée n° {correction.seq}." in red
    assert "Fait n° 6" not in red and "Fait n° 35" not in red  # black ink again after the red


def test_reg_21_closing_act_last(mc):
    register = filled_register(mc, records=5, close=True)
    last = page_texts(render(register))[-1]
    closing = Entry.objects.get(register=register, kind="closing")
    assert f"Acte de clôture — entrée n° {closing.seq}" in last
    assert closing.payload["statement"] in last
    assert closing.entry_hash in last
    assert "Registre en cours" not in last


def test_register_in_use_ends_with_its_head(register):
    last = page_texts(render(register))[-1]
    assert f"Registre en cours — dernière entrée n° {register.head_seq}, empreinte {register.head_hash}." in last


def test_same_state_same_bytes(register):
    first = render(register)
    assert render(register) == first
    assert PdfReader(io.BytesIO(first)).metadata["/CreationDate"].startswith("D:2")
    services.entry_append(
        register=register,
        actor=make_user(register.establishment, "inspecteur"),
        role="inspecteur",
        payload={"subject": "Encore", "text": "Un fait de plus."},
    )
    register.refresh_from_db()
    assert render(register) != first


def test_french_characters_and_euro_print(register):
    text = " ".join(" ".join(page_texts(render(register))).split())  # lines wrap between words
    assert ACCENTS in text


def test_english_when_asked(register):
    pages = page_texts(render(register, lang="en"))
    assert "Opening act — numbering and initialling" in pages[1]
    assert f"Page 2 / {len(pages)}" in pages[1]
    assert "Last entry on this page" in pages[1]


def test_long_text_wraps_and_a_row_taller_than_a_page_continues(mc):
    register = open_register(mc, "main_courante")
    words = [f"mot{i:04d}" for i in range(1500)]
    services.entry_append(
        register=register,
        actor=make_user(mc, "inspecteur"),
        role="inspecteur",
        payload={"subject": "Rapport", "text": " ".join(words), "event_at": "x" * 300},
    )
    register.refresh_from_db()
    pages = page_texts(render(register))
    assert len(pages) >= 3
    text = "".join(pages).replace("\n", " ")
    assert all(word in text for word in (words[0], words[700], words[-1]))


PRINTING_KIND = register_kind(
    RegisterKind(
        code="printing_test",
        title="Registre d'essai d'impression",
        purpose="Vérifier l'impression des valeurs imbriquées.",
        columns=(Column("deck.serial", "Jeu", 1.0), Column("items", "Éléments", 2.0), Column("ok", "Conforme", 0.6)),
        record_roles=("inspecteur",),
    )
)


def test_dotted_keys_lists_and_booleans(mc):
    register = open_register(mc, PRINTING_KIND.code)
    services.entry_append(
        register=register,
        actor=make_user(mc, "inspecteur"),
        role="inspecteur",
        payload={"deck": {"serial": "JX-0042"}, "items": ["as", "roi"], "ok": True},
    )
    register.refresh_from_db()
    text = page_texts(render(register))[1]
    assert "JX-0042" in text and "as, roi" in text and "oui" in text


def test_entries_stream_page_by_page_of_consecutive_seqs(register):
    with CaptureQueriesContext(connection) as queries:
        seqs = [entry.seq for entry in entries_for_print(register, upto=register.head_seq, page_size=25)]
    assert seqs == list(range(1, register.head_seq + 1))
    reads = [q["sql"] for q in queries if '"registers_entry"."payload"' in q["sql"]]
    assert len(reads) == -(-register.head_seq // 25)  # one bounded range per page, whatever the size
    assert all('"seq" >= ' in sql and '"seq" < ' in sql and "OFFSET" not in sql for sql in reads)
