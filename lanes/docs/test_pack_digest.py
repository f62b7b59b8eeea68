"""The suite's digest of the shipped language packs is what the packs say."""

from __future__ import annotations

from tools import pack_digest


def test_pack_digest_is_current() -> None:
    assert pack_digest.DIGEST.read_text("utf-8") == pack_digest.rendered(), (
        "conformance/data/cognition/packs.json is out of date: python -m tools.pack_digest"
    )
