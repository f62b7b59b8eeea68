"""Load and validate language packs and teaching chains from JSON.

Every malformed pack is refused with a :class:`~reference.errors.LexiconError`
whose code is stable and whose ``field`` names the offending entry.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reference.errors import LexiconError
from reference.jsonio import UntrustedJSON, loads_untrusted
from reference.lexicon.model import LanguagePack, Lemma, TeachingChain, TeachingStep

DATA_DIR = Path(__file__).parent / "data"
SHIPPED_PACK_IDS = ("en_core_v1", "relations_v1", "nature_v1")
SUPPORTED_SCHEMA_VERSIONS = ("1.0.0",)
POS_TAGS = ("noun", "verb", "adjective")
LEMMA_PATTERN = re.compile(r"[a-z]{3,14}")
DOMAIN_PATTERN = re.compile(r"[a-z][a-z ]{1,23}")
MIN_DOMAINS = 3


def _fail(code: str, message: str, field: str) -> LexiconError:
    return LexiconError(message, field=field, code=code)


def _require(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in obj:
        raise _fail("LEXICON_MISSING_FIELD", f"{where}: missing field {key!r}", f"{where}.{key}")
    value = obj[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _fail(
            "LEXICON_MALFORMED", f"{where}.{key} must be a {kind.__name__}", f"{where}.{key}"
        )
    return value


def _parse_lemma(raw: Any, pack_id: str, where: str) -> Lemma:
    if not isinstance(raw, dict):
        raise _fail("LEXICON_MALFORMED", f"{where} must be an object", where)
    name = _require(raw, "lemma", str, where)
    if not LEMMA_PATTERN.fullmatch(name):
        raise _fail("LEXICON_BAD_LEMMA", f"{where}.lemma {name!r} is not [a-z]{{3,14}}", where)
    pos = _require(raw, "pos", str, where)
    if pos not in POS_TAGS:
        raise _fail("LEXICON_BAD_POS", f"{where}.pos {pos!r} not in {POS_TAGS}", f"{where}.pos")
    domains = _require(raw, "domains", list, where)
    if len(domains) < MIN_DOMAINS or len(set(domains)) != len(domains):
        raise _fail(
            "LEXICON_TOO_FEW_DOMAINS",
            f"{where}.domains needs {MIN_DOMAINS} or more distinct domains",
            f"{where}.domains",
        )
    for domain in domains:
        if not isinstance(domain, str) or not DOMAIN_PATTERN.fullmatch(domain):
            raise _fail("LEXICON_BAD_DOMAIN", f"{where}.domains has {domain!r}", f"{where}.domains")
    gloss = raw.get("gloss")
    if gloss is not None and (not isinstance(gloss, str) or not gloss.strip()):
        raise _fail("LEXICON_MALFORMED", f"{where}.gloss must be a non-empty string", where)
    unknown = set(raw) - {"lemma", "pos", "domains", "gloss"}
    if unknown:
        raise _fail("LEXICON_UNKNOWN_FIELD", f"{where} has unknown fields {sorted(unknown)}", where)
    return Lemma(name, pos, tuple(domains), gloss, pack_id)


def parse_language_pack(data: Any) -> LanguagePack:
    """Validate a parsed pack document and return it as a :class:`LanguagePack`."""
    if not isinstance(data, dict):
        raise _fail("LEXICON_MALFORMED", "a language pack must be a JSON object", "$")
    pack_id = _require(data, "pack_id", str, "pack")
    version = _require(data, "schema_version", str, "pack")
    if version not in SUPPORTED_SCHEMA_VERSIONS:
        raise _fail(
            "LEXICON_SCHEMA_VERSION",
            f"pack {pack_id}: schema_version {version!r} not in {SUPPORTED_SCHEMA_VERSIONS}",
            "pack.schema_version",
        )
    raw_lemmas = _require(data, "lemmas", list, "pack")
    lemmas = tuple(
        _parse_lemma(raw, pack_id, f"{pack_id}.lemmas[{i}]") for i, raw in enumerate(raw_lemmas)
    )
    seen: set[str] = set()
    for entry in lemmas:
        if entry.lemma in seen:
            raise _fail(
                "LEXICON_DUPLICATE_LEMMA", f"{pack_id}: lemma {entry.lemma!r} twice", entry.lemma
            )
        seen.add(entry.lemma)
    return LanguagePack(
        pack_id=pack_id,
        language=_require(data, "language", str, "pack"),
        version=_require(data, "version", str, "pack"),
        lemmas=lemmas,
    )


def read_json(path: Path) -> Any:
    """Read a pack file with the guarded JSON reader; failures are typed LEXICON_* errors."""
    try:
        return loads_untrusted(path.read_bytes())
    except FileNotFoundError:
        raise _fail("LEXICON_NOT_FOUND", f"no language pack at {path}", str(path)) from None
    except OSError as exc:
        message = f"{path.name} cannot be read: {exc.strerror or exc}"
        raise _fail("LEXICON_MALFORMED", message, str(path)) from None
    except UntrustedJSON as exc:
        message = f"{path.name} is not UTF-8 JSON: {exc.reason}"
        raise _fail("LEXICON_MALFORMED", message, str(path)) from None


def load_language_pack(path: Path) -> LanguagePack:
    """Read, parse and validate one pack file."""
    return parse_language_pack(read_json(path))


def parse_teaching(data: Any, known: frozenset[str]) -> tuple[TeachingChain, ...]:
    """Validate teaching chains; every step must link two known lemmas end to end."""
    chains = _require(data if isinstance(data, dict) else {}, "chains", list, "teaching")
    out = []
    for i, raw in enumerate(chains):
        where = f"teaching.chains[{i}]"
        chain_id = _require(raw, "chain_id", str, where)
        steps = tuple(
            TeachingStep(
                _require(s, "from", str, where),
                _require(s, "relation", str, where),
                _require(s, "to", str, where),
            )
            for s in _require(raw, "steps", list, where)
        )
        if not steps:
            raise _fail("LEXICON_MALFORMED", f"{where} has no steps", where)
        for a, b in zip(steps, steps[1:], strict=False):
            if a.target != b.source:
                raise _fail("LEXICON_BROKEN_CHAIN", f"{where}: {a.target} != {b.source}", where)
        chain = TeachingChain(chain_id, steps)
        for lemma in chain.lemmas:
            if lemma not in known:
                raise _fail("LEXICON_UNKNOWN_LEMMA", f"{where} names unknown {lemma!r}", where)
        out.append(chain)
    return tuple(out)
