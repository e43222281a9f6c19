"""Tree heads dated by an RFC 3161 time-stamping authority: a real one over HTTP on 127.0.0.1
(pyHanko's DummyTimeStamper answering the requests of a standard-library HTTP server, with a
certificate issued here by a root CA made here), the token checked by verify_ledgers and by the
auditor's script."""

import asyncio
import base64
import datetime
import http.server
import io
import json
import re
import subprocess
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
from ledgers.registers.verification import export_lines
from tests.registers.test_chain_properties import run_sql
from tests.registers.test_evidence import append
from tests.registers.test_tree_heads import audit, public_hex, sealed_file

TIME_STAMPING = ExtendedKeyUsageOID.TIME_STAMPING


def certificate(name: str, key, *, issuer: tuple | None = None, usage: tuple = ()) -> cx509.Certificate:
    """A certificate valid from yesterday to tomorrow: a root CA (self-signed, without ``issuer``),
    or one issued by ``issuer`` (its certificate and key) with the extended key ``usage`` given."""
    subject = cx509.Name([cx509.NameAttribute(NameOID.COMMON_NAME, name)])
    issuer_cert, issuer_key = issuer or (None, key)
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        cx509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_cert.subject if issuer_cert else subject)
        .public_key(key.public_key())
        .serial_number(cx509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(cx509.BasicConstraints(ca=issuer is None, path_length=None), critical=True)
    )
    if usage:
        builder = builder.add_extension(cx509.ExtendedKeyUsage(list(usage)), critical=True)
    return builder.sign(issuer_key, hashes.SHA256())


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)  # the test TSA signs with RSA only


def root_pem(path, name: str) -> tuple[cx509.Certificate, rsa.RSAPrivateKey]:
    """A root CA, its certificate written to ``path`` (PEM) as an auditor would be handed it."""
    key = rsa_key()
    root = certificate(name, key)
    path.write_bytes(root.public_bytes(serialization.Encoding.PEM))
    return root, key


def tsa_certificate(root: tuple, usage: tuple = (TIME_STAMPING,)) -> tuple[x509.Certificate, keys.PrivateKeyInfo]:
    """An authority's time-stamping certificate issued by ``root`` (its certificate and key), and its key."""
    key = rsa_key()
    cert = certificate("Autorité d'horodatage de test", key, issuer=root, usage=usage)
    der_key = key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER)), keys.PrivateKeyInfo.load(der_key)


@pytest.fixture
def tsa(tmp_path):
    """An RFC 3161 server on 127.0.0.1 (application/timestamp-query in, -reply out) whose certificate
    a root CA issued, that root in ``tsa.pem`` (LEDGERS_TSA_ROOTS); yields the root and its key."""
    root = root_pem(tmp_path / "tsa.pem", "Racine d'horodatage de test")
    stamper = DummyTimeStamper(*tsa_certificate(root))

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
        yield root
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


def audited(tmp_path, head: dict, *args) -> subprocess.CompletedProcess:
    """The auditor's script on the tree head ``head`` (written to a file), with the public key."""
    path = tmp_path / "audited-tree-head.json"
    path.write_text(json.dumps(head), encoding="utf-8")
    return audit(path, public_hex(), *args)


@pytest.mark.django_db
def test_reg_20_the_auditor_checks_a_tree_heads_rfc_3161_token_offline(tsa, mc_register, mc_staff, tmp_path):
    append(mc_register, mc_staff, 2)
    head = json.loads(sealed_file(tmp_path).read_text(encoding="utf-8"))
    export = tmp_path / "export.jsonl"
    export.write_text("".join(line + "\n" for line in export_lines(mc_register)), encoding="utf-8")
    at = timestamps.token_time(head["timestamp_token"])
    stamped = (
        f"OK tree head mcb n° 1, 1 exports, time-stamped {at:%Y-%m-%dT%H:%M:%SZ} by CN=Autorité d'horodatage de test"
    )
    roots = ("--tsa-root", tmp_path / "tsa.pem")
    done = audited(tmp_path, head, export, *roots)
    assert (done.returncode, done.stdout.strip()) == (0, stamped + " (trusted root)"), done.stderr
    # Without the authority's root the token is checked all the same, but its time is said unverified.
    done = audited(tmp_path, head, export)
    assert done.returncode == 0
    assert (
        done.stdout.strip()
        == stamped + " (time unverified: without --tsa-root any authority could have made the token)"
    )
    # The token of another tree head (the same authority, over another hash).
    done = audited(tmp_path, {**head, "timestamp_token": timestamps.stamp(bytes(32))}, *roots)
    assert done.returncode == 1 and "not over this tree head (its message imprint is another hash)" in done.stderr
    # The token's time moved back a year: the TSTInfo no longer has the digest its authority signed.
    token = bytearray(base64.b64decode(head["timestamp_token"]))
    year = re.search(rb"\x18.(\d{4})\d{10}", token, flags=re.DOTALL).start(1)
    token[year : year + 4] = str(at.year - 1).encode()
    done = audited(tmp_path, {**head, "timestamp_token": base64.b64encode(token).decode()}, *roots)
    assert done.returncode == 1 and "TSTInfo is not the one its authority signed (altered)" in done.stderr
    # Another root: the authority is not trusted.
    root_pem(tmp_path / "other.pem", "Autre racine")
    done = audited(tmp_path, head, export, "--tsa-root", tmp_path / "other.pem")
    assert done.returncode == 1 and "time-stamp authority is not trusted" in done.stderr
    # A certificate of the same root without the time-stamping usage: not an authority's.
    unfit = asyncio.run(
        DummyTimeStamper(*tsa_certificate(tsa, usage=())).async_timestamp(bytes.fromhex(head["hash"]), "sha256")
    )
    done = audited(tmp_path, {**head, "timestamp_token": base64.b64encode(unfit.dump()).decode()}, *roots)
    assert done.returncode == 1 and "time-stamp authority is not trusted" in done.stderr


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
