"""The language-pack loader refuses malformed packs with typed errors naming the field."""

from __future__ import annotations

import copy
import json

import pytest

from reference.errors import LexiconError
from reference.lexicon.index import Lexicon, load_lexicon
from reference.lexicon.loader import DATA_DIR, load_language_pack, parse_language_pack

GOOD = {
    "pack_id": "test_v1",
    "language": "en",
    "version": "1.0.0",
    "schema_version": "1.0.0",
    "lemmas": [{"lemma": "lantern", "pos": "noun", "domains": ["light", "tools", "night"]}],
}


def _with(path: str, value) -> dict:
    data = copy.deepcopy(GOOD)
    target = data
    *parents, last = path.split(".")
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return data


def test_good_pack_parses():
    pack = parse_language_pack(GOOD)
    assert pack.lemmas[0].gloss is None and pack.lemmas[0].pack_id == "test_v1"


@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        ("pack_id", KeyError, "LEXICON_MISSING_FIELD"),
        ("schema_version", "9.0.0", "LEXICON_SCHEMA_VERSION"),
        ("lemmas", "nope", "LEXICON_MALFORMED"),
        ("lemmas.0.lemma", "Lantern", "LEXICON_BAD_LEMMA"),
        ("lemmas.0.lemma", "ab", "LEXICON_BAD_LEMMA"),
        ("lemmas.0.pos", "adverb", "LEXICON_BAD_POS"),
        ("lemmas.0.domains", ["light", "tools"], "LEXICON_TOO_FEW_DOMAINS"),
        ("lemmas.0.domains", ["light", "light", "night"], "LEXICON_TOO_FEW_DOMAINS"),
        ("lemmas.0.domains", ["light", "tools", "Night!"], "LEXICON_BAD_DOMAIN"),
        ("lemmas.0.gloss", "", "LEXICON_MALFORMED"),
        ("lemmas.0.colour", "red", "LEXICON_UNKNOWN_FIELD"),
        ("lemmas.0.pos", KeyError, "LEXICON_MISSING_FIELD"),
    ],
)
def test_malformed_pack_is_refused(path, value, code):
    with pytest.raises(LexiconError) as caught:
        parse_language_pack(_with(path, value))
    assert caught.value.code == code
    assert caught.value.field


def test_not_an_object():
    with pytest.raises(LexiconError) as caught:
        parse_language_pack([GOOD])
    assert caught.value.code == "LEXICON_MALFORMED"


def test_duplicate_lemma_within_and_across_packs():
    twice = copy.deepcopy(GOOD)
    twice["lemmas"].append(twice["lemmas"][0])
    with pytest.raises(LexiconError, match="twice"):
        parse_language_pack(twice)
    with pytest.raises(LexiconError) as caught:
        Lexicon((parse_language_pack(GOOD), parse_language_pack({**GOOD, "pack_id": "other"})))
    assert caught.value.code == "LEXICON_DUPLICATE_LEMMA"


def test_unreadable_files(tmp_path):
    with pytest.raises(LexiconError) as caught:
        load_language_pack(tmp_path / "absent.json")
    assert caught.value.code == "LEXICON_NOT_FOUND"
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff{not json")
    with pytest.raises(LexiconError) as caught:
        load_language_pack(garbage)
    assert caught.value.code == "LEXICON_MALFORMED"


def test_teaching_chain_must_link_known_lemmas(tmp_path):
    pack = tmp_path / "test_v1.json"
    pack.write_text(json.dumps(GOOD), encoding="utf-8")
    teaching = tmp_path / "teaching.json"
    broken = {
        "chains": [{"chain_id": "c", "steps": [{"from": "lantern", "relation": "r", "to": "moon"}]}]
    }
    teaching.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(LexiconError) as caught:
        load_lexicon([pack], teaching)
    assert caught.value.code == "LEXICON_UNKNOWN_LEMMA"


def test_shipped_packs_are_valid():
    for path in sorted(DATA_DIR.glob("*_v1.json")):
        assert load_language_pack(path).lemmas
