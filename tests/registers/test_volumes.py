"""Registers print as numbered volumes (tomes): cover, page count, duplicates, paraphe (REG-21)."""

import hashlib
import io
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.test import override_settings
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.registers import services
from ledgers.registers.printing import render_register, render_register_volumes
from ledgers.registers.printing.models import VolumeParaphe, VolumePrint
from ledgers.registers.printing.services import volume_paraphe, volume_print
from tests.factories import DEFAULT_PASSWORD, make_user

from .printed import filled_register, page_texts

PAGE = re.compile(r"Page (\d+) / (\d+)")
LAST = re.compile(r"Dernière entrée de la page : n° (\d+)")
SMALL_VOLUMES = override_settings(REGISTER_VOLUME_PAGES=2)


@pytest.fixture
def register(mc):
    return filled_register(mc, records=60)


def all_volumes(register) -> dict[int, bytes]:
    files: dict[int, io.BytesIO] = {}
    render_register_volumes(register, lambda v: files.setdefault(v.number, io.BytesIO()))
    return {number: f.getvalue() for number, f in files.items()}


def one(register, **kwargs) -> bytes:
    out = io.BytesIO()
    render_register(register, out, **kwargs)
    return out.getvalue()


def authority(register):
    est = register.establishment
    return make_user(est, register.kind_info.paraph_roles_for(est.jurisdiction)[0])


@SMALL_VOLUMES
def test_reg_21_register_prints_as_numbered_volumes_each_with_its_cover(register):
    volumes = all_volumes(register)
    assert len(volumes) >= 3
    previous_last = 0
    for number, pdf in volumes.items():
        pages = page_texts(pdf)
        total = len(pages)
        assert [PAGE.findall(text) for text in pages] == [[(str(n), str(total))] for n in range(1, total + 1)]
        cover = pages[0]
        assert f"Registre n° {register.number} — tome {number}" in cover
        assert "Casino de Monte-Carlo" in cover and "Main courante de la direction des jeux" in cover
        assert f"Nombre de pages\n{total}" in cover
        assert f"Le présent tome comporte {total} pages, numérotées de 1 à {total}" in cover
        if number > 1:
            assert f"Il fait suite au tome n° {number - 1}, clos à l'entrée n° {previous_last}" in cover
        if number < len(volumes):
            assert total == 1 + 2 + 1  # cover, two pages of entries, the closing statement
            assert f"Clôture du tome n° {number}" in pages[-1] and "Signature" in pages[-1]
        else:
            assert "Registre en cours" in pages[-1]
        seqs = [int(m.group(1)) for text in pages[1:] if (m := LAST.search(text))]
        assert seqs == sorted(seqs) and seqs[0] >= previous_last
        previous_last = seqs[-1]
    assert previous_last == register.head_seq


@SMALL_VOLUMES
def test_reg_21_one_volume_prints_alone_the_same_bytes(register):
    volumes = all_volumes(register)
    assert one(register, volume=2) == volumes[2]
    assert one(register) == volumes[len(volumes)]  # by default the volume in use
    with pytest.raises(ValueError):
        one(register, volume=len(volumes) + 1)


@SMALL_VOLUMES
def test_reg_21_a_complete_volume_keeps_its_bytes_when_the_register_grows(register):
    first = one(register, volume=1)
    writer = make_user(register.establishment, "inspecteur")
    for i in range(30):
        services.entry_append(
            register=register,
            actor=writer,
            role="inspecteur",
            payload={"event_at": "2025-03-15T01:00:00", "subject": f"Suite {i}", "text": "Fait."},
        )
    register.refresh_from_db()
    assert one(register, volume=1) == first


def test_reg_21_reprint_is_a_duplicata_recorded_as_such(register):
    reader = make_user(register.establishment, "inspecteur")
    original, duplicate, again = io.BytesIO(), io.BytesIO(), io.BytesIO()
    volume_print(register=register, out=original, actor=reader)
    volume_print(register=register, out=duplicate, actor=reader)
    volume_print(register=register, out=again, actor=None)
    assert original.getvalue() == one(register)  # the original: same state, same bytes
    assert not any("DUPLICATA" in text for text in page_texts(original.getvalue()))
    assert all("DUPLICATA" in text for text in page_texts(duplicate.getvalue()))
    assert again.getvalue() == duplicate.getvalue()
    prints = list(VolumePrint.objects.filter(register=register).order_by("pk"))
    assert [(p.volume, p.last_seq, p.duplicate) for p in prints] == [
        (1, register.head_seq, False),
        (1, register.head_seq, True),
        (1, register.head_seq, True),
    ]
    assert prints[0].digest == hashlib.sha256(original.getvalue()).hexdigest()
    assert prints[0].printed_by == reader and prints[2].printed_by is None


def test_reg_21_a_new_state_prints_a_new_original(register):
    volume_print(register=register, out=io.BytesIO(), actor=None)
    services.entry_append(
        register=register,
        actor=make_user(register.establishment, "inspecteur"),
        role="inspecteur",
        payload={"subject": "Encore", "text": "Un fait de plus."},
    )
    register.refresh_from_db()
    out = io.BytesIO()
    volume_print(register=register, out=out, actor=None)
    assert not any("DUPLICATA" in text for text in page_texts(out.getvalue()))
    assert VolumePrint.objects.filter(register=register, duplicate=False).count() == 2


def test_reg_21_print_history_is_append_only(register):
    _, printed = volume_print(register=register, out=io.BytesIO(), actor=None)
    with pytest.raises(Exception, match="append-only table"), transaction.atomic():
        VolumePrint.objects.filter(pk=printed.pk).update(duplicate=True)
    with pytest.raises(IntegrityError), transaction.atomic():  # one original per state
        VolumePrint.objects.create(
            register=register, volume=1, last_seq=printed.last_seq, lang="fr", pages=1, digest="0" * 64
        )


