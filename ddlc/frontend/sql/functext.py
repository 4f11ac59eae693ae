"""The CREATE FUNCTION text scanner (reference §5.8): ``pg_get_functiondef`` output and GaussDB TDDL.

:func:`parse_function_text` reads a whole CREATE FUNCTION/PROCEDURE statement, token by token with
the SQL layer's lexer (:mod:`ddlc.frontend.sql.lexer`: quotes, dollar quotes, comments), into a
:class:`~ddlc.ir.routine.CreateFunction`, in both header styles:

* PostgreSQL: ``CREATE OR REPLACE FUNCTION s.f(a integer)\\n RETURNS integer\\n LANGUAGE plpgsql\\n
  <options>\\n[ SET x TO v\\n]AS $function$<body>$function$;\\n`` (also the one-line GaussDB TDDL
  form ``... AS ' body ';`` with options before or after the body);
* Oracle: ``... f(<argument text as the user wrote it>)\\n RETURN integer <options>\\nAS <body>;\\n``
  and procedures ``CREATE OR REPLACE PROCEDURE s.p(...)\\n<options>AS <body>;\\n``.

:func:`crosscheck` compares a PostgreSQL-style reading with pglast's, once the openGauss-only words
are blanked out (pglast is imported lazily).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import orjson

from ...errors import Path
from ...ir.names import QualifiedName
from ...ir.routine import (
    ArgMode, CreateFunction, FunctionOptions, FunctionReturn, FunctionStyle, NullInput, Security, SetOption, Volatility,
)
from .functext_head import (  # (the reader's pieces, and the common header read at once)
    _CLAUSE_WORDS, FunctionTextError, FunctionTextSpans, _oracle_body_end, _parse_args, _parse_return, _span_text,
    _tok, _Tok, read_common,
)
from .lexer import (
    ScanError, Tok, dollar_tag_at, error_message, ident_value, is_ident, keyword, skip_space, string_value,
    remember_spans, remembered_spans, token_at, token_spans,
)

_UNREAD: Any = object()
_BATCH = 8  # the tokens _Cursor._read_on reads past the one asked for, at most


class _Cursor:
    """A position in the text and the token after the blanks there. The text's tokens are read once, from its
    start and only as far as the reader asks, a few ahead (:func:`~.lexer.token_spans`, :meth:`_read_on`): each
    token is known at the end of the token before it (the positions the reader steps to). At any other position
    (after a ``DEFINER`` user read by pattern...) the token is lexed there, as the scan would cut it from such a
    boundary."""

    __slots__ = ("text", "pos", "_next", "_spans", "_last", "_read")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        # position -> the token after the blanks there (None: the end; an int: where the unterminated token
        # that comes next starts)
        self._next: dict[int, Tok | None | int] = {}
        known = remembered_spans(text)  # (the text's slot check lexed it already)
        self._spans: Iterator[tuple[str, int, int]] | None = token_spans(text) if known is None else iter(known)
        self._last = 0  # the end of the last token read (0: none yet)
        # the spans lexed here, kept for the text's other readers once they all are (lexer.remember_spans)
        self._read: list[tuple[str, int, int]] | None = [] if known is None else None

    def _at(self, pos: int) -> Tok | None:
        """The token after the blanks at ``pos`` (None at the end); ScanError at an unterminated one."""
        known = self._next
        tok = known.get(pos, _UNREAD)
        if tok is _UNREAD:
            if self._spans is not None and self._last <= pos:
                self._read_on(pos)
                tok = known.get(pos, _UNREAD)
            if tok is _UNREAD:  # not a token's end: lexed there
                p = skip_space(self.text, pos)
                tok = known[pos] = None if p >= len(self.text) else token_at(self.text, p)
        if tok.__class__ is int:
            raise ScanError(*error_message(self.text, tok))  # type: ignore[arg-type]
        return tok  # type: ignore[return-value]

    def _read_on(self, pos: int) -> None:
        """Read the spans on past ``pos``, and _BATCH - 1 more (in one frame, not an ``_at`` call a token: issue
        26); after the last one, the end (None) or where an unterminated token starts."""
        text, known, read = self.text, self._next, self._read
        last = self._last
        more = _BATCH
        for span in self._spans:  # type: ignore[union-attr]
            kind, s, e = span
            if kind == "error":
                known[last] = s
                break
            if read is not None:
                read.append(span)
            word = text[s:e]
            up = "" if kind != "word" else word.upper() if word.isascii() else keyword(word)  # (keyword's)
            known[last] = _tok(_Tok, (kind, word, s, e, up))
            last = e
            if last > pos:
                more -= 1
                if not more:
                    self._last = last
                    return
        else:
            known[last] = None
            if read is not None:
                remember_spans(text, read)
        self._last = last
        self._spans = None

    def read_rest(self) -> None:
        """Read the spans left (a few, after the statement's ``;``), so that the text's other readers get them
        all (:func:`~.lexer.remember_spans`); an unterminated one ends it (nothing kept)."""
        try:
            while self._spans is not None:
                self._at(self._last)
        except ScanError:
            pass

    def peek(self, ahead: int = 0) -> Tok | None:
        tok = self._next.get(self.pos, _UNREAD)
        if tok is _UNREAD or tok.__class__ is int:
            tok = self._at(self.pos)
        while ahead and tok is not None:
            tok = self._at(tok.end)
            ahead -= 1
        return tok

    def take(self) -> Tok:
        tok = self._next.get(self.pos, _UNREAD)  # (the known token without peek's frame; peek reads on)
        if tok is _UNREAD or tok.__class__ is int:
            tok = self.peek()
        if tok is None:
            raise FunctionTextError("unexpected end of text", len(self.text))
        self.pos = tok.end
        return tok

    def words(self, *words: str) -> bool:
        """Consume the keyword sequence ``words`` if it comes next."""
        for i, w in enumerate(words):
            t = self.peek(i)
            if t is None or t.upper != w:
                return False
        for _ in words:
            self.take()
        return True

    def need(self, *words: str) -> Tok:
        t = self.take()
        if t.upper not in words:
            raise FunctionTextError(f"expected {' or '.join(words)}, found {t.text!r}", t.start)
        return t

    def until_clause(self) -> list[Tok]:
        """Tokens up to the next depth-0 clause keyword or ``;``."""
        out: list[Tok] = []
        depth = 0
        while True:
            t = self.peek()
            if t is None:
                break
            if depth == 0 and (t.upper in _CLAUSE_WORDS or (t.kind == "punct" and t.text == ";")):
                break
            if t.kind == "punct" and t.text in "([":
                depth += 1
            elif t.kind == "punct" and t.text in ")]":
                depth -= 1
            out.append(self.take())
        return out


def _paren_tokens(c: _Cursor) -> list[Tok]:
    """Tokens between the ``(`` just consumed and its matching ``)`` (consumed too)."""
    out: list[Tok] = []
    depth = 1
    known = c._next
    while True:
        t = known.get(c.pos, _UNREAD)  # (take's, a known token without its frame)
        if t is _UNREAD or t.__class__ is int:
            t = c.peek()
        if t is None:
            raise FunctionTextError("unexpected end of text", len(c.text))
        c.pos = t.end
        if t.kind == "punct" and t.text in "([":
            depth += 1
        elif t.kind == "punct" and t.text in ")]":
            depth -= 1
            if depth == 0:
                return out
        out.append(t)


def _number(c: _Cursor) -> str:
    t = c.take()
    sign = ""
    if t.kind == "op" and t.text in "+-":
        sign, t = t.text, c.take()
    if t.kind != "number":
        raise FunctionTextError(f"number expected, found {t.text!r}", t.start)
    return sign + t.text


def parse_function_text(text: str, origin: Path = ()) -> tuple[CreateFunction, FunctionTextSpans]:
    """Read a CREATE FUNCTION/PROCEDURE statement text (raises FunctionTextError): a common header at once
    (:func:`~.functext_head.read_common`), any other text by the cursor."""
    got = read_common(text, origin)
    if got is not None:
        return got
    try:
        return _parse(text, origin)
    except ScanError as e:
        raise FunctionTextError(str(e), e.pos) from None
    except (ValueError, IndexError) as e:
        if isinstance(e, FunctionTextError):
            raise
        raise FunctionTextError(str(e), 0) from None


def _parse(text: str, origin: Path) -> tuple[CreateFunction, FunctionTextSpans]:
    c = _Cursor(text)
    spans = FunctionTextSpans()
    c.need("CREATE")
    or_replace = c.words("OR", "REPLACE")
    definer = None
    t = c.peek()
    if t is not None and t.upper == "DEFINER":
        start = t.start
        c.take()
        eq = c.take()
        if eq.text != "=":
            raise FunctionTextError("expected = after DEFINER", eq.start)
        p = skip_space(text, c.pos)
        if p < len(text) and text[p] == '"':
            tok = token_at(text, p)
            definer, c.pos = ident_value(tok), tok.end
        else:
            m = re.compile(r"\S+").match(text, p)
            if m is None:
                raise FunctionTextError("DEFINER without a user", p)
            definer, c.pos = m.group(0), m.end()
        spans.og_only.append((start, c.pos))
    is_procedure = c.need("FUNCTION", "PROCEDURE").upper == "PROCEDURE"
    first = c.take()
    if not is_ident(first):
        raise FunctionTextError("function name expected", first.start)
    parts = [ident_value(first)]
    last = first
    while (d := c.peek()) is not None and d.text == "." and d.kind == "punct":
        c.take()
        last = c.take()
        if not is_ident(last):
            raise FunctionTextError("identifier expected after '.'", last.start)
        parts.append(ident_value(last))
    spans.name = (first.start, last.end)
    if len(parts) > 3:
        raise FunctionTextError("too many name parts", first.start)
    package = parts[1] if len(parts) == 3 else None
    name = QualifiedName(parts[-1], parts[0] if len(parts) > 1 else None, origin=origin)
    open_ = c.peek()
    if open_ is not None and open_.text == "(" and open_.kind == "punct":
        c.take()
        arguments = _parse_args(text, _paren_tokens(c))
    elif is_procedure:
        arguments = ()  # TDDL may write ``CREATE PROCEDURE p AS ...`` without a list
    else:
        raise FunctionTextError("expected (", len(text) if open_ is None else open_.start)

    returns: FunctionReturn | None = None
    oracle_return = False
    language = None
    opts: dict[str, Any] = {}
    sets: list[SetOption] = []
    probin = None
    body: str | None = None
    body_tag: str | None = None

    def og(start: int) -> None:
        spans.og_only.append((start, c.pos))

    known = c._next
    while True:
        t = known.get(c.pos, _UNREAD)  # (peek's, without its frame)
        if t is _UNREAD or t.__class__ is int:
            t = c.peek()
        if t is None:
            break
        u, start = t.upper, t.start
        if t.kind == "punct" and t.text == ";":
            c.take()
            rest = text[c.pos:].strip()
            if rest not in ("", "/"):
                raise FunctionTextError("text after the final ;", c.pos)
            c.read_rest()
            break
        if t.kind == "op" and t.text == "/" and not text[t.end:].strip():
            break
        if u == "RETURNS" and c.words("RETURNS", "NULL", "ON", "NULL", "INPUT"):
            opts["null_input"] = NullInput.RETURNS_NULL
        elif u in ("RETURNS", "RETURN") and returns is None:
            c.take()
            oracle_return = u == "RETURN"
            returns = _parse_return(text, c.until_clause())
        elif u == "LANGUAGE":
            c.take()
            lt = c.take()
            if lt.kind == "string":
                language = string_value(lt)
            elif is_ident(lt):
                language = ident_value(lt)
            else:
                raise FunctionTextError("language name expected", lt.start)
        elif u == "WINDOW":
            c.take()
            opts["window"] = True
        elif u in ("IMMUTABLE", "STABLE", "VOLATILE"):
            c.take()
            opts["volatility"] = Volatility(u.lower())
        elif u == "STRICT":
            c.take()
            opts["null_input"] = NullInput.STRICT
        elif u == "CALLED" and c.words("CALLED", "ON", "NULL", "INPUT"):
            opts["null_input"] = NullInput.CALLED
        elif u in ("SECURITY", "EXTERNAL"):
            c.words("EXTERNAL")
            c.need("SECURITY")
            opts["security"] = Security.DEFINER if c.need("DEFINER", "INVOKER").upper == "DEFINER" else Security.INVOKER
        elif u == "AUTHID":
            c.take()
            w = c.need("DEFINER", "CURRENT_USER").upper
            opts["security"] = Security.AUTHID_DEFINER if w == "DEFINER" else Security.AUTHID_CURRENT_USER
            og(start)
        elif u == "LEAKPROOF" or (u == "NOT" and c.words("NOT", "LEAKPROOF")):
            if u == "LEAKPROOF":
                c.take()
            opts["leakproof"] = u == "LEAKPROOF"
        elif u in ("FENCED", "SHIPPABLE") or (u == "NOT" and (n := c.peek(1)) is not None and n.upper in ("FENCED", "SHIPPABLE")):
            neg = c.words("NOT")
            w = c.take().upper
            opts["fenced" if w == "FENCED" else "shippable"] = not neg
            og(start)
        elif u in ("PACKAGE", "PIPELINED", "DETERMINISTIC"):
            c.take()
            opts[u.lower()] = True
            og(start)
        elif u == "COST":
            c.take()
            opts["cost"] = _number(c)
        elif u == "ROWS":
            c.take()
            opts["rows"] = _number(c)
        elif u == "PARALLEL_ENABLE":
            c.take()
            after = c.pos
            n = c.peek()
            if n is not None and n.text == "(":
                c.take()
                _paren_tokens(c)
            opts["parallel_enable"] = text[after:c.pos].strip()
            og(start)
        elif u == "PARALLEL":
            c.take()
            opts["parallel"] = ident_value(c.take())
        elif u == "COMMENT":
            c.take()
            s = c.take()
            if s.kind != "string":
                raise FunctionTextError("COMMENT needs a string", s.start)
            opts["comment"] = string_value(s)
            og(start)
        elif u == "SET":
            c.take()
            sname = c.take()
            if not is_ident(sname):
                raise FunctionTextError("setting name expected", sname.start)
            if c.words("FROM", "CURRENT"):
                sets.append(SetOption(ident_value(sname), None))
                continue
            op = c.take()
            if not (op.upper == "TO" or op.text == "="):
                raise FunctionTextError("expected TO or =", op.start)
            value = _span_text(text, c.until_clause())
            if not value:
                raise FunctionTextError("SET without a value", op.end)
            sets.append(SetOption(ident_value(sname), value))
        elif u in ("AS", "IS") and body is None:
            c.take()
            p = c.pos
            while p < len(text) and text[p].isspace():
                p += 1
            if p < len(text) and (dollar_tag_at(text, p) is not None or text[p] == "'"
                                  or (text[p] in "eE" and text.startswith("'", p + 1))):
                lit = token_at(text, p)
                c.pos = lit.end
                n = c.peek()
                if n is not None and n.text == "," and n.kind == "punct":
                    c.take()
                    probin = string_value(lit)
                    lit = c.take()
                    if lit.kind not in ("string", "dollar"):
                        raise FunctionTextError("second AS literal expected", lit.start)
                body = string_value(lit)
                body_tag = dollar_tag_at(lit.text, 0) if lit.kind == "dollar" else "'"
            else:
                start_body = c.pos + 1 if c.pos < len(text) and text[c.pos].isspace() else c.pos
                end_body = _oracle_body_end(text, start_body)
                body = text[start_body:end_body]
                c.pos = len(text)
                break
        else:
            raise FunctionTextError(f"unexpected {t.text!r} in the function header", t.start)
    if body is None:
        raise FunctionTextError("no AS body", len(text))
    if is_procedure and returns is not None:
        raise FunctionTextError("a procedure with a return type", 0)
    style = FunctionStyle.ORACLE if oracle_return or body_tag is None else FunctionStyle.POSTGRES
    stmt = CreateFunction(
        text, name, package=package, or_replace=or_replace, definer=definer, is_procedure=is_procedure,
        arguments=arguments, returns=returns, style=style, language=language, options=FunctionOptions(**opts),
        set_options=tuple(sets), probin=probin, body=body, body_tag=body_tag,
        name_span=spans.name, name_text=text[spans.name[0]:spans.name[1]], origin=origin,
    )
    return stmt, spans


# ---- cross-check with pglast ----------------------------------------------------------------
_PARSE_JSON: Any = None
# (enum members read once: a read through an Enum class is ~800 instructions, issue 26)
_POSTGRES_STYLE, _IN = FunctionStyle.POSTGRES, ArgMode.IN
_MODES_PG = {"FUNC_PARAM_OUT": ArgMode.OUT, "FUNC_PARAM_INOUT": ArgMode.INOUT, "FUNC_PARAM_VARIADIC": ArgMode.VARIADIC}


def _node(n: Any) -> tuple[str, dict[str, Any]]:
    """A node of pglast's JSON parse: (its type, its fields); fields left at their default are absent."""
    ((kind, fields),) = n.items()
    return kind, fields


def _items(n: Any) -> list[Any]:
    """The elements of a list value (a ``List`` node in a ``DefElem``'s argument)."""
    if isinstance(n, dict):
        kind, fields = _node(n)
        return fields.get("items", []) if kind == "List" else [n]
    return n


def _sval(n: Any) -> str | None:
    kind, fields = _node(n)
    return fields.get("sval", "") if kind == "String" else None


def crosscheck(stmt: CreateFunction, spans: FunctionTextSpans) -> list[str]:
    """Fields on which pglast reads the (openGauss words blanked) text differently; [] when it
    agrees, or when the text is Oracle-style or pglast cannot parse it. Read from pglast's JSON parse (the
    same C parser as its Python nodes, without making them: issue 26)."""
    global _PARSE_JSON
    if stmt.style is not _POSTGRES_STYLE:
        return []
    text = stmt.text
    for a, b in spans.og_only:  # (each blanked in place: the same length, no offset moves)
        text = text[:a] + " " * (b - a) + text[b:]
    if _PARSE_JSON is None:
        from pglast.parser import parse_sql_json

        _PARSE_JSON = parse_sql_json
    try:
        parsed = orjson.loads(_PARSE_JSON(text)).get("stmts", [])
    except Exception:  # GaussDB-only syntax left, or a type pglast's grammar lacks
        return []
    if len(parsed) != 1 or "CreateFunctionStmt" not in parsed[0].get("stmt", {}):
        return ["statement kind"]
    f = parsed[0]["stmt"]["CreateFunctionStmt"]
    out: list[str] = []
    # (each node's one field unpacked in place, ``((kind, fields),) = n.items()`` as _node does, and a String's
    # value read there: the same reading without a call a node, issue 26)
    names = []
    for n in f.get("funcname", ()):
        ((kind, fields),) = n.items()
        names.append(fields.get("sval", "") if kind == "String" else None)
    want = [p for p in (stmt.name.schema, stmt.package, stmt.name.name) if p is not None]
    if names != want:
        out.append("name")
    params, table = [], []
    for n in f.get("parameters", ()):
        ((_kind, p),) = n.items()
        (table if p.get("mode") == "FUNC_PARAM_TABLE" else params).append(p)
    if len(params) != len(stmt.arguments):
        out.append("arguments")
    else:
        for p, a in zip(params, stmt.arguments, strict=True):
            if (p.get("name") or None) != a.name or _MODES_PG.get(p.get("mode")) != (a.mode if a.mode is not _IN else None) \
                    or ("defexpr" in p) != (a.default is not None):
                out.append(f"argument {a.name or a.type}")
    returns = f.get("returnType")
    if stmt.returns is not None and returns is not None and bool(returns.get("setof")) != stmt.returns.setof:
        out.append("setof")
    if stmt.returns is not None and len(table) != len(stmt.returns.table):
        out.append("returns table")
    o: dict[str, Any] = {}
    sets = []
    for n in f.get("options", ()):
        ((_kind, d),) = n.items()
        o[d["defname"]] = d.get("arg")
        if d["defname"] == "set":
            sets.append(d)
    if "language" in o and (None if o["language"] is None else _sval(o["language"])) != stmt.language:
        out.append("language")
    if "as" in o:
        as_ = [_sval(s) for s in _items(o["as"])]
        if as_[-1] != stmt.body or (len(as_) > 1 and as_[0] != stmt.probin):
            out.append("body")
    if not o.keys() <= _LANGUAGE_AS:  # (other options: their checks)
        _options_differ(o, stmt.options, out)
    if [_node(d["arg"])[1].get("name") for d in sets] != [s.name for s in stmt.set_options]:
        out.append("set")
    return out


_LANGUAGE_AS = frozenset({"language", "as"})


def _options_differ(o: dict[str, Any], opts: Any, out: list[str]) -> None:
    """crosscheck's options but the language and the body: the names of those pglast reads otherwise, to ``out``."""
    sval = lambda v: None if v is None else _sval(v)  # noqa: E731
    boolval = lambda v: bool(_node(v)[1].get("boolval"))  # noqa: E731
    if "volatility" in o and sval(o["volatility"]) != (opts.volatility.value if opts.volatility else None):
        out.append("volatility")
    if "strict" in o and (opts.null_input is None or boolval(o["strict"]) != opts.null_input.strict):
        out.append("strict")
    if "security" in o and (opts.security is None or boolval(o["security"]) != opts.security.definer):
        out.append("security")
    for key in ("cost", "rows"):
        if key in o:
            kind, fields = _node(o[key])
            v = fields.get("ival", 0) if kind == "Integer" else fields.get("fval") if kind == "Float" else None
            mine = getattr(opts, key)
            if mine is None or Decimal(str(v)) != Decimal(mine):
                out.append(key)


__all__ = ["FunctionTextError", "FunctionTextSpans", "parse_function_text", "crosscheck"]
