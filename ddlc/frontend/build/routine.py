"""Builders: CREATE FUNCTION (§5.8) and ALTER FUNCTION / ALTER PROCEDURE (§3.9, §5.9).

The CREATE FUNCTION tree is ``{"fmt": "%{function}s", "function": <pg_get_functiondef text>}``; the
text is read by :mod:`ddlc.frontend.sql.functext` (and cross-checked with pglast when it is
PostgreSQL-style). A text the scanner cannot read is kept as an Opaque statement.

This module also holds the helpers the other families of this group share: :class:`Unrecognized`
and :func:`keep_as_text` (a tree with a value outside the deparser's vocabulary is kept as its raw
text in an :class:`~ddlc.ir.statement.Opaque`, with a diagnostic, so the GaussDB output stays exact).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from decimal import Decimal

from ...diagnostics import Severity, register
from ...errors import Path
from ...ir.base import replace
from ...ir.routine import (
    AlterFunction, FunctionAction, FunctionActionKind, NullInput, RoutineKind, RoutineSignature, Security, Volatility,
)
from ...ir.statement import Opaque, OpaqueReason, Statement
from ..sql.functext import FunctionTextError, crosscheck, parse_function_text
from . import shape
from ._read import Obj, member
from ... import lazyre

N_FUNCTION_TEXT = register(
    "DDLC-N401", Severity.NOTE, "Function text not parsed",
    "The CREATE FUNCTION text could not be read by ddlc's header scanner. It is kept as text: the "
    "GaussDB target prints it unchanged, other targets report it instead of translating it.",
    '{"fmt": "%{function}s", "function": "CREATE FUNCTION broken("}',
)
N_CROSSCHECK = register(
    "DDLC-N402", Severity.NOTE, "Function header read differently by pglast",
    "The CREATE FUNCTION header was read by ddlc's scanner and, with its openGauss-only words blanked "
    "out, by pglast; the two readings disagree on the named field. ddlc keeps its own reading. "
    "Please report the text.",
)
N_UNRECOGNIZED = register(
    "DDLC-N403", Severity.NOTE, "Tree value outside the deparser's vocabulary",
    "A value of the tree (a keyword string, a nested `fmt`) is not one the openGauss deparser writes for "
    "this statement kind, so ddlc cannot give it a meaning. The statement is kept as its exact text: the "
    "GaussDB target prints it unchanged, other targets report it instead of translating it.",
    '{"fmt": "CREATE %{definer}s %{constraint}s TRIGGER ... %{time}s ...", "time": "SOMETIMES", ...}',
)


# ---- shared helpers -------------------------------------------------------------------------
class Unrecognized(Exception):
    """A value outside the vocabulary the deparser writes (see :func:`keep_as_text`)."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def keep_as_text(kind: str) -> Callable[[Callable[[Obj], Statement]], Callable[[Obj], Statement]]:
    """Builder decorator: :class:`Unrecognized` -> an Opaque holding the tree's raw expansion."""

    def deco(fn: Callable[[Obj], Statement]) -> Callable[[Obj], Statement]:
        @functools.wraps(fn)
        def wrapper(o: Obj) -> Statement:
            try:
                return fn(o)
            except Unrecognized as u:
                from ...jddl.expand import expand

                text = expand(o.d, document=o.ctx.document, path=o.path)
                o.ctx.diag(N_UNRECOGNIZED, f"{kind}: {u.message}; kept as text", u.path)
                return Opaque(text, kind=kind, reason=OpaqueReason.UNPARSED, origin=o.path)

        return wrapper

    return deco


def exact(o: Obj, key: str, *allowed: str) -> str:
    """A keyword string member that must be one of ``allowed`` (else :class:`Unrecognized`). The common
    member (a string, under the spelling asked for, one of ``allowed``) is read at once; any other as before."""
    raw = o.d.get(key)
    if raw.__class__ is str and raw in allowed:
        return raw
    raw = o.raw(key)
    v = "" if isinstance(raw, dict) and raw.get("present", True) is False else o.str(key)
    if v not in allowed:
        raise Unrecognized(f"{key} {v!r} is not one of {', '.join(map(repr, allowed))}", o.at(key))
    return v


def sub(o: Obj, key: str, *fmts: str) -> Obj | None:
    """A nested clause object: None when not present, else its fmt must be one of ``fmts``. The common member
    (an object under the spelling asked for, not present, or present with one of ``fmts``) is read at once
    (no accessor calls: ~9k instructions a member); any other as before, with its errors."""
    v = o.d.get(key)
    if v.__class__ is dict:
        if v.get("present", True) is False:
            return None
        f = v.get("fmt")
        if f.__class__ is str and f in fmts:
            return Obj(v, o.path + (key,), o.ctx)
    v = o.raw(key)
    if v == "":  # an empty slot (the form of another version): not present
        return None
    if not isinstance(v, dict):
        raise Unrecognized(f"{key} is not an object", o.at(key))
    if v.get("present", True) is False:
        return None
    s = o.obj(key)
    if s.fmt not in fmts:
        raise Unrecognized(f"{key} has an unexpected fmt {s.fmt!r}", s.at("fmt"))
    return s


