"""Round 12 of issue 26, the front half: what changed there gives what it gave before.

* :func:`ddlc.frontend.sql.identity.parse_identity` reads the common ASCII identities by ``str`` methods first
  (``_plain_names``: names joined by dots, a quoted name among them; ``_plain_on``: a trigger's or constraint's
  ``name on table``; ``_plain_signature``: a function's signature), and finds a kind's reader by the member's id.
  The former reading (the patterns, then the lexer) is kept here: the same identity, or None, for every kind and
  every string of the fixtures, the benchmark corpus's identities, and generated hostile texts (quotes, doubled
  quotes, dots, blanks of every kind, ``on``, parentheses, typmods, ``[]``, ``$``, ``$$``, ``--``, ``/*``,
  backslashes, newlines, non-ASCII, empty).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import identity
from ddlc.frontend.sql.identity import lexed_identity, parse_identity
from ddlc.ir.drop import ConstraintIdentity, IdentityKind, TriggerIdentity
from fixture_strings import json_strings

KINDS = list(IdentityKind)
TEXTS = sorted(json_strings(4000))


def _former(kind: IdentityKind, text: str, origin: Any = ()) -> Any:
    """parse_identity as it was at da28a32."""
    of_parts = identity._PARTS.get(kind)
    if of_parts is not None:
        if text.isascii():
            parts = text.split(".")
            for part in parts:
                if not part.isidentifier():
                    break
            else:
                return of_parts(parts, origin)
        if identity._NAMES.match(text) is None:
            return None
        return of_parts(identity._names(text), origin)
    if kind is IdentityKind.FUNCTION:
        sig = identity._signature(text, origin)
        if sig is not None:
            return sig
    elif kind is IdentityKind.TRIGGER or kind is IdentityKind.CONSTRAINT:
        m = identity._ON.match(text)
        if m is not None:
            left, table = identity._names(m.group(1)), identity._qn(identity._names(m.group(2)), origin)
            if kind is IdentityKind.TRIGGER:
                return TriggerIdentity(left[0], table, origin=origin) if len(left) == 1 else None
            return ConstraintIdentity(left[-1], table, left[0] if len(left) == 2 else None, origin=origin)
    return lexed_identity(kind, text, origin)


def _same(kind: IdentityKind, text: str) -> None:
    origin = ("objidentity",)
    got, want = parse_identity(kind, text, origin), _former(kind, text, origin)
    assert type(got) is type(want), (kind, text, got, want)
    assert msgspec.to_builtins(got) == msgspec.to_builtins(want), (kind, text, got, want)
    assert repr(got) == repr(want), (kind, text)


def _corpus_identities() -> list[str]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import corpus

    out = []
    for _, line in corpus.varied_corpus():
        doc = msgspec.json.decode(line)
        stack = [doc]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                for k, x in v.items():
                    if isinstance(x, str) and k in ("objidentity", "identity", "parentobj"):
                        out.append(x)
                    else:
                        stack.append(x)
            elif isinstance(v, list):
                stack.extend(v)
    return sorted(set(out))


SIGNATURES = [
    "f()", "f( )", "f(*)", "f( * )", "f(*, a)", "public.f(integer)", 'public."F"(integer, "char")',
    "s.f(integer, character varying, \"char\", timestamp(6) without time zone, numeric[], tinyint)",
    "f(numeric(10,2), numeric(10, 2), numeric(10,2)[], character varying(3)[])", "f(integer [])",
    "f(integer  ,  text)", "f(character  varying)", "f(timestamp(6)  with time zone)", "f(timestamp(6)with)",
    "f(public.t(1))", "f(public.t(1) x)", "f(\"t\"(1))", "f(\"t\"(1) x)", "f(a.b.c)", "f(a.)", "f(.a)",
    "f((10))", "f(a(1)(2))", "f(a)(b)", "f(a))", "f((a)", "f(a,,b)", "f(a,)", "f(,a)", "f(a$b)", "f$(a)",
    "f(1a)", "f(a 1b)", "f(a\tb)", "f(a\nb)", "f(a\x1cb)", "f(\"a,b\")", "f(\"a(b\", c(1))", "f(\"\")",
    'f("a""b")', "a.b.c(integer)", "f (integer)", " f(integer)", "f(integer) ", "f(integer)x",
    "f(double precision[])", "f(bit varying(5))", "\"my func\"(int)", "\"f(x)\"(integer)", "f(int, \"é\")",
    "f(é)", "f(a.\"b\"(3)[])", "f(\"a\".b)", "f([])", "f(a[][])", "f(a[]b)", "f(numeric[](1))", "f(a(1,)b)",
]
ONS = [
    "trg on public.t", "public.t_uk on public.t", "trg on t", "a.b on c.d", "a.b.c on d", "a on b.c.d",
    "\"T on x\" on t", "\"a b\" on t", "x on  t", "x  on t", "x ON t", "x on on t", "on on t", "x on on",
    "a on b on c", "\"a on b\"", "\"a\" on \"b\"", "\"a\"\" on \"b\"", "x on", "on x", " on ", "x\ton t",
    "x on t\n", "é on t", "x on \"é\"", "\"\" on t", "x on \"\"", "x.\"y\" on \"z\".w",
]
NAMES = ["public.orders", "\"Sales\"", "\"Sa.les\"", "\"Sa\"\"les\"", "a.\"b\".c", "\"\"", "\"\"\"\"", "a..b",
         ".a", "a.", "", "\"a\"b", "a\"b\"", "\"a\".\"b\"", "é.x", "a$b", "_", "1a", "a b", "\"a\nb\"",
         "\"a\\b\"", "\"$$\"", "\"--\"", "\"/*\"", "\"a\x00b\""]


def test_listed_texts() -> None:
    for text in SIGNATURES + ONS + NAMES:
        for kind in KINDS:
            _same(kind, text)


def test_fixture_strings() -> None:
    for text in TEXTS:
        for kind in KINDS:
            _same(kind, text)


def test_corpus_identities() -> None:
    texts = _corpus_identities()
    assert texts
    for text in texts:
        for kind in KINDS:
            _same(kind, text)


def test_plain_readers_take_the_common_forms() -> None:
    """The fast paths are taken (not only the fallbacks) for the corpus's forms."""
    assert identity._plain_signature("public.f(integer, character varying, \"char\", timestamp(6) without time "
                                     "zone, numeric[], tinyint)", ()) is not None
    assert identity._plain_on("public.t_uk on public.t") is not None
    assert identity._plain_names("\"Sales\"") == ["Sales"]


