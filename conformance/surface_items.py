"""What an answer's surface must say, read from its ``says`` (docs/intents.md § What an answer
says, as data): the parts whose form the docs fix, and which of them a surface leaves out.

Plain dictionaries in, plain strings out: a member of the wrong type is left to the schema
check of the response, never raised here.
"""

from __future__ import annotations

import re
from typing import Any

VERDICT_WORDS = {"yes": "yes", "no": "no", "unknown": "not known"}
"""The word a surface says each verdict by."""


def plain(text: str) -> str:
    """*text* in lower case with every run of white space one space."""
    return " ".join(text.lower().split())


def said_as_words(words: str, text: str) -> bool:
    """Whether *text* holds *words* with no letter or digit joined to either end."""
    return words_at(words, text, 0) is not None


def words_at(words: str, text: str, start: int) -> int | None:
    """Where the first whole-word *words* of *text* at or after *start* ends (None: nowhere)."""
    found = re.compile(rf"(?<!\w){re.escape(words)}(?!\w)").search(text, start)
    return None if found is None else found.end()


def _list(says: dict[str, Any], name: str) -> list[Any]:
    value = says.get(name)
    return value if isinstance(value, list) else []


def _texts(values: list[Any]) -> list[str]:
    return [v for v in values if isinstance(v, str)]


def domain_lists(says: dict[str, Any]) -> list[list[str]]:
    """The domain lists of ``start``, ``spans`` and ``compared``."""
    lists = [_texts(_list(says, "start"))] if isinstance(says.get("start"), list) else []
    lists += [_texts(d) for d in _list(says, "spans") if isinstance(d, list)]
    compared = says.get("compared")
    if isinstance(compared, dict):
        lists.append(_texts(_list(compared, "shared")))
        lists += [_texts(d) for d in _list(compared, "own") if isinstance(d, list)]
    return lists


def unsaid(surface: str, says: dict[str, Any]) -> list[str]:
    """The items of *says* that *surface* does not say in the form the docs fix."""
    text = plain(surface)
    missing: list[str] = []
    at = 0
    for step in _list(says, "steps"):
        if not isinstance(step, dict):
            continue
        told = plain(f"{step.get('from')} {step.get('relation')} {step.get('to')}")
        end = words_at(told, text, at)
        if end is None:
            missing.append(f"the step {told!r} (whole words, in the order told)")
        else:
            at = end
    words = _texts([says.get("claim")]) + _texts(_list(says, "unknown"))
    quoted = [q for q in _list(says, "said") if isinstance(q, dict)]
    for said in quoted:
        claim, spoken = said.get("claim"), said.get("text")
        if isinstance(claim, str):
            words.append(claim)
        elif claim is None and isinstance(spoken, str):
            words.append(spoken.rstrip(".!?…;: "))
    for domains in domain_lists(says):
        words += domains
    missing += [f"{w!r}" for w in words if not said_as_words(plain(w), text)]
    numbers = [q.get("turn") for q in quoted if isinstance(q.get("turn"), int)]
    if isinstance(says.get("earlier"), int) and says.get("earlier") != 0:
        numbers.append(says["earlier"])
    missing += [
        f"the number {n}" for n in numbers if not re.search(rf"(?<![0-9]){n}(?![0-9])", text)
    ]
    verdict = says.get("verdict")
    word = VERDICT_WORDS.get(verdict, verdict) if isinstance(verdict, str) else None
    if word is not None and not said_as_words(plain(word), text):
        missing.append(f"the verdict {verdict!r} (as {word!r})")
    return missing


def _chats(exchanges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results of every ``session.chat`` of *exchanges*, those inside a batch included."""
    pairs: list[tuple[Any, Any]] = []
    for exchange in exchanges:
        request, response = exchange.get("request"), exchange.get("response")
        if not isinstance(request, dict) or not isinstance(response, dict):
            continue
        pairs.append((request, response))
        inner = request.get("args", {}).get("requests") if request.get("op") == "batch" else None
        answered = (response.get("result") or {}).get("responses")
        if isinstance(inner, list) and isinstance(answered, list):
            pairs += list(zip(inner, answered, strict=False))
    return [
        response["result"]
        for request, response in pairs
        if isinstance(request, dict)
        and request.get("op") == "session.chat"
        and isinstance(response, dict)
        and response.get("ok") is True
        and isinstance(response.get("result"), dict)
    ]


def first_unsaid(exchanges: list[dict[str, Any]]) -> str | None:
    """The first answer of *exchanges* whose surface leaves out an item of its ``says``."""
    for result in _chats(exchanges):
        says, surface = result.get("says"), result.get("surface")
        if not isinstance(says, dict) or not isinstance(surface, str):
            continue
        missing = unsaid(surface, says)
        if missing:
            return (
                f"an answer's surface does not say {', '.join(missing)} of its says "
                f"(docs/intents.md § What an answer says, as data; COG-ANSWER-005): "
                f"{surface[:160]!r}"
            )
    return None