@shape("create_function", r"%\{function\}s\Z")
def build_create_function(o: Obj) -> Statement:
    text = o.str("function")
    try:
        stmt, spans = parse_function_text(text, origin=o.at("function"))
    except FunctionTextError as e:
        o.ctx.diag(N_FUNCTION_TEXT, f"CREATE FUNCTION text not parsed: {e}; kept as text", o.at("function"))
        kind = "CREATE PROCEDURE" if re.match(r"\s*CREATE\b[^(]*\bPROCEDURE\b", text, re.I) else "CREATE FUNCTION"
        return Opaque(text, kind=kind, reason=OpaqueReason.UNPARSED, origin=o.path)
    for field_name in crosscheck(stmt, spans):
        o.ctx.diag(N_CROSSCHECK, f"pglast reads the function's {field_name} differently", o.at("function"))
    return replace(stmt, layout=o.fmt, origin=o.path)


# ---- ALTER FUNCTION -------------------------------------------------------------------------
_SIG_FMTS = ("%{identity}D ()", "%{identity}D (%{arguments:, }s)")
_PLAIN_ACTIONS: dict[str, FunctionAction] = {
    "RETURNS NULL ON NULL INPUT": FunctionAction(FunctionActionKind.NULL_INPUT, null_input=NullInput.RETURNS_NULL),
    "CALLED ON NULL INPUT": FunctionAction(FunctionActionKind.NULL_INPUT, null_input=NullInput.CALLED),
    "LEAKPROOF": FunctionAction(FunctionActionKind.LEAKPROOF, on=True),
    "NOT LEAKPROOF": FunctionAction(FunctionActionKind.LEAKPROOF, on=False),
    "RESET ALL": FunctionAction(FunctionActionKind.RESET_ALL),
    **{s.value: FunctionAction(FunctionActionKind.SECURITY, security=s) for s in Security},
}
_NAMED_ACTIONS = {
    "SET %{set_name}I TO %{set_value}L": (FunctionActionKind.SET, False),
    "SET %{set_name}I TO %{set_value}s": (FunctionActionKind.SET, True),
    "SET %{set_name}I FROM CURRENT": (FunctionActionKind.SET_FROM_CURRENT, False),
    "RESET %{set_name}I": (FunctionActionKind.RESET, False),
}


def _num(e: Obj, key: str) -> int | float:
    v = e.raw(key)
    if isinstance(v, bool) or not isinstance(v, int | float | Decimal):
        raise Unrecognized(f"{key} is not a number", e.at(key))
    return v  # type: ignore[return-value]


def _action(e: Obj) -> FunctionAction:
    f = e.fmt
    path = e.path
    if not e.present:
        if f == "ROWS %{rows}n":
            return FunctionAction(FunctionActionKind.ROWS, number=None, layout=f, origin=path)
        raise Unrecognized(f"unexpected not-present action {f!r}", path)
    if f.lower() in ("immutable", "stable", "volatile"):
        return FunctionAction(FunctionActionKind.VOLATILITY, volatility=member(Volatility, f.lower()), layout=f, origin=path)
    if f in _PLAIN_ACTIONS:
        return replace(_PLAIN_ACTIONS[f], layout=f, origin=path)
    if f == "COST %{cost}n":
        return FunctionAction(FunctionActionKind.COST, number=_num(e, "cost"), layout=f, origin=path)
    if f == "ROWS %{rows}n":
        return FunctionAction(FunctionActionKind.ROWS, number=_num(e, "rows"), layout=f, origin=path)
    if f in _NAMED_ACTIONS:
        kind, list_form = _NAMED_ACTIONS[f]
        value = e.str("set_value") if kind is FunctionActionKind.SET else None
        return FunctionAction(kind, name=e.str("set_name"), value=value, list_form=list_form, layout=f, origin=path)
    if f == "PARALLEL %{value}s":
        return FunctionAction(FunctionActionKind.PARALLEL, value=e.str("value"), layout=f, origin=path)
    raise Unrecognized(f"unknown ALTER FUNCTION action {f!r}", e.at("fmt"))


