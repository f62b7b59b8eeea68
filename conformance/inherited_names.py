"""Names a programming language's objects hold by inheritance, and a control for each.

A port that keeps a table as a plain object (JavaScript, Lua, an ``eval``-ed map) finds
these names in every table although no document lists them: ``ops["constructor"]`` is a
function, ``args.hasOwnProperty`` is shadowed by a member of that name, ``Object.assign``
drops a ``__proto__`` key. docs/protocol.md § Closed lists: a name is only the string it
is. Each name is paired with a *control*, the same name with its last letter changed,
which no runtime holds: the two must get the same answer.
"""

from __future__ import annotations

INHERITED_NAMES = (
    "constructor",
    "__proto__",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "__defineGetter__",
    "__lookupSetter__",
    "prototype",
    "length",
    "__class__",
    "__init__",
    "__dict__",
    "__index",
)
"""Members of every JavaScript object (``Object.prototype``), of every function
(``prototype``) and of every array or string (``length``); attributes of every Python
object (``hasattr``, ``getattr``); Lua's metatable key."""

PROMPT_WORDS = ("constructor", "prototype", "length", "toString", "valueOf", "hasOwnProperty")
"""The names that are words of a prompt (runs of letters); camel case as a user may type
it, which step 1 lowercases."""


def control(name: str) -> str:
    """*name* with its last letter replaced by ``q`` (``z`` if it is a ``q``), in its case."""
    last = max(i for i, char in enumerate(name) if char.isalpha())
    other = "z" if name[last].lower() == "q" else "q"
    if name[last].isupper():
        other = other.upper()
    return name[:last] + other + name[last + 1 :]


def as_named(text: str, name: str) -> str:
    """*text* with every control of *name* written as *name* (the control's answer in the
    terms of the name's)."""
    return text.replace(control(name), name)
