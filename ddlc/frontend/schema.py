"""JSON Schema validation of JDDL documents against ``grammars/``.

``grammars/jddl.schema.json`` describes the generic tree (nodes, ``%D`` names, ``%T`` types and the
shared clause shapes, in both key dialects) and the ``{"JDDL": tree}`` / ``{"TDDL": "text"}``
envelopes; ``grammars/statements/<kind>.schema.json`` adds the shape of each statement kind of the
reference catalogue (``jddl-shapes.md`` §5). The root schema picks the statement schema from the
leading words of ``fmt``, exactly as :func:`statement_kind` does (§6).

Two validators check the same schemas. The fast path is :mod:`._validators_generated`, Python code
that ``fastjsonschema`` generated from grammars/ at build time (``python -m tools.gen_validators``;
a test fails when it is out of date): it answers "valid or not" and stops at the first violation.
A valid document (the common case) is answered by it alone, without importing ``jsonschema`` and
its dependencies (``referencing``, ``attrs``, ``rpds``...), which cost more start-up time than the
rest of ``ddlc check``. Only an invalid document goes on to ``jsonschema``, which gives the full
list of violations, each with its JSON path, in ddlc's messages (``DDLC-E005``). A tree holding
anything but JSON values (a tuple, a ``Decimal``, a non-``dict`` mapping, a non-string key) and any
failure of the generated code skip the fast path: ``jsonschema`` then decides, as it always did.
tests/test_schema_validators.py proves the two agree on every fixture and on hypothesis mutations.
Importing this module costs nothing but a few compiled regular expressions.
"""

from __future__ import annotations

import json
from .. import lazyre
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from ..diagnostics import E_SCHEMA
from ..errors import DdlcError, PathPart
from .grammar_files import GRAMMARS, ROOT_ID, load_schemas

__all__ = ["GRAMMARS", "KINDS", "MAX_DEPTH", "ROOT_ID", "statement_kind", "validate", "validator"]

# Statement kinds by the leading words of ``fmt`` (reference §6). The patterns are mutually
# exclusive and are the very ones the schemas use: ``statements/<kind>.schema.json`` constrains
# ``fmt`` with it and the root schema dispatches on it (a test keeps the three in step).
KINDS: tuple[tuple[str, str], ...] = (
    ("create_table", r"^CREATE %\{persistence\}s TABLE "),
    ("alter_table", r"^ALTER %\{objtype\}s (?:%\{if_exists\}s )?%\{only\}s "),
    ("alter_table_followup", r"^(?:ALTER TABLE %\{only\}s |UPDATE |DECLARE\s)"),
    ("drop", r"^DROP %\{objtype\}s "),
    ("create_index", r"^CREATE %\{unique\}s INDEX "),
    ("create_sequence", r"^CREATE %\{persistence\}s %\{large\}s SEQUENCE "),
    ("alter_sequence", r"^ALTER %\{large\}s SEQUENCE "),
    ("create_view", r"^CREATE %\{or_replace\}s %\{persistence\}s VIEW "),
    ("create_function", r"^%\{function\}s"),
    ("alter_function", r"^ALTER (?:FUNCTION|PROCEDURE) "),
    ("create_trigger", r"^CREATE %\{definer\}s "),
    ("create_schema", r"^CREATE SCHEMA "),
    ("alter_schema", r"^ALTER SCHEMA %\{schemaname\}I"),
    ("comment", r"^COMMENT ON "),
    (
        "rename",
        r"^(?:ALTER %\{objtype\}s (?:%\{if_exists\}s )?%\{identity\}D RENAME "
        r"|ALTER (?:TABLE|TYPE) %\{identity\}D RENAME |ALTER SCHEMA %\{identity\}I RENAME "
        r"|RENAME TABLE )",
    ),
    ("set_schema", r"^ALTER %\{objtype\}s %\{identity\}s SET SCHEMA "),
    ("create_type", r"^CREATE TYPE "),
    ("event", r"^(?:CREATE %\{definer_opt\}s EVENT |ALTER %\{definer_opt\}s EVENT |DROP EVENT )"),
    ("newpub", r"^NEWPUB "),
)
_COMPILED = tuple((kind, lazyre.compile(pattern)) for kind, pattern in KINDS)


