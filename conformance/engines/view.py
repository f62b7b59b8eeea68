"""Engine output as the suite reads it: a member that is missing or of the wrong type is a
FAIL naming its path, never the suite's own ``KeyError`` or ``TypeError``.

:func:`view` wraps a parsed JSON value. Objects and arrays come back as :class:`ObjectView`
and :class:`ArrayView`, plain ``dict`` and ``list`` subclasses (so equality, ``json.dumps``
and schema validation see the same data), whose item access raises :class:`MemberError`
for a missing member or index, and whose members are views in turn, each knowing its JSON
path. :func:`member` reads one member and checks its JSON type.
"""

from __future__ import annotations

from typing import Any

JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}
MAX_SHOWN = 80


class MemberError(AssertionError):
    """Engine output lacks a member the suite reads, or holds it with the wrong JSON type.

    An ``AssertionError``, so the runner counts it as the engine failing the requirement.
    """


def json_type(value: object) -> str:
    """The JSON type name of a parsed JSON *value* (a bool is not an integer)."""
    if isinstance(value, bool):
        return "boolean"
    for name in ("object", "array", "string", "integer", "number", "null"):
        if isinstance(value, JSON_TYPES[name]):
            return name
    return type(value).__name__


def shown(value: object) -> str:
    """*value* as a short one-line text for a message."""
    text = " ".join(repr(value).split())
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _child(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{key!r}]"


def view(value: Any, path: str = "$") -> Any:
    """*value* with item access that fails as :class:`MemberError` (a scalar as it is)."""
    if isinstance(value, ObjectView | ArrayView):
        return value
    if type(value) is dict:
        return ObjectView(value, path)
    if type(value) is list:
        return ArrayView(value, path)
    return value


class ObjectView(dict[str, Any]):
    """A JSON object read from an engine: a missing member is a :class:`MemberError`."""

    path = "$"

    def __init__(self, data: dict[str, Any] | None = None, path: str = "$") -> None:
        super().__init__(data or {})
        self.path = path

    def __getitem__(self, key: str) -> Any:
        try:
            value = dict.__getitem__(self, key)
        except KeyError:
            members = ", ".join(sorted(map(str, self))) or "none"
            raise MemberError(
                f"{_child(self.path, key)}: missing (expected a member {key!r}; "
                f"the object has {members})"
            ) from None
        except TypeError:
            raise MemberError(f"{self.path}: cannot hold a member {shown(key)}") from None
        return view(value, _child(self.path, key))

    def get(self, key: str, default: Any = None) -> Any:
        if key in self:
            return self[key]
        return default

    def values(self) -> Any:
        return [self[k] for k in self]

    def items(self) -> Any:
        return [(k, self[k]) for k in self]

    def __reduce__(self) -> Any:
        return (ObjectView, (dict(self), self.path))


class ArrayView(list[Any]):
    """A JSON array read from an engine: an index past its end is a :class:`MemberError`."""

    path = "$"

    def __init__(self, data: list[Any] | None = None, path: str = "$") -> None:
        super().__init__(data or [])
        self.path = path

    def __getitem__(self, index: Any) -> Any:
        try:
            value = list.__getitem__(self, index)
        except IndexError:
            raise MemberError(
                f"{_child(self.path, index)}: missing (the array has {len(self)} item(s))"
            ) from None
        except TypeError:
            raise MemberError(f"{self.path}: cannot be indexed by {shown(index)}") from None
        if isinstance(index, slice):
            return ArrayView(value, f"{self.path}[{index.start or 0}:]")
        return view(value, _child(self.path, index if index >= 0 else len(self) + index))

    def __iter__(self) -> Any:
        for index, value in enumerate(list.__iter__(self)):
            yield view(value, _child(self.path, index))

    def __reduce__(self) -> Any:
        return (ArrayView, (list(self), self.path))


def member(obj: Any, key: str | int, *types: str) -> Any:
    """``obj[key]``, checked to be of one of the JSON *types* (``"string"``, ``"array"``...).

    A missing member, or one of another type, is a :class:`MemberError` naming its path,
    what was expected and what came.
    """
    base = view(obj)
    if not isinstance(base, ObjectView | ArrayView):
        raise MemberError(
            f"{getattr(obj, 'path', '$')}: expected a container to read {key!r} from, "
            f"got {json_type(obj)} {shown(obj)}"
        )
    value = base[key]  # type: ignore[index]
    if (
        types
        and json_type(value) not in types
        and not ("number" in types and json_type(value) == "integer")
    ):
        raise MemberError(
            f"{_child(base.path, key)}: expected {' or '.join(types)}, "
            f"got {json_type(value)} {shown(value)}"
        )
    return value


def sealed_json(files: Any, name: str) -> Any:
    """The JSON document of file *name* among a ``register.ratify`` result's *files* (base64
    by name), as a view: a missing file, bad base64 or bytes that are not JSON is a
    :class:`MemberError` naming the file."""
    import base64
    import binascii
    import json

    data = member(files, name, "string")
    path = f"{_child(getattr(files, 'path', '$.files'), name)} (decoded)"
    try:
        document = json.loads(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError) as exc:
        raise MemberError(f"{path}: expected base64 of a JSON document, {exc}") from None
    return view(document, path)
