"""A validity-only JSON Schema 2020-12 checker for the schemas in ``grammars/``.

:func:`ddlc.frontend.schema.validate` asks :func:`is_valid` first: a valid document (the common
case) is then answered without importing ``jsonschema`` and its dependencies (``referencing``,
``attrs``, ``rpds``, ...), which cost more start-up time than the rest of ``ddlc check``. Only an
invalid document goes on to ``jsonschema`` for the full list of violations, with ddlc's messages.

The checker compiles, once per process and on first use, each schema object into a closure that
answers "is this instance valid?" with exactly the semantics ``jsonschema``'s
``Draft202012Validator`` gives the keywords below (same type checker, same ``equal`` for
``const``/``enum``, ``re.search`` for ``pattern``). It implements only the keywords the grammars
use; a schema with any other keyword makes :func:`compile_schemas` raise :class:`Unsupported`, and
the caller falls back to ``jsonschema`` -- a future grammar change can make validation slower,
never laxer.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from numbers import Number
from typing import Any
import posixpath

from .grammar_files import ROOT_ID, load_schemas

__all__ = ["ANNOTATIONS", "KEYWORDS", "Unsupported", "compile_schemas", "equal", "is_valid"]

Check = Callable[[Any], bool]


class Unsupported(Exception):
    """The schemas use something this checker does not implement: use ``jsonschema``."""


# Keywords that never affect validity (annotations and containers of other schemas).
ANNOTATIONS = frozenset({
    "$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default",
    "deprecated", "readOnly", "writeOnly",
})
# Keywords this checker implements; ``then``/``else`` only matter next to ``if``.
KEYWORDS = frozenset({
    "type", "const", "enum", "pattern", "required", "properties", "additionalProperties",
    "items", "minItems", "allOf", "anyOf", "not", "if", "then", "else", "$ref",
})


# --------------------------------------------------------------------------- jsonschema semantics

def _is_integer(value: Any) -> bool:
    # Draft 2020-12: an int that is not a bool, or a float with an integral value (1.0).
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


_TYPES: dict[str, Check] = {
    "array": lambda v: isinstance(v, list),
    "boolean": lambda v: isinstance(v, bool),
    "integer": _is_integer,
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, Number) and not isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "string": lambda v: isinstance(v, str),
}

_TRUE = object()
_FALSE = object()


def _unbool(value: Any) -> Any:
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return value


def equal(one: Any, two: Any) -> bool:
    """JSON equality as ``jsonschema`` decides it: ``1 == 1.0`` but ``True != 1``, recursively."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(k in two and equal(v, two[k]) for k, v in one.items())
    return _unbool(one) == _unbool(two)


# --------------------------------------------------------------------------- the compiler

# Where each keyword keeps its subschemas (for the vetting walk).
_ONE = frozenset({"items", "not", "if", "then", "else", "additionalProperties"})
_MANY = frozenset({"allOf", "anyOf"})
_NAMED = frozenset({"properties", "$defs"})
_ALLOWED = KEYWORDS | ANNOTATIONS