def _unwrap(tree: Any) -> Any:
    """The tree inside a ``{"JDDL": tree}`` envelope; anything else unchanged."""
    if isinstance(tree, Mapping) and "fmt" not in tree and "JDDL" in tree:
        return tree["JDDL"]
    return tree


def statement_kind(tree: Mapping) -> str | None:
    """The statement kind of a tree (or ``JDDL`` envelope): the stem of its statement schema.

    ``"create_table"``, ``"alter_table"``, ``"alter_table_followup"``, ... as listed in
    :data:`KINDS`; ``None`` for a TDDL envelope, a non-tree or an ``fmt`` no kind starts with.
    """
    tree = _unwrap(tree)
    if not isinstance(tree, Mapping):
        return None
    fmt = tree.get("fmt")
    if not isinstance(fmt, str):
        return None
    for kind, rx in _COMPILED:
        if rx.search(fmt):
            return kind
    return None


# --------------------------------------------------------------------------- the validator

_LOCK = threading.Lock()
_VALIDATOR: Any = None

MAX_DEPTH = 256  # as the expander's bound; real deparser trees are under 10 levels deep
_FRAMES_PER_LEVEL = 32  # Python frames jsonschema spends per object level, with margin


def validator() -> Any:
    """The cached ``Draft202012Validator`` for the root schema (all schema files registered)."""
    global _VALIDATOR
    if _VALIDATOR is None:
        with _LOCK:
            if _VALIDATOR is None:
                from jsonschema import Draft202012Validator
                from referencing import Registry, Resource
                from referencing.jsonschema import DRAFT202012

                schemas = load_schemas()
                registry = Registry().with_resources(
                    (uri, Resource.from_contents(s, default_specification=DRAFT202012))
                    for uri, s in schemas.items()
                )
                _VALIDATOR = Draft202012Validator(schemas[ROOT_ID], registry=registry.crawl())
    return _VALIDATOR


def validate(tree: Mapping, *, document: str | None = None) -> list[DdlcError]:
    """Every schema violation of a tree (or envelope), sorted by path; ``[]`` when valid.

    Paths are relative to the value given: inside the tree for a bare tree, starting with
    ``"JDDL"`` for an envelope. Each violation is a :class:`DdlcError` with code ``E_SCHEMA``.
    """
    depth, deepest, plain = _depth(tree)
    if depth > MAX_DEPTH:
        return [DdlcError(f"tree nested deeper than {MAX_DEPTH} levels", code=E_SCHEMA,
                          path=deepest, document=document)]
    if plain and _fast_valid(tree, depth):
        return []
    from jsonschema.exceptions import best_match

    try:
        with _stack_for(depth):
            raw = list(validator().iter_errors(tree))
    except RecursionError:
        return [DdlcError("tree nested too deeply to validate", code=E_SCHEMA, document=document)]
    leaves = [best_match([e]) if e.context else e for e in raw]  # anyOf/oneOf: the closest branch
    # The generic tree schema and a statement schema may both reject one value; the statement
    # schema's complaint is the more specific one, so the generic one goes.
    specific = {(tuple(e.absolute_path), _family(e)) for e in leaves if not _is_generic(e)}
    found: dict[tuple[tuple[PathPart, ...], str], DdlcError] = {}
    for err in leaves:
        path = tuple(err.absolute_path)
        if _is_generic(err) and (path, _family(err)) in specific:
            continue
        message = _message(err)
        found.setdefault(
            (path, message), DdlcError(message, code=E_SCHEMA, path=path, document=document)
        )
    return [found[k] for k in sorted(found, key=_sort_key)]


def _fast_valid(tree: Any, depth: int) -> bool:
    """True when the generated validator vouches for the tree; False sends it on to ``jsonschema``.

    Its "invalid" and any failure of it (a tree too deep for it, a module that does not load) are
    a "don't know", never a verdict: ``jsonschema`` then decides, and lists every violation.
    """
    try:
        from ._validators_generated import validate as fast

        with _stack_for(depth):
            fast(tree)
    except Exception:  # noqa: BLE001 - INVALID, RecursionError, ...: ask jsonschema instead
        return False
    return True


