"""Issue 26, CREATE TABLE and identities: the faster readers give what the former ones gave.

* a partition clause's tokens: the one-regex reader of the common clause (:func:`partition_tokens.tokens`) against
  the lexer's (:func:`partition_tokens.scanned_tokens`): the same tokens, or the same error, on every fixture's clause
  and on texts made of the characters that matter (quotes, prefixes, comments, operators, non-ASCII).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import partition, partition_tokens

from test_partition_parser import ERRORS, HAND_WRITTEN, OPENGAUSS_CLAUSES

ROOT = Path(__file__).resolve().parents[1]


def _strings(node: Any, key: str, out: set[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key and isinstance(v, str):
                out.add(v)
            else:
                _strings(v, key, out)
    elif isinstance(node, list):
        for v in node:
            _strings(v, key, out)


def _fixture_strings(key: str) -> list[str]:
    out: set[str] = set()
    for p in sorted((ROOT / "fixtures").rglob("*.json")):
        try:
            _strings(json.loads(p.read_text(encoding="utf-8")), key, out)
        except (ValueError, UnicodeDecodeError):
            continue
    return sorted(out)


PARTITION_TEXTS = sorted({*_fixture_strings("partition_by"), *OPENGAUSS_CLAUSES, *HAND_WRITTEN,
                          *(e[0] for e in ERRORS)})


class _Failed(Exception):
    pass


def _fail(what: str, pos: int) -> Any:
    raise _Failed(what, pos)


def _tokens_outcome(fn: Any, text: str) -> Any:
    try:
        return "ok", [tuple(t) for t in fn(text, _fail)]
    except _Failed as e:
        return "fail", e.args


def _same_tokens(text: str) -> None:
    assert _tokens_outcome(partition_tokens.tokens, text) == _tokens_outcome(partition_tokens.scanned_tokens, text), text


def test_fixture_partition_clauses_tokenize_the_same() -> None:
    assert len(PARTITION_TEXTS) > 50
    for text in PARTITION_TEXTS:
        _same_tokens(text)
        _same_tokens(text.replace("p1", "p1_é客ü"))


_PIECES = [*"aAeExXbBnN_$09.'\"()[],;+-*/%<>=:|!@ \t\n\r\x0b\x0cé客\\", "--", "/*", "*/", "''", '""', "e'", "x'",
           "B'", "N'", "::", "||", "1e5", "1.", ".5", "date", "'a'", '"q"', "PARTITION", "VALUES", "(1)", "'it's'"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_partition_tokens_same_as_the_lexer(pieces: list[str]) -> None:
    _same_tokens("".join(pieces))


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(PARTITION_TEXTS or ["PARTITION BY HASH (a)"]), st.integers(0, 400),
       st.sampled_from(_PIECES))
def test_partition_tokens_of_edited_clauses(text: str, at: int, piece: str) -> None:
    at = min(at, len(text))
    _same_tokens(text[:at] + piece + text[at:])


# -- identities ----------------------------------------------------------------------------------------------

from ddlc.frontend.sql.identity import lexed_identity, parse_identity  # noqa: E402
from ddlc.ir.drop import IdentityKind  # noqa: E402

IDENTITY_TEXTS = sorted({*_fixture_strings("objidentity"), *_fixture_strings("identity"),
                         *_fixture_strings("parentobj")})


def _same_identity(text: str) -> None:
    for kind in IdentityKind:
        assert parse_identity(kind, text, ("p",)) == lexed_identity(kind, text, ("p",)), (kind, text)


def test_fixture_identities_read_the_same() -> None:
    assert len(IDENTITY_TEXTS) > 20
    for text in IDENTITY_TEXTS:
        _same_identity(text)
        _same_identity(text.replace("public", "Pub_é客ü"))


_ID_PIECES = ["a", "B", "public", "ON", "on", "On", "o", "n", " on ", ".", ".", '"', '""', '"a.b"', '"x on y"', "$", "_",
              "9", "é", "客", " ", "\t", "\n", "(", ")", "integer", ",", "'", "e'", "x", "--", "/*", "*/", "[]", "\u00a0"]


@settings(max_examples=4000, deadline=None)
@given(st.lists(st.sampled_from(_ID_PIECES), max_size=10))
def test_identities_same_as_the_lexer(pieces: list[str]) -> None:
    _same_identity("".join(pieces))


# -- constraint definitions ----------------------------------------------------------------------------------

from ddlc.frontend.sql import check_text as CT  # noqa: E402
from ddlc.frontend.sql import constraints  # noqa: E402

CONSTRAINT_TEXTS = _fixture_strings("definition")


def _same_key_list(text: str) -> bool:
    """Whether the pattern took ``text``; when it did, the constraint it reads is the parser's. And the
    definition's parsed form (its Expr's) is the one :func:`expr_parts` gives."""
    from ddlc.frontend.sql.expr import expr_parts

    assert constraints.definition_parts(text) == expr_parts(text), text
    body = constraints.split_informational(text)[0].strip(constraints.BLANK)
    fast = constraints._key_list_json(body)
    if fast is None:
        return False
    parsed = constraints._parsed_json(body)
    assert parsed is not None, text
    for info in (True, False):
        args = (body, ("p",), (), False, info, info)
        assert constraints._info(fast, *args) == constraints._info(parsed, *args), text
    return True


def test_fixture_constraints_read_the_same() -> None:
    taken = [t for t in CONSTRAINT_TEXTS if _same_key_list(t)]
    assert len(taken) > 5


_KEY_PIECES = ["PRIMARY KEY", "primary\tkey", "Primary\nKey", "UNIQUE", "unique", " (", "(", ")", ") ", ",", ", ", " ",
               "id", "Id", "ID", "user", "select", "key", "name", "a$b", "_x", "x" * 63, "y" * 64, "\u017f", "\u212a",
               "é", " INCLUDE ", "include", " USING INDEX TABLESPACE ", "ts1", '"Q"', " DESC", "--c\n", "/*c*/",
               " NOT VALID", " DEFERRABLE", "1", "'s'", "\\", "enable optimization Informational Constraint "]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_KEY_PIECES), max_size=10))
def test_key_lists_same_as_the_parser(pieces: list[str]) -> None:
    _same_key_list("".join(pieces))


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(["PRIMARY KEY", "UNIQUE", "unique"]), st.lists(st.sampled_from(_KEY_PIECES[12:24]), min_size=1,
       max_size=4), st.sampled_from(["", " INCLUDE (id)", "INCLUDE(Id, b)", " USING INDEX TABLESPACE ts1",
                                     " USING INDEX TABLESPACE user", " INCLUDE (a) USING INDEX TABLESPACE T"]))
def test_key_lists_taken_same_as_the_parser(head: str, names: list[str], tail: str) -> None:
    _same_key_list(f"{head} ({', '.join(names)}){tail}")


_ARG_PIECES = ["integer", "character varying", "character  varying(10)", "numeric(10,2)", "numeric[]", '"char"',
               '"a""b"(3)[]', "timestamp(6) without time zone", "public.t", 'public."T x"', "s.t(2)[]", "*", "", " ",
               "\t", ",", ", ", " ,", "(", ")", "e'x'", "é客", "int4 (1)", "a.b.c", "[]", "[][]", "(1) x", "x(1)(2)",
               "--", "$1", '"unterminated']


@settings(max_examples=4000, deadline=None)
@given(st.sampled_from(["public.f", "f", '"F g"', 'public."f(x"', "a.b.c", "f ", "é.客"]),
       st.lists(st.sampled_from(_ARG_PIECES), max_size=7), st.sampled_from([")", "", ") ", "))", ")x"]))
def test_function_identities_same_as_the_lexer(name: str, pieces: list[str], end: str) -> None:
    _same_identity(f"{name}({''.join(pieces)}{end}")
    _same_identity(f"{name}({', '.join(pieces)}{end}")


_PAREN_PIECES = ["(", ")", "((", "))", "a", " ", "'", "')'", '"', '")"', "$$", "$$)$$", "--", "--)\n", "/*", "/*)*/", "*/",
                 "::numeric", ">=", "0", "é", "\n", "$1", "e'\\')'"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PAREN_PIECES), max_size=12), st.integers(0, 3))
def test_closing_paren_same_as_the_lexer(pieces: list[str], lead: int) -> None:
    from ddlc.frontend.sql.lexer import closing_paren

    text = "x" * lead + "(" + "".join(pieces)
    assert CT._closing_paren(text, lead) == closing_paren(text, lead), text
    body = "CHECK (" + "".join(pieces)
    assert CT.check_expr_text(body) == (None if closing_paren(body, 6) is None else body[7:closing_paren(body, 6)])


# -- partition keys ------------------------------------------------------------------------------------------

from pglast import keywords as _pg_keywords  # noqa: E402

_KEY_NAMES = sorted({*_pg_keywords.RESERVED_KEYWORDS, *_pg_keywords.COL_NAME_KEYWORDS,
                     *_pg_keywords.TYPE_FUNC_NAME_KEYWORDS, *list(_pg_keywords.UNRESERVED_KEYWORDS)[:80],
                     "id", "region", "a$b", "_x", "x" * 63, "y" * 64, "Id", "ID", "id2", "2id", "é", "isnull"})


def _parts_dict(parts: Any) -> Any:
    node, refs, verbatim = parts
    return (None if node is None else node()), refs, verbatim


@settings(max_examples=1500, deadline=None)
@given(st.one_of(st.sampled_from(_KEY_NAMES), st.from_regex(r"[a-zA-Z_$é][a-z0-9_$A-Z]{0,66}", fullmatch=True)))
def test_partition_key_parts_same_as_the_parser(name: str) -> None:
    from ddlc.frontend.sql.expr import expr_parts, make_expr

    assert _parts_dict(partition.column_parts(name)) == _parts_dict(expr_parts(name)), name
    if partition._COLUMN.match(name):
        assert partition._key_expr(name, ("p",)) == make_expr(name, ("p",))
