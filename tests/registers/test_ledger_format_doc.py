"""docs/ledger-format.md says what the code does: its worked example is computed by the code, and
the auditor's script it shows is the one the export tests run."""

import datetime
import hashlib
import json
import re
from pathlib import Path

from django.conf import settings

from ledgers.registers.chain import GENESIS_HASH, canonical_bytes
from ledgers.registers.checkpoints import checkpoint_bytes, checkpoint_mac

DOCS = Path(settings.BASE_DIR) / "docs"
DOC = (DOCS / "ledger-format.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, flags=re.DOTALL)


def test_reg_20_worked_example_is_what_the_code_computes():
    lines = [block.strip("\n") for block in blocks("json")]
    stated = re.findall(r"`entry_hash = ([0-9a-f]{64})`", DOC)
    assert len(lines) == len(stated) == 3
    prev, hashes = GENESIS_HASH, {}
    for line, digest in zip(lines, stated, strict=True):
        fields = json.loads(line)
        canonical = canonical_bytes(**fields)
        assert canonical == line.encode("utf-8")  # the documented bytes are the code's bytes
        assert hashlib.sha256(canonical).hexdigest() == digest
        assert fields["prev_hash"] == prev
        if fields["kind"] == "visa":
            assert fields["payload"]["covers_hash"] == hashes[fields["payload"]["covers_seq"]]
        prev = hashes[fields["seq"]] = digest
    assert f"These {len(lines[0].encode('utf-8'))} bytes" in DOC


def test_reg_20_the_documented_script_is_the_shipped_one():
    (script,) = blocks("python")
    assert script == (DOCS / "verify_export.py").read_text(encoding="utf-8")
    assert len(script.splitlines()) <= 350


def test_reg_20_checkpoint_example_is_what_the_code_computes():
    (sealed,) = blocks("checkpoint")
    fields = json.loads(sealed)
    fields["created_at"] = datetime.datetime.strptime(fields["created_at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.UTC
    )
    assert checkpoint_bytes(**fields) == sealed.strip("\n").encode("utf-8")
    assert fields["entry_hash"] == re.findall(r"`entry_hash = ([0-9a-f]{64})`", DOC)[2]  # the visa of §4
    (mac,) = re.findall(r"`mac = ([0-9a-f]{64})`", DOC)
    assert checkpoint_mac(b"k", **fields) == mac
