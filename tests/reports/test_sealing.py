import io

import pytest
from asn1crypto import x509
from cryptography.hazmat.primitives.serialization import Encoding, pkcs12
from django.core.management import call_command
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

from ledgers.core.demo import DEMO_FR, DEMO_MC
from ledgers.core.models import Establishment
from ledgers.registers.printing import render_register
from ledgers.reports import demo
from ledgers.reports.documents import register_pdf
from ledgers.reports.sealing import SealUnavailable, demo_certificate_create
from tests.factories import EstablishmentFactory


def certificate(path) -> x509.Certificate:
    _, cert, _ = pkcs12.load_key_and_certificates(path.read_bytes(), None)
    return x509.Certificate.load(cert.public_bytes(Encoding.DER))


def validate(pdf: bytes, trusted: x509.Certificate):
    signature = PdfFileReader(io.BytesIO(pdf)).embedded_signatures[0]
    return validate_pdf_signature(signature, ValidationContext(trust_roots=[trusted], allow_fetching=False))


def test_sealed_register_validates_and_covers_the_whole_file(register, demo_seal):
    sealed, plain = io.BytesIO(), io.BytesIO()
    register_pdf(register, sealed, lang="fr", sealed=True)
    render_register(register, plain)
    status = validate(sealed.getvalue(), certificate(demo_seal))
    assert status.intact and status.valid and status.trusted and status.bottom_line
    assert status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    assert status.signing_cert.subject.native["common_name"] == register.establishment.name
    # The seal is an incremental update over the very bytes of the unsealed copy.
    assert sealed.getvalue().startswith(plain.getvalue())


def test_establishment_certificate_from_the_environment(register, demo_seal, report_files, monkeypatch):
    other = Establishment(code="autre", name="Signataire configuré", jurisdiction="MC")
    path, _ = demo_certificate_create(other)  # any PKCS#12 will do
    monkeypatch.setenv("LEDGERS_SEAL_PKCS12_MCB", str(path))
    sealed = io.BytesIO()
    register_pdf(register, sealed, lang="fr", sealed=True)
    status = validate(sealed.getvalue(), certificate(path))
    assert status.bottom_line and status.signing_cert.subject.native["common_name"] == "Signataire configuré"


def test_no_certificate_no_seal(register, settings):
    settings.LEDGERS_SEAL_DEMO = False
    with pytest.raises(SealUnavailable):
        register_pdf(register, io.BytesIO(), lang="fr", sealed=True)


def test_render_register_command(register, demo_seal, report_files):
    plain, sealed = report_files / "plain.pdf", report_files / "sealed.pdf"
    call_command("render_register", register.number, out=str(plain), stdout=io.StringIO())
    call_command("render_register", register.number, out=str(sealed), sealed=True, lang="en", stdout=io.StringIO())
    expected = io.BytesIO()
    render_register(register, expected)
    assert plain.read_bytes() == expected.getvalue()
    assert validate(sealed.read_bytes(), certificate(demo_seal)).bottom_line


def test_demo_seeding_creates_each_certificate_once(mc, report_files):
    """One certificate for each demo establishment (a house of the user's gets none), made once."""
    houses = [EstablishmentFactory(code=code, name=f"Démo {code}") for code in (DEMO_MC, DEMO_FR)]
    first = io.StringIO()
    demo.seed(stdout=first)
    created = {p: p.read_bytes() for p in (report_files / "seal").iterdir()}
    assert len(created) == 2 and all(house.name in first.getvalue() for house in houses)
    assert mc.name not in first.getvalue()
    again = io.StringIO()
    demo.seed(stdout=again)
    assert again.getvalue() == "" and {p: p.read_bytes() for p in created} == created