@SMALL_VOLUMES
def test_reg_21_paraphed_volume_page_count_frozen_a_differing_print_refused(register):
    record = volume_paraphe(register=register, volume=1, actor=authority(register), paraphe="C. G.")
    assert record.pages == 4 and len(record.page_digests) == 2
    # The paraphe is the authority's signed act: a line in their name names each page's digest.
    line = services.authorisations_register(register.establishment).entries.get(payload__register=register.number)
    assert line.actor_user == record.authority and line.role == record.role
    assert line.payload["page_digests"] == record.page_digests and line.payload["volume"] == 1
    out = io.BytesIO()
    volume_print(register=register, out=out, actor=None, volume=1)  # the same pages: printed
    assert len(PdfReader(io.BytesIO(out.getvalue())).pages) == 4
    with override_settings(REGISTER_VOLUME_PAGES=3):  # the same volume would now hold other pages
        with pytest.raises(RuleViolation) as exc:
            volume_print(register=register, out=io.BytesIO(), actor=None, volume=1)
    assert exc.value.code == "REG-21"
    assert VolumePrint.objects.filter(register=register).count() == 1  # the refused print is not recorded


@SMALL_VOLUMES
def test_reg_21_volume_in_use_or_already_paraphed_refused(register):
    volumes = all_volumes(register)
    signer = authority(register)
    with pytest.raises(RuleViolation, match="en cours") as exc:
        volume_paraphe(register=register, volume=len(volumes), actor=signer, paraphe="C. G.")
    assert exc.value.code == "REG-21"
    volume_paraphe(register=register, volume=1, actor=signer, paraphe="C. G.")
    with pytest.raises(RuleViolation, match="déjà été paraphé"):
        volume_paraphe(register=register, volume=1, actor=signer, paraphe="C. G.")
    with pytest.raises(ValidationError):
        volume_paraphe(register=register, volume=len(volumes) + 1, actor=signer, paraphe="C. G.")
    with pytest.raises(PermissionDenied):
        volume_paraphe(register=register, volume=2, actor=make_user(register.establishment, "inspecteur"), paraphe="X")
    assert VolumeParaphe.objects.filter(register=register).count() == 1


def test_reg_21_last_volume_of_a_closed_register_may_be_paraphed(mc):
    register = filled_register(mc, records=5, close=True)
    record = volume_paraphe(register=register, volume=1, actor=authority(register), paraphe="C. G.")
    assert record.last_seq == register.head_seq


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@SMALL_VOLUMES
def test_reg_21_api_print_history_and_volume_paraphe(register):
    reader = make_user(register.establishment, "inspecteur")
    volume_print(register=register, out=io.BytesIO(), actor=reader)
    volume_print(register=register, out=io.BytesIO(), actor=reader)
    rows = api_as(reader).get(reverse("api-volume-prints", args=[register.number])).json()["results"]
    assert [row["duplicate"] for row in rows] == [False, True]
    signer = authority(register)
    url = reverse("api-volume-paraphe", args=[register.number, 1])
    assert api_as(reader).post(url, {"paraphe": "X", "password": DEFAULT_PASSWORD}).status_code == 403
    unsigned = api_as(signer).post(url, {"paraphe": "C. G.", "password": "pas le bon"})
    assert unsigned.status_code == 400 and not VolumeParaphe.objects.exists()
    created = api_as(signer).post(url, {"paraphe": "C. G.", "password": DEFAULT_PASSWORD})
    assert created.status_code == 201 and created.json()["pages"] == 4
    again = api_as(signer).post(url, {"paraphe": "C. G.", "password": DEFAULT_PASSWORD})
    assert again.status_code == 409 and again.json()["code"] == "REG-21"
    rows = api_as(reader).get(reverse("api-volume-paraphes", args=[register.number])).json()["results"]
    assert [(row["volume"], row["paraphe"]) for row in rows] == [(1, "C. G.")]


@SMALL_VOLUMES
def test_reg_21_volumes_page_paraphe_and_print_history(client, register):
    reader = make_user(register.establishment, "inspecteur")
    volume_print(register=register, out=io.BytesIO(), actor=reader)
    again = volume_print(register=register, out=io.BytesIO(), actor=reader)[1]
    url = reverse("registers:volumes", args=[register.number])
    client.force_login(reader)
    detail = client.get(reverse("registers:detail", args=[register.number])).content.decode()
    assert url in detail
    page = client.get(url).content.decode()
    assert "DUPLICATA" in page and again.digest in page and "Parapher le tome" not in page
    assert client.post(url, {"volume": 1, "paraphe": "X", "password": DEFAULT_PASSWORD}).status_code == 403
    assert not VolumeParaphe.objects.exists()
    signer = authority(register)
    client.force_login(signer)
    wrong = client.post(url, {"volume": 1, "paraphe": "C. G.", "password": "pas le bon"})
    assert wrong.status_code == 200 and "Mot de passe incorrect" in wrong.content.decode()
    assert not VolumeParaphe.objects.exists()
    assert client.post(url, {"volume": 1, "paraphe": "C. G.", "password": DEFAULT_PASSWORD}).status_code == 302
    record = VolumeParaphe.objects.get(register=register, volume=1)
    assert record.authority == signer and record.pages == 4
    refused = client.post(url, {"volume": 1, "paraphe": "C. G.", "password": DEFAULT_PASSWORD})
    assert refused.status_code == 409 and "REG-21" in refused.content.decode()
    assert VolumeParaphe.objects.count() == 1
    assert f'<td data-label="Paraphe">{record.paraphe}</td>' in client.get(url).content.decode()
