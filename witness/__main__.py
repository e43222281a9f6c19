"""python -m witness COMMAND --db DATABASE …

  keygen  --key FILE --name NAME        a new private key (PEM, mode 600); prints the witness's vkey
  vkey    --key FILE --name NAME        prints the witness's vkey, to give to the logs it cosigns
  add-log --db DB VKEY                  trusts a log key for the origin it names and the paths under it
  serve   --db DB --key FILE --name NAME [--listen HOST:PORT]
  heads   --db DB [--origin ORIGIN] [--max-age MINUTES]
                                        every cosigned checkpoint, as a signed note, oldest first;
                                        the silent logs (as below) on standard error
  refused --db DB                       the correctly signed checkpoints refused, and why
  silent  --db DB [--max-age MINUTES]   each trusted log with no checkpoint cosigned for MINUTES
                                        (default 60): one line each, exit status 1 if any, else 0

DB is a SQLite file (or sqlite:///path) or a PostgreSQL URL (postgres://…, needs psycopg)."""

import argparse
import os
import sys
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from . import note
from .monitor import silent_logs, utc
from .server import Witness, covers, serve
from .store import Store


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(prog="python -m witness", usage=__doc__)
    cli.add_argument("command", choices=["keygen", "vkey", "add-log", "serve", "heads", "refused", "silent"])
    cli.add_argument("vkey", nargs="?")
    cli.add_argument("--db", default=os.environ.get("WITNESS_DB", "witness.sqlite3"))
    cli.add_argument("--key", type=Path, default=os.environ.get("WITNESS_KEY_FILE"))
    cli.add_argument("--name", default=os.environ.get("WITNESS_NAME"))
    cli.add_argument("--listen", default="127.0.0.1:8080")
    cli.add_argument("--origin")
    cli.add_argument("--max-age", type=int, default=int(os.environ.get("WITNESS_MAX_AGE_MINUTES", 60)))
    args = cli.parse_intermixed_args(argv)
    store = Store(args.db)
    if args.command in ("keygen", "vkey", "serve") and not (args.key and args.name):
        cli.error("--key and --name are needed")
    if args.command == "keygen":
        if args.key.exists():
            cli.error(f"{args.key} exists: a witness key is never replaced silently")
        args.key.touch(mode=0o600)
        args.key.write_text(note.private_pem(Ed25519PrivateKey.generate()), encoding="ascii")
    if args.command in ("keygen", "vkey"):
        key = note.read_private(args.key)
        print(note.Verifier(args.name, note.COSIGNATURE_V1, note.raw_public(key.public_key())))
        return 0
    store.migrate()
    if args.command == "add-log":
        verifier = note.parse_vkey(args.vkey or "")
        if verifier.kind != note.ED25519:
            cli.error("a log key is an Ed25519 key of signature type 0x01")
        with store.transaction() as tx:
            tx.add_log(str(verifier), int(time.time()))
        print(f"trusted {verifier.name} (and the origins under {verifier.name}/)")
    elif args.command in ("heads", "silent"):
        now = int(time.time())
        silences = [s for s in silent_logs(store, args.max_age, now) if not args.origin or covers(s.log, args.origin)]
        if args.command == "silent":
            print("".join(silence.line(now) + "\n" for silence in silences), end="")
            return 1 if silences else 0
        with store.transaction() as tx:
            for head in tx.heads(args.origin):
                print(head.note)
        print("".join(silence.line(now) + "\n" for silence in silences), end="", file=sys.stderr)
    elif args.command == "refused":
        with store.transaction() as tx:
            for origin, old, size, root, status, reason, at in tx.refusals():
                print(f"{utc(at)}\t{origin}\told {old}\tsize {size}\t{root}\t{status}\t{reason}")
    else:
        host, _, port = args.listen.rpartition(":")
        witness = Witness(store, args.name, note.read_private(args.key))
        server = serve(witness, host or "127.0.0.1", int(port))
        print(f"witness {witness.verifier} on http://{host}:{server.server_address[1]}/", flush=True)
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
