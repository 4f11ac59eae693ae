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
