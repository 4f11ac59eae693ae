"""The SQL layer's one lexer (ddlc/frontend/sql/lexer.py): lossless, GaussDB/openGauss lexical rules."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql.lexer import (
    Cursor, ScanError, ScanFail, closing_paren, fold, ident_value, scan, skip_space, split_commas, string_value,
    token_at, tokens,
)

SETTINGS = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
# texts made of the characters SQL's lexical rules turn on, so that random texts hit every rule
SQLISH = st.lists(st.sampled_from(list("aZ_$9.e'E\"NxX-/*()[],;:+<>=|!% \t\n\\é€") + ["--", "/*", "*/", "$$", "$a$",
                                                                                         "''"]),
                  max_size=30).map("".join)
ANY_TEXT = st.text(max_size=60) | SQLISH


def kinds(text: str, **kw) -> list[tuple[str, str]]:
    return [(k, text[s:e]) for k, s, e in scan(text, **kw)]


# ---- properties ------------------------------------------------------------------------------------
@SETTINGS
@given(ANY_TEXT, st.booleans())
def test_tokens_joined_give_back_the_input(text, glued):
    spans = list(scan(text, glued_quotes=glued))
    assert "".join(text[s:e] for _, s, e in spans) == text
    pos = 0
    for kind, s, e in spans:
        assert s == pos and e > s, (kind, s, e)
        pos = e
    assert all(k != "error" for k, _, _ in spans[:-1])  # an unterminated token is the last one


@SETTINGS
@given(ANY_TEXT)
def test_no_crash_on_any_text(text):
    try:
        toks = list(tokens(text))
    except ScanError as e:
        assert 0 <= e.pos <= len(text)
    else:
        assert all(t.kind not in ("space", "comment") and text[t.start:t.end] == t.text for t in toks)
    for pos in range(len(text)):
        try:
            t = token_at(text, pos)
        except ScanError:
            continue
        assert t.start == pos and t.end > pos
    try:
        assert skip_space(text, 0) <= len(text)
    except ScanError as e:
        assert text.startswith("/*", e.pos)
    split_commas(text)
    if "(" in text:
        closing_paren(text, text.index("("))


@SETTINGS
@given(st.text(min_size=0, max_size=30))
def test_quoted_identifiers_round_trip(name):
    quoted = '"' + name.replace('"', '""') + '"'
    for text in (quoted, quoted + ".x", "f(" + quoted + ")"):
        toks = list(tokens(text))
        first = next(t for t in toks if t.kind == "qident")
        assert first.text == quoted and ident_value(first) == name


@SETTINGS
@given(st.text(max_size=30), st.sampled_from(["", "N", "n"]))
def test_strings_round_trip(value, prefix):
    lit = prefix + "'" + value.replace("'", "''") + "'"
    (tok,) = tokens(lit)
    assert tok.kind == "string" and tok.text == lit and string_value(tok) == value
    assert [t.text for t in tokens(lit + "::text")] == [lit, "::", "text"]


@SETTINGS
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_escape_strings_round_trip(value):
    lit = "E'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    (tok,) = tokens(lit)
    assert tok.kind == "string" and string_value(tok) == value


@SETTINGS
@given(st.text(max_size=30), st.sampled_from(["", "a", "function", "_x1", "é"]))
def test_dollar_quotes_round_trip(body, tag):
    assume(f"${tag}$" not in body + "$")
    lit = f"${tag}${body}${tag}$"
    (tok,) = tokens(lit)
    assert tok.kind == "dollar" and string_value(tok) == body


@SETTINGS
@given(st.recursive(st.text(alphabet="ab -'\"\n", max_size=6),
                    lambda inner: st.lists(inner, max_size=3).map(lambda xs: "/*" + "".join(xs) + "*/"), max_leaves=6))
def test_nested_comments_are_one_token(body):
    text = "/*" + body + "*/x"
    assert kinds(text)[-1] == ("word", "x") and kinds(text)[0] == ("comment", text[:-1])


# ---- against PostgreSQL's own lexer (pglast.parser.scan), on what both read --------------------------
# (not N'...': PostgreSQL reads the keyword NCHAR, then a string; here it is one string token. No newline
# or -- comment between two strings either: PostgreSQL joins them into one constant; here they stay two
# tokens.)
_PG_KIND = {"IDENT": ("word", "qident"), "SCONST": ("string", "dollar"), "XCONST": ("string",),
            "BCONST": ("string",), "ICONST": ("number",), "FCONST": ("number",), "PARAM": ("param",),
            "C_COMMENT": ("comment",), "SQL_COMMENT": ("comment",)}


@SETTINGS
@given(st.lists(st.sampled_from(["a", "Ab1", "x$y", "_z", '"q"', '"a""b"', "'s'", "'it''s'", "E'\\''",
                                 "X'1F'", "$$d$$", "$t$ $ $t$", "$1", "12", "1.5", ".5", "3e-2", "1.e5", "(", ")",
                                 ",", ";", "[", "]", "::", "/* c /* n */ */", "+", "=", "<>"]),
                max_size=12),
       st.lists(st.sampled_from([" ", "\t"]), min_size=12, max_size=12))
def test_tokens_agree_with_postgresql(words, blanks):
    from pglast.parser import scan as pg_scan

    text = "".join(w + b for w, b in zip(words, blanks))
    ours = {(s, e): k for k, s, e in scan(text) if k != "space"}
    for t in pg_scan(text):
        kinds_ = _PG_KIND.get(t.name, ("word",) if t.kind != "NO_KEYWORD" else None)
        if kinds_ is None:
            continue  # operators and punctuation: PostgreSQL cuts operator runs by its own rules
        assert ours.get((t.start, t.end + 1)) in kinds_, (text, t)


# ---- examples ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("a.b", [("word", "a"), ("punct", "."), ("word", "b")]),
    ("Émile$1 x", [("word", "Émile$1"), ("space", " "), ("word", "x")]),
    ("1..2", [("number", "1"), ("punct", "."), ("number", ".2")]),
    ("1.e5+.5", [("number", "1.e5"), ("op", "+"), ("number", ".5")]),
    ("a<=-b", [("word", "a"), ("op", "<=-"), ("word", "b")]),
    ("a+--c\nb", [("word", "a"), ("op", "+"), ("comment", "--c"), ("space", "\n"), ("word", "b")]),
    ("E'a\\'b'c", [("string", "E'a\\'b'"), ("word", "c")]),
    ("x'1F' B'10' n'a'", [("string", "x'1F'"), ("space", " "), ("string", "B'10'"), ("space", " "),
                          ("string", "n'a'")]),
    ("'ab''", [("error", "'ab''")]),
    ("$f$ body $$ $f$;", [("dollar", "$f$ body $$ $f$"), ("punct", ";")]),
    ("$1$", [("param", "$1"), ("op", "$")]),
    ("/* a /* b */ c */d", [("comment", "/* a /* b */ c */"), ("word", "d")]),
    ("/* a /* b */", [("error", "/* a /* b */")]),
    ("a\u00a0b", [("word", "a\u00a0b")]),  # non-ASCII is an identifier character, never a blank
    ("{", [("op", "{")]),
])
def test_examples(text, expected):
    assert kinds(text) == expected


def test_glued_quotes_read_openGauss_partition_bounds():
    assert kinds("('it's', 'x')", glued_quotes=True) == [
        ("punct", "("), ("string", "'it's'"), ("punct", ","), ("space", " "), ("string", "'x'"), ("punct", ")")]
    assert kinds("('it's')")[1] == ("string", "'it'")  # the standard reading
    assert kinds("'it's", glued_quotes=True) == [("string", "'it'"), ("word", "s")]  # no quote follows


def test_errors_name_the_opening():
    for text, message in [("a 'x", "unterminated ' quote at offset 2"), ("a E'x", "unterminated ' quote at offset 3"),
                          ('a "x', 'unterminated " quote at offset 2'), ("$q$ x", "unterminated dollar quote $q$ at offset 0"),
                          ("/* x", "unterminated /* comment at offset 0")]:
        with pytest.raises(ScanError, match=re.escape(message)):
            list(tokens(text))


def test_fold_is_ascii_only():
    assert fold("AbC") == "abc" and fold("ÉCOLE") == "École"  # the server folds ASCII letters only
    assert ident_value(next(tokens('"MiXed"'))) == "MiXed"


def test_cursor_reads_tokens_and_matches_layout_exactly():
    c = Cursor('"a""b".c (x, \')\') DESC')
    assert c.ident_token() == ('a"b', True) and c.eat(".") and c.ident_token() == ("c", False)
    assert c.blanks() and c.balanced() == "(x, ')')" and c.blanks() and c.peek_word() == "desc"
    assert c.word("DESC") and c.eof()
    c = Cursor("(a 'x")
    with pytest.raises(ScanFail):
        c.balanced()
    assert split_commas("a, f(b, c), 'd,e' /* , */") == ["a", " f(b, c)", " 'd,e' /* , */"]
    assert closing_paren("(a, ')', (b)) x", 0) == 12


def test_readers_fold_names_as_the_server_does():
    """Unquoted names lose the case of their ASCII letters only (the server's downcase_identifier)."""
    from ddlc.frontend.recover import recover_tddl
    from ddlc.frontend.sql.functext import parse_function_text

    stmt, _ = parse_function_text('CREATE FUNCTION Sch.ÄbC(x integer) RETURNS integer LANGUAGE sql AS $$select 1$$;')
    assert (stmt.name.schema, stmt.name.name) == ("sch", "Äbc")
    stmt, _ = recover_tddl("REINDEX TABLE public.t PARTITION ÉTÉ;")
    assert stmt.partition == "ÉtÉ"