class _Compiler:
    """Compiles schema objects to checks, lazily: a ``$ref`` target is compiled on its first use.

    :meth:`vet` walks every schema up front, so an unknown keyword or a dangling ``$ref`` anywhere
    fails the whole build, whether or not a document ever reaches it.
    """

    def __init__(self, schemas: Mapping[str, Any]) -> None:
        self.schemas = schemas
        self.by_uri: dict[str, Check] = {}

    def vet(self) -> None:
        refs: set[tuple[str, str]] = set()
        for doc_uri, document in self.schemas.items():
            stack = [(document, True)]
            while stack:
                schema, at_root = stack.pop()
                if schema is True or schema is False:
                    continue
                if not isinstance(schema, dict):
                    raise Unsupported(f"not a schema: {schema!r}")
                if not _ALLOWED.issuperset(schema):
                    unknown = ", ".join(sorted(set(schema) - _ALLOWED))
                    raise Unsupported(f"keyword(s) {unknown} not implemented")
                if not at_root and ("$id" in schema or "$defs" in schema):
                    raise Unsupported("$id or $defs below a resource root")
                for key, sub in schema.items():
                    if key in _ONE:
                        stack.append((sub, False))
                    elif key in _MANY:
                        stack.extend((each, False) for each in _list(sub))
                    elif key in _NAMED:
                        if not isinstance(sub, dict):
                            raise Unsupported(f"{key}: {sub!r}")
                        stack.extend((each, False) for each in sub.values())
                    elif key == "$ref":
                        refs.add((doc_uri, sub))
        for doc_uri, ref in refs:
            self.resolve(urljoin(doc_uri, ref))

    def resolve(self, uri: str) -> tuple[Any, str]:
        doc_uri, _, fragment = uri.partition("#")
        if doc_uri not in self.schemas:
            raise Unsupported(f"$ref {uri!r}: no schema with that $id")
        return _pointer(self.schemas[doc_uri], fragment, uri), doc_uri

    def ref(self, ref: str, base: str) -> Check:
        uri = urljoin(base, ref)
        check = self.by_uri.get(uri)
        if check is None:
            target, doc_uri = self.resolve(uri)
            compiled: Check | None = None

            def check(value: Any) -> bool:
                nonlocal compiled
                if compiled is None:
                    compiled = self.compile(target, doc_uri)
                return compiled(value)

            self.by_uri[uri] = check
        return check

    def compile(self, schema: Any, base: str) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        checks: list[Check] = []
        # Cheap, value-level keywords first: an invalid value fails sooner.
        if "type" in schema:
            checks.append(_type(schema["type"]))
        if "const" in schema:
            checks.append(_const(schema["const"]))
        if "enum" in schema:
            checks.append(_enum(schema["enum"]))
        if "pattern" in schema:
            checks.append(_pattern(schema["pattern"]))
        if "minItems" in schema:
            checks.append(_min_items(schema["minItems"]))
        if "required" in schema:
            checks.append(_required(schema["required"]))
        if "properties" in schema or "additionalProperties" in schema:
            checks.append(self._properties(schema, base))
        if "items" in schema:
            checks.append(_items(self.compile(schema["items"], base)))
        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"], base))
        for sub in schema.get("allOf", ()):
            checks.append(self.compile(sub, base))
        if "anyOf" in schema:
            checks.append(_any_of([self.compile(s, base) for s in schema["anyOf"]]))
        if "not" in schema:
            checks.append(_not(self.compile(schema["not"], base)))
        if "if" in schema:
            checks.append(_if(
                self.compile(schema["if"], base),
                self.compile(schema["then"], base) if "then" in schema else None,
                self.compile(schema["else"], base) if "else" in schema else None,
            ))
        return _all(checks)

    def _properties(self, schema: dict, base: str) -> Check:
        props = schema.get("properties", {})
        if not isinstance(props, dict):
            raise Unsupported(f"properties: {props!r}")
        named = tuple((k, self.compile(s, base)) for k, s in props.items() if s is not True)
        extra = schema.get("additionalProperties", True)
        rest = None if extra is True else self.compile(extra, base)
        known = frozenset(props)

        def check(value: Any) -> bool:
            if not isinstance(value, dict):
                return True
            for key, sub in named:
                if key in value and not sub(value[key]):
                    return False
            if rest is not None:
                for key, member in value.items():
                    if key not in known and not rest(member):
                        return False
            return True

        return check


def _list(value: Any) -> list:
    if not isinstance(value, list) or not value:
        raise Unsupported(f"expected a non-empty array of schemas, got {value!r}")
    return value



def urljoin(base: str, ref: str) -> str:
    """``urllib.parse.urljoin`` for the references the grammars hold (``#/$defs/x``, ``name.json#...``,
    ``../name.json#...`` against an ``https://`` $id); anything else goes to urllib itself (start-up:
    urllib.parse costs 2 ms to import)."""
    if not ref:
        return base
    if ref.startswith("#"):
        return base.partition("#")[0] + (ref if ref != "#" else "")
    path = ref.partition("#")[0]
    if ("://" in ref or ref.startswith(("/", "?")) or "://" not in base or "?" in base or "?" in ref or "%" in ref
            or "//" in path or path.rpartition("/")[2] in ("", ".", "..") or "/" not in base.partition("://")[2]):
        from urllib.parse import urljoin as full

        return full(base, ref)
    path, sep, fragment = ref.partition("#")
    scheme, _, rest = base.partition("#")[0].partition("://")
    host, slash, base_path = rest.partition("/")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname("/" + base_path), path))
    return f"{scheme}://{host}{joined}{sep if fragment else ''}{fragment}"


