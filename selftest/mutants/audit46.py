"""Broken engines of the session 46 clause audit of docs/spec.md (§ Cognition, § Normative
formulas, § Canonical JSON): each makes one mistake a port in another language plausibly
makes, on a clause no requirement sent an input for before."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance.oracle import seed_digest
from reference.lexicon import TeachingChain, TeachingStep
from reference.realize import DecorationSeed
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import teaching

_HTML = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}
_HTML_RE = re.compile("[<>&]")


def _html_escaped(text: str) -> str:
    return _HTML_RE.sub(lambda m: _HTML[m[0]], text)


class HtmlEscapedWire(ProtocolHandler):
    """Response lines write ``<``, ``>`` and ``&`` as ``\\u003c``, ``\\u003e`` and ``\\u0026``
    (Go's ``json.Marshal``, which escapes them for HTML by default)."""

    def handle_line(self, line: str | bytes) -> str:
        return _html_escaped(super().handle_line(line))


class SealHtmlEscaped(ProtocolHandler):
    """pack_source_sha256 and the seal are computed over JSON with ``<``, ``>`` and ``&``
    escaped, as Go's ``json.Marshal`` writes them."""

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        import hashlib

        def encoded(value: object) -> bytes:
            text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            return _html_escaped(text).encode()

        report = super().ratify_pack(path)
        pack = json.loads(path.read_text(encoding="utf-8"))
        pack.pop("mastery_report_sha256", None)
        report = {**report, "pack_source_sha256": hashlib.sha256(encoded(pack)).hexdigest()}
        body = {k: v for k, v in report.items() if k != "seal"}
        return {**report, "seal": hashlib.sha256(encoded(body)).hexdigest()}


def _common_prefix_order(a: str, b: str) -> int:
    """A hand-written code point comparator that forgets the length tie-break: two keys
    equal up to the shorter one's length compare equal."""
    for x, y in zip(a, b, strict=False):
        if x != y:
            return -1 if x < y else 1
    return 0


def _encoded(value: object, key_order: Any) -> str:
    if isinstance(value, dict):
        keys = key_order(list(value))
        inner = ",".join(f"{_encoded(k, key_order)}:{_encoded(value[k], key_order)}" for k in keys)
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ",".join(_encoded(item, key_order) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _prefix_blind(keys: list[str]) -> list[str]:
    # a map's iteration order (Go's is random): here the keys in reverse, then a stable sort
    return sorted(reversed(keys), key=functools.cmp_to_key(_common_prefix_order))


class PrefixKeysUnordered(ProtocolHandler):
    """Response keys are sorted by a code point comparator without the length tie-break, so
    a key that is a proper prefix of another keeps the map's order (here: after it)."""

    def handle_line(self, line: str | bytes) -> str:
        return _encoded(json.loads(super().handle_line(line)), _prefix_blind)


class KeysSortedIgnoringCase(ProtocolHandler):
    """Response keys are sorted case-insensitively (``localeCompare``, ``strings.EqualFold``
    order), not by code point: ``a`` before ``B``."""

    def handle_line(self, line: str | bytes) -> str:
        return _encoded(
            json.loads(super().handle_line(line)),
            lambda keys: sorted(keys, key=lambda k: (k.casefold(), k)),
        )


class DecorationJoinsNonEmptyParts(ProtocolHandler):
    """Decoration joins the non-empty parts of opening and surface with one space, so an
    empty surface after an opening gets no space (``[o, s].filter(Boolean).join(" ")``)."""

    def join(self, opening: str, surface: str, closing: str) -> str:
        return " ".join(part for part in (opening, surface) if part) + closing


class DecorationTrimmed(ProtocolHandler):
    """The decorated surface is trimmed of leading and trailing spaces."""

    def join(self, opening: str, surface: str, closing: str) -> str:
        return super().join(opening, surface, closing).strip(" ")


class ProposalExponentAsInteger(ProtocolHandler):
    """A proposal's number written with an exponent and a whole value (``1e+16``) is taken
    for an integer: the parser tells a float only by its ``.``."""

    def op_state_propose(self, args: dict[str, Any]) -> dict[str, Any]:
        def integral(value: object) -> object:
            if isinstance(value, float) and value.is_integer() and "e" in repr(value):
                return int(value)
            if isinstance(value, list):
                return [integral(item) for item in value]
            if isinstance(value, dict):
                return {key: integral(item) for key, item in value.items()}
            return value

        return super().op_state_propose({**args, "proposal": integral(args.get("proposal"))})


MEMORY_TO_LIGHT = TeachingChain("memory-to-light", (TeachingStep("memory", "recalls", "light"),))
"""A chain docs/spec.md § Cognition forbids: no teaching path may lead from memory to light."""


class ShipsPathFromMemoryToLight(ProtocolHandler):
    """The engine ships a teaching chain from memory to light, which docs/spec.md forbids."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        chains = (*runtime.truth.lexicon.chains, MEMORY_TO_LIGHT)
        runtime.truth.graph = teaching.TeachingGraph(chains)
        return runtime


class SignedSeedInteger(ProtocolHandler):
    """The selector reads the first 8 digest bytes as a signed 64-bit integer (a Java
    ``long``, a Go ``int64``) and takes its floor modulo the bucket's length."""

    def select_index(
        self, bucket: Sequence[str], bucket_name: str, seed: DecorationSeed
    ) -> int | None:
        if not bucket:
            return None
        digest = seed_digest(bucket_name=bucket_name, **seed)
        return int.from_bytes(digest[:8], "big", signed=True) % len(bucket)


_DECLARED = {
    "protocol": ("protocol", "engine", "capabilities"),
    "decorated": ("decorated", "opening", "closing", "register_variant_id"),
    "name": ("name", "version", "language"),
    "has_gloss": ("lemma", "pack", "pos", "has_gloss"),
    "fresh": ("identity", "generation", "turn_count", "schema_version", "recovered", "fresh"),
    "pre_decoration_surface": (
        "surface",
        "pre_decoration_surface",
        "trace_hash",
        "grounding_source",
        "intent",
        "subject",
        "turn_idx",
        "versor_condition",
        "register_id",
        "register_variant_id",
        "says",
    ),
}
"""Result members in the order docs/protocol.md shows them, by a member each result has."""


def _declared(value: object) -> object:
    if isinstance(value, list):
        return [_declared(item) for item in value]
    if not isinstance(value, dict):
        return value
    order = next((o for key, o in _DECLARED.items() if key in value), sorted(value))
    rest = [key for key in sorted(value) if key not in order]
    return {key: _declared(value[key]) for key in (*order, *rest) if key in value}


class StructOrderedResults(ProtocolHandler):
    """hello's, variation.decorate's, lexicon.list's, state.load's and session.chat's results
    are written with their members in the order docs/protocol.md shows them (a struct's
    declaration order), not sorted."""

    def handle_line(self, line: str | bytes) -> str:
        response = json.loads(super().handle_line(line))
        if not isinstance(response.get("result"), dict):
            return json.dumps(response, ensure_ascii=False, separators=(",", ":"))
        envelope = {key: response[key] for key in sorted(response)}
        envelope["result"] = _declared(response["result"])
        return json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))


__all__ = [
    "DecorationJoinsNonEmptyParts",
    "DecorationTrimmed",
    "HtmlEscapedWire",
    "KeysSortedIgnoringCase",
    "PrefixKeysUnordered",
    "ProposalExponentAsInteger",
    "SealHtmlEscaped",
    "ShipsPathFromMemoryToLight",
    "SignedSeedInteger",
    "StructOrderedResults",
]
