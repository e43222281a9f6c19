"""Tree heads dated by an RFC 3161 time-stamping authority: a real one over HTTP on 127.0.0.1
(pyHanko's DummyTimeStamper answering the requests of a standard-library HTTP server, with a
certificate made here), the token checked by verify_ledgers."""

import datetime
import http.server
import io
import threading

import pytest
from asn1crypto import keys, tsp, x509
from cryptography import x509 as cx509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from pyhanko.sign.timestamps import DummyTimeStamper

from ledgers.registers import timestamps
from ledgers.registers.models import TreeHead
from tests.registers.test_chain_properties import run_sql
from tests.registers.test_evidence import append
from tests.registers.test_tree_heads import sealed_file


def tsa_certificate(tmp_path) -> tuple[x509.Certificate, keys.PrivateKeyInfo]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)  # the test TSA signs with RSA only
    name = cx509.Name([cx509.NameAttribute(NameOID.COMMON_NAME, "Autorité d'horodatage de test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        cx509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(cx509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(cx509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
        .add_extension(cx509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM)
    (tmp_path / "tsa.pem").write_bytes(pem)
    der_key = key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER)), keys.PrivateKeyInfo.load(der_key)


@pytest.fixture
def tsa(tmp_path):
    """An RFC 3161 server on 127.0.0.1 (application/timestamp-query in, -reply out)."""
    stamper = DummyTimeStamper(*tsa_certificate(tmp_path))

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            request = tsp.TimeStampReq.load(self.rfile.read(int(self.headers["Content-Length"])))
            body = stamper.request_tsa_response(request).dump()
            self.send_response(200)
            self.send_header("Content-Type", "application/timestamp-reply")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with override_settings(
        LEDGERS_TSA_URL=f"http://127.0.0.1:{server.server_port}/", LEDGERS_TSA_ROOTS=str(tmp_path / "tsa.pem")
    ):
        yield
    server.shutdown()
    thread.join()


@pytest.mark.django_db
def test_reg_20_tree_heads_carry_a_checked_rfc_3161_token(tsa, mc_register, mc_staff, tmp_path):
    append(mc_register, mc_staff, 2)
    out = tmp_path / "tree-head.json"
    call_command("seal_checkpoints", "--out", str(out), stdout=io.StringIO())
    tree_head = TreeHead.objects.get()
    assert timestamps.token_valid(tree_head.timestamp_token, bytes.fromhex(tree_head.tree_hash))
    assert abs(timestamps.token_time(tree_head.timestamp_token) - tree_head.created_at) < datetime.timedelta(minutes=5)
    assert not timestamps.token_valid(tree_head.timestamp_token, bytes(32))  # over another hash
    call_command("verify_ledgers", "--tree-head", str(out), stdout=io.StringIO())
    # A token swapped for one over another tree head: both verifiers refuse it.
    other = timestamps.stamp(bytes(32))
    run_sql("UPDATE registers_treehead SET timestamp_token = %s WHERE id = %s", [other, tree_head.pk])
    with pytest.raises(CommandError):
        call_command("verify_ledgers", stdout=(text := io.StringIO()))
    assert "le jeton d'horodatage ne porte pas sur cette tête d'arbre" in text.getvalue()


@pytest.mark.django_db
def test_reg_20_verify_ledgers_warns_that_without_roots_any_authority_is_accepted(tsa, mc_register, mc_staff, tmp_path):
    warning = "NON VÉRIFIÉ\tautorité d'horodatage : sans LEDGERS_TSA_ROOTS"
    append(mc_register, mc_staff, 1)
    with override_settings(LEDGERS_TSA_URL="", LEDGERS_TSA_ROOTS=""):
        call_command("seal_checkpoints", stdout=io.StringIO())  # a tree head without a token: nothing to trust
        call_command("verify_ledgers", stdout=(text := io.StringIO()))
    assert warning not in text.getvalue()
    append(mc_register, mc_staff, 1)
    out = sealed_file(tmp_path)
    call_command("verify_ledgers", "--tree-head", str(out), stdout=(text := io.StringIO()))
    assert warning not in text.getvalue()  # the root is configured
    with override_settings(LEDGERS_TSA_ROOTS=""):
        call_command("verify_ledgers", stdout=(text := io.StringIO()))  # a warning, not a failure
        assert warning in text.getvalue() and "ÉCHEC" not in text.getvalue()
        call_command("verify_ledgers", mc_register.number, "--tree-head", str(out), stdout=(text := io.StringIO()))
        assert warning in text.getvalue()
        call_command("verify_ledgers", mc_register.number, stdout=(text := io.StringIO()))
        assert warning not in text.getvalue()  # one register: no token is checked
