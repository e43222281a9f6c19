"""The witness: the add-checkpoint call of c2sp.org/tlog-witness and its monitoring read, over
HTTP (``python -m witness serve``).

A checkpoint is cosigned only when a log key the witness trusts for its origin signed it and it
extends the latest checkpoint the witness cosigned for that origin (a consistency proof from that
size); one that goes back or diverges is refused and, being signed, kept as evidence."""

import base64
import binascii
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from . import note
from .merkle import consistent
from .store import Head, Store

MAX_BODY = 64 * 1024
MAX_PROOF = 63
TEXT = "text/plain; charset=utf-8"
SIZE = "text/x.tlog.size"


@dataclass(frozen=True)
class Response:
    status: int
    body: str
    content_type: str = TEXT


class BadRequest(Exception):
    pass


def parse_request(body: bytes) -> tuple[int, list[bytes], str]:
    """(old size, consistency proof, signed checkpoint) of an add-checkpoint body."""
    try:
        text = body.decode("utf-8")
        head, sep, checkpoint = text.partition("\n\n")
        lines = head.split("\n")
        old = lines[0].removeprefix("old ")
        if not sep or old == lines[0] or not old.isdigit() or (old != "0" and old.startswith("0")):
            raise BadRequest("the body starts with an old size line, then the proof, an empty line, the checkpoint")
        proof = [base64.b64decode(line, validate=True) for line in lines[1:]]
    except (UnicodeDecodeError, binascii.Error) as exc:
        raise BadRequest(str(exc)) from exc
    if len(proof) > MAX_PROOF or any(len(h) != 32 for h in proof):
        raise BadRequest("at most 63 proof lines, each a 32-byte hash")
    return int(old), proof, checkpoint


def covers(name: str, origin: str) -> bool:
    """A log key named ``name`` is trusted for ``origin``: the same name, or a path it continues
    (an establishment's key covers ``name/register``)."""
    return origin == name or origin.startswith(name + "/")


class Witness:
    def __init__(self, store: Store, name: str, key: Ed25519PrivateKey) -> None:
        self.store, self.name, self.key = store, name, key

    @property
    def verifier(self) -> note.Verifier:
        return note.Verifier(self.name, note.COSIGNATURE_V1, note.raw_public(self.key.public_key()))

    def _log_keys(self, origin: str) -> list[note.Verifier]:
        """The Ed25519 log keys trusted for ``origin``."""
        with self.store.transaction() as tx:
            keys = [note.parse_vkey(vkey) for vkey in tx.log_keys()]
        return [k for k in keys if k.kind == note.ED25519 and covers(k.name, origin)]

    def add_checkpoint(self, body: bytes) -> Response:
        try:
            old, proof, signed = parse_request(body)
            text, signatures = note.split(signed)
            checkpoint = note.parse_checkpoint(text)
        except (BadRequest, note.NoteError) as exc:
            return Response(HTTPStatus.BAD_REQUEST, f"{exc}\n")
        keys = self._log_keys(checkpoint.origin)
        if not keys:
            return Response(HTTPStatus.NOT_FOUND, f"unknown log {checkpoint.origin}\n")
        try:
            note.verify(signed, keys)
        except note.NoteError as exc:
            return Response(HTTPStatus.FORBIDDEN, f"{exc}\n")
        if old > checkpoint.size:
            return Response(HTTPStatus.BAD_REQUEST, "the old size is larger than the checkpoint's\n")
        known = {(k.name, k.id) for k in keys}
        log_lines = "".join(note.signature_line(n, kid, sig) for n, kid, sig in signatures if (n, kid) in known)
        root = base64.b64encode(checkpoint.root).decode()
        with self.store.transaction(checkpoint.origin) as tx:
            latest = tx.latest(origin=checkpoint.origin)
            latest_size = latest.size if latest else 0
            if old != latest_size:
                return Response(HTTPStatus.CONFLICT, f"{latest_size}\n", SIZE)
            problem = self._inconsistency(checkpoint, old, proof, latest)
            now = int(time.time())
            if problem:
                tx.refused(
                    origin=checkpoint.origin,
                    old_size=old,
                    size=checkpoint.size,
                    root=root,
                    note=f"{text}\n{log_lines}",
                    status=HTTPStatus.UNPROCESSABLE_ENTITY,
                    reason=problem,
                    now=now,
                )
                return Response(HTTPStatus.UNPROCESSABLE_ENTITY, f"{problem}\n")
            # Never a time before the latest cosignature's: the cosignatures of one origin stay in order.
            now = max(now, latest.cosigned_at if latest else 0)
            cosignature = note.cosign(text, self.name, self.key, now)
            tx.cosigned(Head(checkpoint.origin, checkpoint.size, root, f"{text}\n{log_lines}{cosignature}", now))
        return Response(HTTPStatus.OK, cosignature)

    @staticmethod
    def _inconsistency(checkpoint: note.Checkpoint, old: int, proof: list[bytes], latest: Head | None) -> str:
        if checkpoint.size == 0 and checkpoint.root != note.EMPTY_ROOT:
            return "a checkpoint of size 0 has the root of the empty tree"
        if old == 0:
            return "no proof from the empty tree" if proof else ""
        if not consistent(old, checkpoint.size, base64.b64decode(latest.root), checkpoint.root, proof):
            return f"not consistent with the checkpoint of size {old} cosigned before"
        return ""

    def checkpoint(self, hashed: str) -> Response:
        with self.store.transaction() as tx:
            latest = tx.latest(hashed=hashed)
        if latest is None:
            return Response(HTTPStatus.NOT_FOUND, "no checkpoint cosigned for this log\n")
        return Response(HTTPStatus.OK, latest.note)


def handler(witness: Witness) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the protocol recommends

        def _send(self, response: Response) -> None:
            data = response.body.encode("utf-8")
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if self.path.rstrip("/") != "/add-checkpoint":
                self.rfile.read(min(length, MAX_BODY))
                self._send(Response(HTTPStatus.NOT_FOUND, "POST /add-checkpoint\n"))
            elif length > MAX_BODY:
                self.close_connection = True
                self._send(Response(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too large\n"))
            else:
                self._send(witness.add_checkpoint(self.rfile.read(length)))

        def do_GET(self) -> None:
            parts = self.path.strip("/").split("/")
            if len(parts) == 2 and parts[1] == "checkpoint" and len(parts[0]) == 64:
                self._send(witness.checkpoint(parts[0].lower()))
            else:
                self._send(Response(HTTPStatus.NOT_FOUND, "GET /<SHA-256 of the origin>/checkpoint\n"))

    return Handler


def serve(witness: Witness, host: str, port: int) -> ThreadingHTTPServer:
    return ThreadingHTTPServer((host, port), handler(witness))