_PIECES = st.sampled_from([
    "a", "b_1", "public", "integer", "character varying", "timestamp", "(6)", "(10,2)", "(10, 2)", "[]", "(",
    ")", ",", ", ", ".", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", '"', '""', '"x"', '"a.b"', '"a b"',
    " on ", "on", "ON", "*", "$", "$$", "--", "/*", "*/", "\\", "'", "é", "ß", "\u0130", "\x00", "1", "9x",
])
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=3)), max_size=14).map("".join)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT, st.sampled_from(KINDS))
def test_generated(text: str, kind: IdentityKind) -> None:
    _same(kind, text)


_ARGS = st.lists(st.sampled_from([
    "integer", "text", "character varying", "character varying(3)", "numeric(10,2)", "numeric(10, 2)", '"char"',
    '"My T"', 'public."T"', "public.t", "s.t(4)", "timestamp(6) without time zone", "integer[]", "a$b",
    "double  precision", "x (1)", "1x", "", " ", "é", '"a""b"', "bit(1)[]", "t(1) x[]", "\"q\"(2)[]",
]), max_size=6)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["f", "public.f", '"F"', 's."f g"', "a.b.c", "f "]), _ARGS,
       st.sampled_from([",", ", ", " , ", ",  "]), st.sampled_from(["", " ", "  "]))
def test_generated_signatures(head: str, args: list[str], sep: str, pad: str) -> None:
    text = f"{head}({pad}{sep.join(args)}{pad})"
    _same(IdentityKind.FUNCTION, text)


# -- the builders' common members read at once (routine.sub/exact, Obj.strings, trigger._events) ---------------

from ddlc.errors import DdlcError  # noqa: E402
from ddlc.frontend.build import _read, routine, trigger  # noqa: E402
from ddlc.frontend.build._read import BuildContext, Obj, member  # noqa: E402
from ddlc.frontend.build.routine import Unrecognized  # noqa: E402
from ddlc.ir.trigger import TriggerEvent, TriggerEventKind  # noqa: E402


