"""Issue 26, round 5 (TDDL texts): a text's kind and whether it is one statement, seen without the lexer where
its characters allow. Each new reading against the former one (kept here), on every TDDL and SQL text of the
fixtures and on generated texts."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from ddlc.frontend.recover import MADE_FROM, may_read_as, statement_kind
from ddlc.frontend.tddl_text import check_tddl_statement, text_kind
from ddlc.frontend.sql.fragment import _scanned_statement_problem, plain_statement, statement_problem
from ddlc.frontend.sql.lexer import Lexed, ScanError
from ddlc.frontend.text import _deparser_drop
from ddlc.errors import DdlcError
from test_throughput_text import TEXTS

# texts made of the characters that decide: words, blanks, quotes, comments, marks, operators, digits
_ALPHABET = st.sampled_from(["CREATE", "TABLE", "SELECT", "DROP", "function", "E", "x", "a1", "1", ".5", "e5", " ",
                             "\n", "\t", "\f", "'", "''", '"', "$", "$$", "\\", "--", "/*", "*/", "/", ";", "(", ")",
                             ",", ".", "=", "==", ":=", "[", "]", "é", "客", "\x1c", "TEMP", "OR REPLACE", "PROCEDURE"])
TEXT = st.lists(_ALPHABET, max_size=24).map("".join)
EXTRA = ["SELECT 1", "SELECT$1 INTO t", "CREATE TABLE t.5 AS SELECT 1", "CREATE TABLE t AS SELECT 1.5", "  create\ttable t",
         "CREATE TABLE a b c d e f g h i j.5", "CREATE TABLE a b c d e f g h i . 5", "CREATE " + "x " * 100,
         "CREATE TABLE " + "y" * 200 + " AS SELECT 1", "E'x' CREATE TABLE", "SELECT\x1c", "CREATE == TABLE",
         "CREATE => TABLE t", "a;", ";", "  ;  ", "", "a;b", "a; ", "'x'", "a -- c", "a /* c */", "/\n", "a\n/\n;",
         "BEGIN NULL; END;", "x = 'it''s'", 'x = "a""b"', "x = 'a\\'", "x = E'\\''"]


def _old_may_read_as(text: str, classes: tuple[type, ...]) -> bool:
    kind = None
    for cls in classes:
        kinds = MADE_FROM.get(cls)
        if kinds is None:
            return True
        if kind is None:
            kind = statement_kind(text)
        if kind in kinds:
            return True
    return False


def _old_deparser_drop(text: Lexed) -> bool:
    try:
        toks = text.upto()[:2]
    except ScanError:
        return False
    return len(toks) == 2 and toks[0].upper == "DROP" and toks[1].text.islower()


def _same(text: str) -> None:
    assert text_kind(text) == statement_kind(text), text
    assert may_read_as(text, tuple(MADE_FROM)) == _old_may_read_as(text, tuple(MADE_FROM)), text
    for block in (False, True):
        assert statement_problem(text, block=block) == _scanned_statement_problem(text, block), (text, block)
        if plain_statement(text):
            assert _scanned_statement_problem(text, block) is None, (text, block)
    assert _deparser_drop(Lexed(text)) == _old_deparser_drop(Lexed(text)), text


def test_fixture_texts():
    plain = 0
    for text in TEXTS + EXTRA:
        _same(text)
        plain += plain_statement(text)
    assert plain > 100  # the fast readings are taken (else this test proves little)


@settings(max_examples=3000, deadline=None)
@given(TEXT)
def test_generated_texts(text: str):
    _same(text)
    _same(text + ";")
    _same("CREATE TABLE " + text)
    _same("DROP function " + text)


def test_check_tddl_statement_is_check_statement():
    from ddlc.frontend.sql.fragment import check_statement

    block_kinds = frozenset({"CREATE PROCEDURE", "CREATE PACKAGE"})
    for text in TEXTS + EXTRA + ["CREATE PROCEDURE p AS BEGIN NULL; END;", "CREATE PACKAGE p IS -- c\n x int; END p;\n/"]:
        kind = statement_kind(text)
        try:
            check_statement(text, f"the text of {kind}", block=kind in block_kinds)
            want = None
        except DdlcError as e:
            want = str(e)
        try:
            check_tddl_statement(text, lambda k: f"the text of {k}", block_kinds)
            got = None
        except DdlcError as e:
            got = str(e)
        assert got == want, text


# ---- the lexer's tokens without blanks, one match a token; the function-text cursor on them ----------------------
from ddlc.frontend.sql import functext  # noqa: E402
from ddlc.frontend.sql.lexer import _SKIPPED, error_message, scan, skip_space, token_at, token_spans, tokens  # noqa: E402

_LEXER_ALPHABET = st.sampled_from(["a", "É", "$", "$a$", "$$", "$1", "'", "''", "E'", "\\", '"', "--", "\n", " ", "/*", "*/",
                                   "/", "*", "-", ".", "..", "1", "e", "(", ")", ";", ",", ":=", "x'", "\x1c", "\t"])
LEXER_TEXT = st.lists(_LEXER_ALPHABET, max_size=30).map("".join)


def _old_tokens(text: str, pos: int = 0, end: int | None = None) -> list:
    out = []
    limit = len(text) if end is None else end
    try:
        for kind, s, e in scan(text, pos):
            if kind in _SKIPPED:
                if e >= limit:
                    break
                continue
            if s >= limit:
                break
            if kind == "error":
                raise ScanError(*error_message(text, s))
            if e > limit:
                raise ScanError("token crosses the end of the fragment", s)
            out.append((kind, text[s:e], s, e))
    except ScanError as e:
        return out + [("raised", str(e), e.pos)]
    return out


def _new_tokens(text: str, pos: int = 0, end: int | None = None) -> list:
    out = []
    try:
        for t in tokens(text, pos, end):
            out.append(tuple(t))
    except ScanError as e:
        return out + [("raised", str(e), e.pos)]
    return out


def _same_tokens(text: str) -> None:
    assert list(token_spans(text)) == [x for x in scan(text) if x[0] not in _SKIPPED], text
    bounds = sorted({0, len(text)} | {s for _, s, _ in scan(text)})
    for end in (None, *bounds[:: max(1, len(bounds) // 4)], len(text) // 2):
        assert _new_tokens(text, 0, end) == _old_tokens(text, 0, end), (text, end)
    lexed = Lexed(text)
    try:
        got = [tuple(t) for t in lexed.upto()]
    except ScanError as e:
        got = [tuple(t) for t in lexed.head(10 ** 6)] + [("raised", str(e), e.pos)]
    assert got == _old_tokens(text), text


def test_token_spans_fixture_texts():
    for text in TEXTS + EXTRA:
        _same_tokens(text)


@settings(max_examples=3000, deadline=None)
@given(LEXER_TEXT)
def test_token_spans_generated(text: str):
    _same_tokens(text)
    _same_tokens("CREATE " + text + " x")


class _OldCursor:
    """functext._Cursor as it was (each position lexed there)."""

    __slots__ = ("text", "pos", "_next")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self._next = {}

    def peek(self, ahead: int = 0):
        pos = self.pos
        tok = None
        known = self._next
        for _ in range(ahead + 1):
            tok = known.get(pos, functext._UNREAD)
            if tok is functext._UNREAD:
                p = skip_space(self.text, pos)
                tok = None if p >= len(self.text) else token_at(self.text, p)
                known[pos] = tok
            if tok is None:
                return None
            pos = tok.end
        return tok

    take, words, need, until_clause = (functext._Cursor.take, functext._Cursor.words, functext._Cursor.need,
                                       functext._Cursor.until_clause)

    def read_rest(self) -> None:  # (the former cursor shared nothing)
        pass


def _read(text: str, cursor: type) -> object:
    saved = functext._Cursor
    functext._Cursor = cursor
    try:
        return functext.parse_function_text(text)
    except functext.FunctionTextError as e:
        return ("error", str(e), e.pos)
    finally:
        functext._Cursor = saved


def _function_texts() -> list[str]:
    out = [t for t in TEXTS if "FUNCTION" in t.upper() or "PROCEDURE" in t.upper()]
    import glob as _glob
    from pathlib import Path as _Path

    for f in sorted(_glob.glob("fixtures/**/*.json", recursive=True)):
        try:
            doc = orjson.loads(_Path(f).read_bytes())
        except orjson.JSONDecodeError:
            continue
        stack = [doc]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                if isinstance(v.get("function"), str):
                    out.append(v["function"])
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
    return out


import orjson  # noqa: E402

FUNCTION_TEXTS = _function_texts()


def test_function_cursor_fixture_texts():
    assert len(FUNCTION_TEXTS) > 40
    for text in FUNCTION_TEXTS:
        assert _read(text, functext._Cursor) == _read(text, _OldCursor), text


_HEADER = st.sampled_from(["CREATE FUNCTION f(a int) RETURNS int ", "CREATE OR REPLACE PROCEDURE s.p(a IN int) ",
                           "CREATE DEFINER = u FUNCTION f() RETURN int ", 'CREATE DEFINER = "u" PROCEDURE p ',
                           "CREATE FUNCTION s.f(a int DEFAULT 1, b text := 'x') RETURNS SETOF int "])
_TAIL = st.lists(st.sampled_from(["LANGUAGE plpgsql ", "IMMUTABLE ", "STRICT ", "SET search_path TO a, b ", "COST 10 ",
                                  "AS $$ body $$", "AS 'x', 'y' ", "AS ' BEGIN a:= 1; END; '", "AS BEGIN NULL; END;",
                                  "/* c */ ", "-- c\n", "\x1c", "'", ";", "/\n", "NOT FENCED ", "$x$", "ROWS 1.5 "]),
                 max_size=8).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_HEADER, _TAIL)
def test_function_cursor_generated(head: str, tail: str):
    text = head + tail
    assert _read(text, functext._Cursor) == _read(text, _OldCursor), text


# ---- crosscheck from pglast's JSON parse, against the former reading of its Python nodes --------------------------
from decimal import Decimal  # noqa: E402

from ddlc.frontend.sql.functext import ArgMode, FunctionStyle  # noqa: E402


def _old_crosscheck(stmt: CreateFunction, spans: FunctionTextSpans) -> list[str]:
    """Fields on which pglast reads the (openGauss words blanked) text differently; [] when it
    agrees, or when the text is Oracle-style or pglast cannot parse it."""
    if stmt.style is not FunctionStyle.POSTGRES:
        return []
    chars = list(stmt.text)
    for a, b in spans.og_only:
        chars[a:b] = " " * (b - a)
    try:
        from ddlc.frontend.sql.pgparse import parse_sql

        parsed = parse_sql("".join(chars))
    except Exception:  # GaussDB-only syntax left, or a type pglast's grammar lacks
        return []
    if len(parsed) != 1 or type(parsed[0].stmt).__name__ != "CreateFunctionStmt":
        return ["statement kind"]
    f = parsed[0].stmt
    out: list[str] = []
    names = [s.sval for s in f.funcname]
    want = [p for p in (stmt.name.schema, stmt.package, stmt.name.name) if p is not None]
    if names != want:
        out.append("name")
    params = [p for p in (f.parameters or ()) if p.mode.value != "t"]
    table = [p for p in (f.parameters or ()) if p.mode.value == "t"]
    modes = {"o": ArgMode.OUT, "b": ArgMode.INOUT, "v": ArgMode.VARIADIC}
    if len(params) != len(stmt.arguments):
        out.append("arguments")
    else:
        for p, a in zip(params, stmt.arguments, strict=True):
            if (p.name or None) != a.name or modes.get(p.mode.value) != (a.mode if a.mode is not ArgMode.IN else None) \
                    or (p.defexpr is not None) != (a.default is not None):
                out.append(f"argument {a.name or a.type}")
    if stmt.returns is not None and f.returnType is not None and bool(f.returnType.setof) != stmt.returns.setof:
        out.append("setof")
    if stmt.returns is not None and len(table) != len(stmt.returns.table):
        out.append("returns table")
    o = {d.defname: d.arg for d in f.options or ()}
    sval = lambda v: getattr(v, "sval", None)  # noqa: E731
    if "language" in o and sval(o["language"]) != stmt.language:
        out.append("language")
    if "as" in o:
        as_ = [s.sval for s in o["as"]]
        if as_[-1] != stmt.body or (len(as_) > 1 and as_[0] != stmt.probin):
            out.append("body")
    opts = stmt.options
    if "volatility" in o and sval(o["volatility"]) != (opts.volatility.value if opts.volatility else None):
        out.append("volatility")
    if "strict" in o and (opts.null_input is None or bool(o["strict"].boolval) != opts.null_input.strict):
        out.append("strict")
    if "security" in o and (opts.security is None or bool(o["security"].boolval) != opts.security.definer):
        out.append("security")
    for key in ("cost", "rows"):
        if key in o:
            v = getattr(o[key], "ival", None)
            v = getattr(o[key], "fval", None) if v is None else v
            mine = getattr(opts, key)
            if mine is None or Decimal(str(v)) != Decimal(mine):
                out.append(key)
    if [d.arg.name for d in f.options or () if d.defname == "set"] != [s.name for s in stmt.set_options]:
        out.append("set")
    return out



def _both(text: str) -> None:
    try:
        stmt, spans = functext.parse_function_text(text)
    except functext.FunctionTextError:
        return
    try:
        want = _old_crosscheck(stmt, spans)
    except Exception as e:  # noqa: BLE001
        want = type(e)
    try:
        got = functext.crosscheck(stmt, spans)
    except Exception as e:  # noqa: BLE001
        got = type(e)
    assert got == want, text
    from ddlc.ir.base import replace as _replace

    for change in ({"language": "x"}, {"body": "x"}, {"probin": "p"}, {"arguments": ()}, {"set_options": ()}):
        other = _replace(stmt, **change)
        assert functext.crosscheck(other, spans) == _old_crosscheck(other, spans), (text, change)


def test_crosscheck_fixture_texts():
    for text in FUNCTION_TEXTS:
        _both(text)


_PG_OPTION = st.sampled_from(["LANGUAGE sql ", "LANGUAGE plpgsql ", "IMMUTABLE ", "STABLE ", "VOLATILE ", "STRICT ",
                              "CALLED ON NULL INPUT ", "RETURNS NULL ON NULL INPUT ", "SECURITY DEFINER ",
                              "SECURITY INVOKER ", "LEAKPROOF ", "NOT LEAKPROOF ", "COST 0 ", "COST 100 ", "COST 1.5 ",
                              "ROWS 0 ", "ROWS 10 ", "ROWS 2.5 ", "SET search_path TO a, b ", "SET x FROM CURRENT ",
                              "SET y = 1 ", "WINDOW ", "PARALLEL SAFE ", "NOT FENCED ", "SHIPPABLE "])
_PG_HEAD = st.sampled_from(["CREATE FUNCTION f(a int) RETURNS int ", "CREATE OR REPLACE FUNCTION s.f(a int, OUT b int) ",
                            "CREATE FUNCTION s.f(INOUT a int DEFAULT 1, VARIADIC b int[]) RETURNS SETOF int ",
                            "CREATE FUNCTION f() RETURNS TABLE(x int, y text) ", "CREATE PROCEDURE s.p(a int) ",
                            "CREATE FUNCTION f(\"A\" int, b text := 'x') RETURNS int "])
_PG_BODY = st.sampled_from(["AS $$ select 1 $$", "AS 'select 1'", "AS 'obj', 'sym'", "AS $f$ x $f$;", "AS ''"])


@settings(max_examples=1500, deadline=None)
@given(_PG_HEAD, st.lists(_PG_OPTION, max_size=4).map("".join), _PG_BODY, st.lists(_PG_OPTION, max_size=2).map("".join))
def test_crosscheck_generated(head: str, before: str, body: str, after: str):
    _both(head + before + body + (" " + after if after else ""))


# ---- Cursor.peek lexes inline what token_at lexes ------------------------------------------------------------------
from ddlc.frontend.sql.lexer import Cursor, ScanFail  # noqa: E402


def _peek_as_before(text: str, pos: int) -> object:
    if pos >= len(text):
        return None
    try:
        return tuple(token_at(text, pos))
    except ScanError as e:
        return ("fail", str(e))


def _peek_now(text: str, pos: int) -> object:
    c = Cursor(text)
    c.i = pos
    try:
        t = c.peek()
        again = c.peek()
    except ScanFail as e:
        return ("fail", str(e))
    assert again is t
    return None if t is None else tuple(t)


@settings(max_examples=2000, deadline=None)
@given(LEXER_TEXT, st.integers(min_value=0, max_value=40))
def test_cursor_peek_generated(text: str, pos: int):
    assert _peek_now(text, pos) == _peek_as_before(text, pos), (text, pos)


def test_cursor_peek_fixture_texts():
    for text in (TEXTS + EXTRA)[:300]:
        for pos in range(0, len(text), 7):
            assert _peek_now(text, pos) == _peek_as_before(text, pos), (text, pos)


# ---- a routine text read once: its slot check and the function-text reader share its tokens ------------------------
from ddlc.frontend.sql import lexer as _lexer_mod, slotforms  # noqa: E402
from ddlc.frontend.sql.fragment import open_line_comment  # noqa: E402


def _old_code_scan(v: str) -> tuple[str | None, list[tuple[str, int, int]]]:
    """:func:`_code_problem` of ``v``, and (when there is none) its tokens, blanks and comments aside (what
    ``_tokens`` gives): one scan for both."""
    if open_line_comment(v):
        return "a -- comment that runs to the end of the text (it would swallow what follows it)", []
    line_start, slash_line = True, False
    toks: list[tuple[str, int, int]] = []
    for kind, s, e in scan(v):
        if kind == "error":
            return "an unterminated quote, quoted name, dollar quote or comment", toks
        if kind == "space":
            if "\n" in v[s:e] or "\r" in v[s:e]:
                if slash_line:
                    return "a line holding only /", toks
                line_start = True
            continue
        if kind == "comment":
            continue
        toks.append((kind, s, e))
        tok = v[s:e]
        if "\\" in tok and kind not in ("string", "qident", "dollar"):  # psql/gsql: a meta-command anywhere
            return "a backslash outside quotes (psql and gsql run a meta-command from it)", toks
        slash_line, line_start = line_start and tok == "/", False
    return ("a line holding only /" if slash_line and ("\n" in v or "\r" in v) else None), toks


_CODE = st.lists(st.sampled_from(["CREATE", "x", " ", "\n", "\r", "\t", "/", "\\", "'", "'a'", "$$", "$$ b $$", "E'\\n'",
                                  '"', ";", "(", ")", "--", "/*", "*/", "-", "*", "AS", "FUNCTION", "f()"]),
                 max_size=25).map("".join)


def _same_code(text: str) -> None:
    want = _old_code_scan(text)
    _lexer_mod._REMEMBERED = None
    assert slotforms._code_scan(text) == want, text  # lexed here (and remembered when whole)
    assert slotforms._code_scan(text) == want, text  # from what was remembered
    spans = [x for x in scan(text) if x[0] not in _SKIPPED]
    if not any(k == "error" for k, _, _ in spans) and "--" not in text and "/*" not in text:
        assert slotforms._spans_problem(text, spans) == want, text
    _lexer_mod._REMEMBERED = None
    first = _read(text, functext._Cursor)  # the reader first: it remembers the spans when it reads them all
    assert slotforms._code_scan(text) == want, text
    assert _read(text, functext._Cursor) == first == _read(text, _OldCursor), text
    _lexer_mod._REMEMBERED = None


def test_shared_spans_fixture_texts():
    for text in TEXTS + EXTRA + FUNCTION_TEXTS:
        _same_code(text)


@settings(max_examples=3000, deadline=None)
@given(_CODE)
def test_shared_spans_generated(text: str):
    _same_code(text)
    _same_code("CREATE FUNCTION f() RETURNS int AS " + text)


# ---- canonicalize: a text with one dollar quote by pattern; blank runs by a possessive pattern --------------------
import re as _re  # noqa: E402

from ddlc import quoting  # noqa: E402

_OLD_ODD_RUN = _re.compile(r"[\t\n\r\f\v][ \t\n\r\f\v]*| [ \t\n\r\f\v]+")
_CANON = st.lists(st.sampled_from(["a", "b1", "_", "é", " ", "  ", "\n", "\t", "\r\n", "\f", "\x1c", "\u3000", "'", "''",
                                   "'x y'", '"', '"q  r"', "$", "$$", "$f$", "$$ body  $$", "$f$ a\n b $f$", "$1",
                                   "x$", "--", "-- c\n", "/*", "*/", ";", "(", ")", "."]), max_size=20).map("".join)


def _same_canon(text: str) -> None:
    assert quoting.canonicalize(text) == quoting._scanned(text), text
    assert quoting._ODD_RUN.sub(" ", text) == _OLD_ODD_RUN.sub(" ", text), text


def test_canonicalize_fixture_texts():
    for text in TEXTS + EXTRA + FUNCTION_TEXTS:
        _same_canon(text)
    body = [t for t in FUNCTION_TEXTS if "$" in t]
    assert sum(quoting._one_dollar_quote(t) is not None for t in body) > 5  # the pattern reads some (else no proof)


@settings(max_examples=4000, deadline=None)
@given(_CANON)
def test_canonicalize_generated(text: str):
    _same_canon(text)
    _same_canon("CREATE FUNCTION f() AS " + text + " LANGUAGE sql;")
    _same_canon("SELECT '" + text + "' AS $$" + text)