def _pointer(document: Any, fragment: str, uri: str) -> Any:
    if fragment == "":
        return document
    if not fragment.startswith("/"):
        raise Unsupported(f"$ref {uri!r}: only JSON pointers are supported (no anchors)")
    node = document
    for part in fragment[1:].split("/"):
        if "%" in part:
            from urllib.parse import unquote

            part = unquote(part)
        part = part.replace("~1", "/").replace("~0", "~")
        try:
            node = node[int(part) if isinstance(node, list) else part]
        except (KeyError, IndexError, ValueError, TypeError):
            raise Unsupported(f"$ref {uri!r} does not resolve") from None
    return node


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) and second(value)
    frozen = tuple(checks)

    def check(value: Any) -> bool:
        for each in frozen:
            if not each(value):
                return False
        return True

    return check


def _type(expected: Any) -> Check:
    names = [expected] if isinstance(expected, str) else expected
    if not isinstance(names, list) or not names or any(n not in _TYPES for n in names):
        raise Unsupported(f"type {expected!r}")
    if len(names) == 1:
        return _TYPES[names[0]]
    tests = tuple(_TYPES[n] for n in names)
    return lambda value: any(t(value) for t in tests)


def _const(expected: Any) -> Check:
    if isinstance(expected, str):  # equal() is plain == as soon as one side is a string
        return lambda value: value == expected
    return lambda value: equal(value, expected)


def _enum(options: Any) -> Check:
    if not isinstance(options, list):
        raise Unsupported(f"enum {options!r}")
    strings = frozenset(o for o in options if isinstance(o, str))
    others = tuple(o for o in options if not isinstance(o, str))

    def check(value: Any) -> bool:
        if isinstance(value, str):
            if value in strings:
                return True
        elif strings and any(equal(value, s) for s in strings):
            return True
        return any(equal(value, o) for o in others)

    return check


def _pattern(pattern: Any) -> Check:
    if not isinstance(pattern, str):
        raise Unsupported(f"pattern {pattern!r}")
    compiled: re.Pattern[str] | None = None  # compiled on first use, as ref targets are

    def check(value: Any) -> bool:
        nonlocal compiled
        if not isinstance(value, str):
            return True
        if compiled is None:
            compiled = re.compile(pattern)
        return compiled.search(value) is not None  # what jsonschema's re.search(pattern, value) does

    return check


def _min_items(minimum: Any) -> Check:
    if not isinstance(minimum, int) or isinstance(minimum, bool):
        raise Unsupported(f"minItems {minimum!r}")
    return lambda value: not isinstance(value, list) or len(value) >= minimum


def _required(names: Any) -> Check:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Unsupported(f"required {names!r}")
    keys = tuple(names)
    if len(keys) == 1:
        key = keys[0]
        return lambda value: not isinstance(value, dict) or key in value
    return lambda value: not isinstance(value, dict) or all(k in value for k in keys)


def _items(sub: Check) -> Check:
    def check(value: Any) -> bool:
        if not isinstance(value, list):
            return True
        for each in value:
            if not sub(each):
                return False
        return True

    return check


def _any_of(subs: Iterable[Check]) -> Check:
    frozen = tuple(subs)
    return lambda value: any(s(value) for s in frozen)


def _not(sub: Check) -> Check:
    return lambda value: not sub(value)


def _if(test: Check, then: Check | None, otherwise: Check | None) -> Check:
    then = then or _always
    otherwise = otherwise or _always
    return lambda value: then(value) if test(value) else otherwise(value)


# --------------------------------------------------------------------------- entry points

_LOCK = threading.Lock()
_ROOT: Check | None = None
_FAILED: Unsupported | None = None


def compile_schemas(schemas: Mapping[str, Any], root: str) -> Check:
    """The check for ``schemas[root]``; every schema is vetted now, compiled as first used."""
    compiler = _Compiler(schemas)
    compiler.vet()
    return compiler.ref(root, root)


def root_check() -> Check:
    """The compiled root schema (built on first use); raises :class:`Unsupported` if it cannot be."""
    global _ROOT, _FAILED
    if _ROOT is None:
        with _LOCK:
            if _FAILED is not None:
                raise _FAILED
            if _ROOT is None:
                try:
                    _ROOT = compile_schemas(load_schemas(), ROOT_ID)
                except Unsupported as exc:
                    _FAILED = exc
                    raise
    return _ROOT


def is_valid(tree: Any) -> bool:
    """Whether ``jsonschema`` would find no violation of the root schema in ``tree``."""
    return root_check()(tree)