def _former_exact(o: Obj, key: str, *allowed: str) -> str:
    raw = o.raw(key)
    v = "" if isinstance(raw, dict) and raw.get("present", True) is False else o.str(key)
    if v not in allowed:
        raise Unrecognized(f"{key} {v!r} is not one of {', '.join(map(repr, allowed))}", o.at(key))
    return v


def _former_sub(o: Obj, key: str, *fmts: str) -> Obj | None:
    v = o.raw(key)
    if v == "":
        return None
    if not isinstance(v, dict):
        raise Unrecognized(f"{key} is not an object", o.at(key))
    if v.get("present", True) is False:
        return None
    s = o.obj(key)
    if s.fmt not in fmts:
        raise Unrecognized(f"{key} has an unexpected fmt {s.fmt!r}", s.at("fmt"))
    return s


def _former_strings(o: Obj, name: str) -> tuple[str, ...]:
    out = []
    for i, e in enumerate(o.items(name)):
        if not isinstance(e, str):
            raise o.ctx.error(f'elements of "{name}" must be strings', o.at(name) + (i,))
        out.append(e)
    return tuple(out)


def _former_events(o: Obj) -> tuple[TriggerEvent, ...]:
    raw = o.raw("events")
    if not isinstance(raw, list) or not raw:
        raise Unrecognized("events is not a non-empty array", o.at("events"))
    out = []
    for i, e in enumerate(raw):
        path = o.at("events") + (i,)
        if isinstance(e, str):
            if e not in TriggerEventKind.__members__:
                raise Unrecognized(f"unknown trigger event {e!r}", path)
            out.append(TriggerEvent(member(TriggerEventKind, e), origin=path))
        elif isinstance(e, dict) and e.get("fmt") == "UPDATE OF %{columns:, }I" and e.get("present", True) is True:
            eo = Obj(e, path, o.ctx)
            cols = _former_strings(eo, "columns")
            out.append(TriggerEvent(TriggerEventKind.UPDATE, cols, layout=eo.fmt, origin=path))
        else:
            raise Unrecognized("unknown trigger event element", path)
    return tuple(out)


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        got = fn(*args)
    except (DdlcError, Unrecognized) as e:
        return ("raised", type(e).__name__, str(e), getattr(e, "path", None), getattr(e, "code", None))
    if isinstance(got, Obj):
        return ("obj", id(got.d), got.path, id(got.ctx))
    if isinstance(got, tuple):
        return ("tuple", [(type(x).__name__, repr(x), x if isinstance(x, str) else
                           msgspec.to_builtins(x, enc_hook=lambda v: (type(v).__name__, str(v)))) for x in got])
    return ("value", type(got).__name__, got)


class _Str(str):
    pass


_HOSTILE = st.sampled_from(["", " ", "ROW", "STATEMENT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "insert",
                            "INSERT ", "CONSTRAINT", "IF NOT EXISTS", "'; DROP TABLE x; --", "$$", "/*", "\\",
                            "é", "\n", "%{x}s", "WHEN (%{clause}s)", "FROM %{relation}D", "UPDATE OF %{columns:, }I",
                            "DEFINER =%{definer}s", "%{bodysrc}s", "%{funcname}D ( )", "name", "__class__"])
_VALUE = st.recursive(
    st.one_of(_HOSTILE, _HOSTILE.map(_Str), st.none(), st.booleans(), st.integers(-2, 2)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["fmt", "present", "columns", "clause", "relation", "definer", "x"]),
                        inner, max_size=4)),
    max_leaves=8)
_KEYS = ["time", "for_each", "constraint", "when", "events", "columns", "definer", "from_table", "bodysrc",
         "function", "args", "funcname", "func_name", "schemaname", "schema_name"]


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(_KEYS), _VALUE, max_size=6), st.sampled_from(_KEYS),
       st.lists(_HOSTILE, max_size=3))
def test_accessors_generated(d: dict[str, Any], key: str, allowed: list[str]) -> None:
    o = Obj(d, ("root", 0), BuildContext("doc"))
    assert _outcome(routine.exact, o, key, *allowed) == _outcome(_former_exact, o, key, *allowed)
    assert _outcome(routine.sub, o, key, *allowed) == _outcome(_former_sub, o, key, *allowed)
    assert _outcome(Obj.strings, o, key) == _outcome(_former_strings, o, key)
    assert _outcome(trigger._events, o) == _outcome(_former_events, o)