@shape("alter_function", r"ALTER (FUNCTION|PROCEDURE) %\{signature\}s")
@keep_as_text("ALTER FUNCTION")
def build_alter_function(o: Obj) -> Statement:
    m = re.match(r"ALTER (FUNCTION|PROCEDURE) %\{signature\}s %\{definition: \}s\Z", o.fmt)
    if m is None:
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    s = sub(o, "signature", *_SIG_FMTS)
    if s is None:
        raise Unrecognized("signature not present", o.at("signature"))
    args = []
    if "%{arguments" in s.fmt:
        for a in s.items("arguments"):
            if not isinstance(a, Obj) or a.fmt != "%{type}T":
                raise Unrecognized("signature argument is not a %{type}T object", s.at("arguments"))
            args.append(a.typename("type"))
    signature = RoutineSignature(s.qname("identity"), tuple(args), layout=s.fmt, origin=s.path)
    raw = o.raw("definition")
    if not isinstance(raw, list):
        raise Unrecognized("definition is not an array", o.at("definition"))
    actions = []
    for i, e in enumerate(raw):
        if not isinstance(e, dict):
            raise Unrecognized("action is not an object", o.at("definition") + (i,))
        actions.append(_action(Obj(e, o.at("definition") + (i,), o.ctx)))
    return AlterFunction(member(RoutineKind, m.group(1)), signature, tuple(actions), layout=o.fmt, origin=o.path)


__all__ = [
    "Unrecognized", "keep_as_text", "exact", "sub", "FunctionTextError", "parse_function_text", "crosscheck",
    "build_create_function", "build_alter_function",
]


# ---- CREATE FUNCTION, GaussDB's tree --------------------------------------------------------
# GaussDB deparses CREATE FUNCTION into keys rather than one text (the options in any order, as
# the grammar takes them; an option not given is "" or absent):
#   CREATE %{or_replace}s FUNCTION %{signature}s RETURNS %{return_type}T LANGUAGE %{language}I
#   %{volatility}s %{strict}s %{security_definer}s %{cost}s AS %{definition}L
# The tree is expanded once and that text read by the same scanner as openGauss's
# pg_get_functiondef text, so both give the same IR.
_GAUSS_FUNCTION = lazyre.compile(
    r"CREATE %\{or_replace\}s FUNCTION %\{signature\}s RETURNS %\{return_type\}T LANGUAGE %\{language\}I"
    r"((?: %\{(?:volatility|strict|security_definer|leakproof|cost|rows)\}s)*) AS %\{definition\}L"
)
_GAUSS_WORDS: dict[str, tuple[str, ...]] = {
    "or_replace": ("", "OR REPLACE"),
    "volatility": ("", "IMMUTABLE", "STABLE", "VOLATILE"),
    "strict": ("", "STRICT", "CALLED ON NULL INPUT", "RETURNS NULL ON NULL INPUT"),
    "security_definer": ("", *(s.value for s in Security)),
    "leakproof": ("", "LEAKPROOF", "NOT LEAKPROOF"),
}
_GAUSS_NUMBER = {"cost": re.compile(r"COST \d+(?:\.\d+)?\Z"), "rows": re.compile(r"ROWS \d+(?:\.\d+)?\Z")}


def _gauss_option(o: Obj, key: str) -> None:
    """A keyword option of GaussDB's CREATE FUNCTION tree: "", a word of its vocabulary, a not-present
    object, or (COST / ROWS) ``"COST 100"`` or ``{"fmt": "COST %{cost}n", "cost": 100}``."""
    v = o.raw(key, "")
    if isinstance(v, dict):
        if v.get("present", True) is False:
            return
        if key in _GAUSS_NUMBER and v.get("fmt") == f"{key.upper()} %{{{key}}}n":
            _num(Obj(v, o.at(key), o.ctx), key)
            return
        raise Unrecognized(f"{key} has an unexpected form", o.at(key))
    if not isinstance(v, str):
        raise Unrecognized(f"{key} is not a string", o.at(key))
    if key in _GAUSS_NUMBER:
        if v.strip() and not _GAUSS_NUMBER[key].match(v.strip().upper()):
            raise Unrecognized(f"{key} {v!r} is not '{key.upper()} n'", o.at(key))
        return
    if v.strip().upper() not in _GAUSS_WORDS[key]:
        allowed = ", ".join(repr(w) for w in _GAUSS_WORDS[key])
        raise Unrecognized(f"{key} {v!r} is not one of {allowed}", o.at(key))


@shape("create_function_gaussdb", r"CREATE %\{or_replace\}s FUNCTION %\{signature\}s ")
@keep_as_text("CREATE FUNCTION")
def build_create_function_gaussdb(o: Obj) -> Statement:
    m = _GAUSS_FUNCTION.fullmatch(o.fmt)
    if m is None:
        raise Unrecognized(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
    _gauss_option(o, "or_replace")
    for key in re.findall(r"%\{(\w+)\}s", m.group(1)):
        _gauss_option(o, key)
    o.typename("return_type")  # checked as a type
    from ...jddl.expand import expand
    from ...quoting import canonicalize

    text = canonicalize(expand(o.d, document=o.ctx.document, path=o.path))
    try:
        stmt, _spans = parse_function_text(text, origin=o.path)
    except FunctionTextError as e:
        o.ctx.diag(N_FUNCTION_TEXT, f"CREATE FUNCTION text not parsed: {e}; kept as text", o.path)
        return Opaque(text, kind="CREATE FUNCTION", reason=OpaqueReason.UNPARSED, origin=o.path)
    return replace(stmt, layout=o.fmt, origin=o.path)