_GENERIC_TITLES = frozenset({"JDDL node", "member value"})


def _is_generic(err: Any) -> bool:
    return isinstance(err.schema, Mapping) and err.schema.get("title") in _GENERIC_TITLES


def _family(err: Any) -> str:
    """Keywords that all say "this value is the wrong one" count as one complaint."""
    return "value" if err.validator in ("type", "enum", "const", "pattern") else err.validator


_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})


def _depth(tree: Any) -> tuple[int, tuple[PathPart, ...], bool]:
    """Object nesting depth (counted like the expander does), a path to the deepest object, and
    whether the tree holds only what JSON decodes to (``dict`` with string keys, ``list``, ``str``,
    ``int``, ``float``, ``bool``, ``None``): the generated validator is only proven on those."""
    best: tuple[int, tuple[PathPart, ...]] = (0, ())
    plain = True
    stack: list[tuple[Any, int, tuple[PathPart, ...]]] = [(tree, 0, ())]
    while stack:
        value, level, path = stack.pop()
        if isinstance(value, Mapping):
            level += 1
            if level > best[0]:
                best = (level, path)
                if level > MAX_DEPTH:
                    break
            if plain and (type(value) is not dict or not all(type(k) is str for k in value)):
                plain = False
            stack.extend((child, level, path + (key,)) for key, child in value.items())
        elif isinstance(value, list):
            if plain and type(value) is not list:
                plain = False
            stack.extend((child, level, path + (i,)) for i, child in enumerate(value))
        elif plain and type(value) not in _JSON_SCALARS:
            plain = False
    return best[0], best[1], plain


@contextmanager
def _stack_for(depth: int) -> Iterator[None]:
    """Raise the recursion limit for the rare deep tree; real trees never need it."""
    needed = 200 + depth * _FRAMES_PER_LEVEL
    old = sys.getrecursionlimit()
    if needed <= old:
        yield
        return
    sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        if sys.getrecursionlimit() == needed:
            sys.setrecursionlimit(old)


def _sort_key(item: tuple[tuple[PathPart, ...], str]) -> tuple[tuple[tuple[int, Any], ...], str]:
    path, message = item
    return tuple((1, p) if isinstance(p, str) else (0, p) for p in path), message


# --------------------------------------------------------------------------- messages

_JSON_TYPE = {
    "string": "a string", "number": "a number", "integer": "an integer", "boolean": "a boolean",
    "array": "an array", "object": "an object", "null": "null",
}


def _show(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _where(err: Any) -> str:
    title = err.schema.get("title") if isinstance(err.schema, Mapping) else None
    return f" ({title})" if title else ""


def _message(err: Any) -> str:
    kw, expected, inst = err.validator, err.validator_value, err.instance
    if kw == "required":
        missing = [k for k in expected if isinstance(inst, Mapping) and k not in inst]
        named = next((k for k in missing if repr(k) in err.message), missing[0] if missing else "?")
        from ..jddl.keys import spelled_like

        return f'missing member "{spelled_like(inst, named)}"{_where(err)}'
    if kw == "type":
        wanted = [expected] if isinstance(expected, str) else list(expected)
        names = [_JSON_TYPE.get(t, t) for t in wanted]
        text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        msg = f"expected {text}, got {_kind_of(inst)}"
        if isinstance(inst, bool):
            msg += ' (booleans are only allowed in "present" and "typarray")'
        elif inst is None:
            msg += ' (null is only allowed inside a not-present object, "present": false)'
        return msg + _where(err)
    if kw == "enum":
        return f"{_show(inst)} is not one of {', '.join(_show(v) for v in expected)}{_where(err)}"
    if kw == "const":
        return f"expected {_show(expected)}, got {_show(inst)}{_where(err)}"
    if kw == "pattern":
        return f"{_show(inst)} does not match {expected!r}{_where(err)}"
    if kw == "minItems":
        return f"expected at least {expected} element(s), got {len(inst)}{_where(err)}"
    return err.message