def test_accessors_over_corpus_and_fixture_trees() -> None:
    """Every object of every corpus tree, every member name: the same answers (and errors) as before."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import corpus

    trees = [msgspec.json.decode(line) for _, line in corpus.varied_corpus()]
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    for p in sorted(fixtures.rglob("*.json")):
        try:
            trees.append(msgspec.json.decode(p.read_bytes()))
        except msgspec.DecodeError:
            continue
    count = 0
    for tree in trees:
        stack = [tree]
        while stack:
            v = stack.pop()
            if isinstance(v, list):
                stack.extend(v)
                continue
            if not isinstance(v, dict):
                continue
            stack.extend(v.values())
            o = Obj(v, ("t",), BuildContext("doc"))
            fmts = [x.get("fmt") for x in v.values() if isinstance(x, dict) and isinstance(x.get("fmt"), str)]
            for key in v:
                words = [x for x in v.values() if isinstance(x, str)][:3]
                assert _outcome(routine.exact, o, key, *words) == _outcome(_former_exact, o, key, *words)
                assert _outcome(routine.sub, o, key, *fmts) == _outcome(_former_sub, o, key, *fmts)
                assert _outcome(Obj.strings, o, key) == _outcome(_former_strings, o, key)
                count += 1
            if "events" in v:
                assert _outcome(trigger._events, o) == _outcome(_former_events, o)
    assert count > 1000


# -- a sequence's common option (a clause of a decimal value) read in _options' loop ------------------------------

from ddlc.frontend.build import sequence  # noqa: E402


def _former_options(o: Obj) -> Any:
    raw = o.raw("definition")
    if not isinstance(raw, list):
        raise o.ctx.error('element "definition" must be an array', o.at("definition"))
    out = []
    base = o.at("definition")
    for i, e in enumerate(raw):
        if not isinstance(e, dict):
            raise o.ctx.error("sequence options must be objects", base + (i,))
        el = Obj(e, base + (i,), o.ctx)
        if not el.present and e.get("clause") != "owned":
            raise o.ctx.error("only the OWNED BY element may be not present", el.path)
        out.append(sequence._option(el))
    return tuple(out)


_TAG = st.sampled_from([*sequence._TAGS, "CACHE", "", "x"]).map(lambda t: t) | _HOSTILE.map(_Str)
_NUMBER = st.sampled_from(["1", "-1", "0", "007", "-0", "--1", "-", "", "1.5", "1e3", " 1", "1 ", "+1", "٣", "²",
                           "1" * 39, "1" * 40, "0" * 50 + "1", "-" + "9" * 39, "-" + "9" * 40, "'; --", "$$"])
_OPTION = st.fixed_dictionaries(
    {"fmt": st.sampled_from(["CACHE %{value}s", "START WITH %{value}s", "AS %{identity}D", "%{no}s CYCLE", ""])},
    optional={"clause": _TAG, "value": st.one_of(_NUMBER, _NUMBER.map(_Str), st.integers(), st.none()),
              "present": st.one_of(st.booleans(), st.none(), st.just("true")),
              "no": st.sampled_from(["", "NO", "no"]), "order": st.sampled_from(["ORDER", "NOORDER", "x"]),
              "identity": st.just({"objname": "int8", "schemaname": "pg_catalog"}),
              "owner": st.one_of(st.none(), st.just({"objname": "t", "schemaname": "s", "attrname": "c"}))})


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_OPTION, _HOSTILE), max_size=5))
def test_sequence_options_generated(options: list[Any]) -> None:
    o = Obj({"definition": options}, ("root",), BuildContext("doc"))
    assert _outcome(sequence._options, o) == _outcome(_former_options, o)


def test_sequence_options_corpus_and_fixtures() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import corpus

    trees = [msgspec.json.decode(line) for _, line in corpus.varied_corpus()]
    for p in sorted((Path(__file__).resolve().parents[1] / "fixtures").rglob("*.json")):
        try:
            trees.append(msgspec.json.decode(p.read_bytes()))
        except msgspec.DecodeError:
            continue
    count = 0
    for tree in trees:
        stack = [tree]
        while stack:
            v = stack.pop()
            if isinstance(v, list):
                stack.extend(v)
            elif isinstance(v, dict):
                stack.extend(v.values())
                if "definition" in v:
                    o = Obj(v, ("t",), BuildContext("doc"))
                    assert _outcome(sequence._options, o) == _outcome(_former_options, o)
                    count += 1
    assert count > 20
