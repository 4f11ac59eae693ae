"""Issue 26, the front half's fixed costs: each algorithm replaced for speed answers exactly as the one it
replaced (kept beside it as the reference), over every fixture tree and over trees hypothesis mutates, errors
included (code, message, path, fmt and hint, in the same order).

* ``jddl.expand.check`` (the check walk, :class:`ddlc.jddl.expand.CheckWalk`) against the expander itself run
  without rendering (``_Expander(render=False)``, what ``check`` was).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.jddl import expand as X

ROOT = Path(__file__).resolve().parents[1]


from test_expand_check import TREES, _paths  # noqa: E402 - every fixture tree (one collection for both files)
from test_expand_check import mutated as _mutated  # noqa: E402


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return ("ok", fn(*args))
    except DdlcError as e:
        return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None), getattr(e, "hint", None), e.document)
    except RecursionError:
        return "recursion"


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6), st.just(""), st.just([]), st.just({}), st.just({"fmt": "%{x}I"}), st.just({"fmt": "%{x}s"}),
    st.just({"present": False}), st.just({"present": "no"}), st.just(["a", {"fmt": "x"}]),
    st.just({"objname": "t"}), st.just({"schemaname": 1, "objname": "t"}), st.just({"object_name": 2}),
    st.just({"typename": "int", "typarray": False}), st.just({"typename": "int", "typarray": 1}),
    st.just({"fmt": "%{a:, }s", "a": ["x", {"present": False}, {"fmt": "y"}]}),
    st.just({"fmt": "%{x", "x": 1}), st.just({"fmt": "%{x}q"}), st.just({"fmt": 3}),
)


def mutated(data: Any) -> dict:
    """A fixture tree with 1-3 members deleted or replaced (test_expand_check.mutated, this file's values)."""
    return _mutated(data, _VALUES)


# ---- the expansion's check ------------------------------------------------------------------------------


def _old_check(tree: dict, document: str | None = "d") -> None:
    X._Expander(document, render=False).expand(tree, (), 0, [])


def _new_check(tree: dict, document: str | None = "d") -> None:
    X.check(tree, document=document)


def test_expansion_check_on_fixture_trees() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        assert _outcome(_new_check, tree) == _outcome(_old_check, tree)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_expansion_check_on_mutated_trees(data: Any) -> None:
    tree = mutated(data)
    assert _outcome(_new_check, tree) == _outcome(_old_check, tree)


def test_expansion_check_on_shared_and_deep_objects() -> None:
    shared = {"fmt": "x"}
    many = {"fmt": " ".join(f"%{{a{i}}}s" for i in range(8)) + " %{b:, }s", **{f"a{i}": shared for i in range(8)},
            "b": [shared, shared]}
    deep: dict = {"fmt": "x"}
    for _ in range(300):
        deep = {"fmt": "(%{c}s)", "c": deep}
    for tree in (many, deep, {"fmt": "%{x}D", "x": {"schema_name": "s"}}, {"fmt": "%{x}T", "x": {"type_name": 1}}):
        assert _outcome(_new_check, tree) == _outcome(_old_check, tree)


# ---- the slot check -------------------------------------------------------------------------------------
from ddlc.frontend import slots as S  # noqa: E402
from ddlc.frontend.build import shape_of  # noqa: E402


def _old_slots(tree: dict, shape: str | None, document: str | None = "d") -> tuple:
    """check_tree as it was: the generic walk (:class:`ddlc.frontend.slots._Walk`) over the node tables."""
    node = S.NODES.get(shape) if shape is not None else None
    if node is None:
        return ()
    walk = S._Walk(document)
    walk.node(tree, node, (), 0, shape in S.BLOCKS)
    return tuple(walk.unpastable)


def _new_slots(tree: dict, shape: str | None, document: str | None = "d") -> tuple:
    return S.check_tree(tree, shape, document)


SHAPED = [(t, shape_of(t)) for t in TREES]
SHAPES = sorted(S.NODES)


def test_slot_check_on_fixture_trees() -> None:
    assert sum(1 for _, s in SHAPED if s is not None) > 100
    for tree, shape in SHAPED:
        assert _outcome(_new_slots, tree, shape) == _outcome(_old_slots, tree, shape)


def test_slot_check_on_fixture_trees_read_as_any_shape() -> None:
    for tree, _ in SHAPED:
        for shape in SHAPES:
            assert _outcome(_new_slots, tree, shape) == _outcome(_old_slots, tree, shape)


_SLOT_VALUES = st.one_of(
    _VALUES, st.sampled_from(["IF EXISTS", " if  exists ", "CASCADE", "x; DROP TABLE t", "a -- b", "'it''s'", "(a",
                              "a)", '"Q"', "e'\\\\'", "$$x$$", "/*c*/ a", "public.t", "1e3", "COST 5", "x\n/\n",
                              "BEGIN x; END", "CREATE FUNCTION f() AS $$ x $$", "'a' b", "it's", "back\\slash"]),
)


def slot_mutated(data: Any) -> dict:
    """A fixture tree with 1-3 members other than ``fmt`` replaced by slot values (or, one time in five, deleted)."""
    return _mutated(data, _SLOT_VALUES, keep_fmt=True, delete_odds=5)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_slot_check_on_mutated_trees(data: Any) -> None:
    tree = slot_mutated(data) if data.draw(st.booleans()) else mutated(data)
    shape = shape_of(tree) if data.draw(st.booleans()) else data.draw(st.sampled_from([None, "nope", *SHAPES]))
    assert _outcome(_new_slots, tree, shape) == _outcome(_old_slots, tree, shape)


_TRICKY = ["", "IF EXISTS", "CASCADE", "x; y", "a -- b", "a /* c */", "'it''s'", "it's", "(a", "a)", '"Q"', "$$x$$",
           "public.t", "1.5", "x\n/\n", "back\\slash", "BEGIN x; END", "CREATE FUNCTION f() AS $$ x $$ LANGUAGE sql"]


def test_slot_check_every_string_member_of_every_fixture_replaced() -> None:
    """Each string of each fixture tree (at any depth) replaced in turn by each of a few values that fall
    outside their class, are refused as a paste, or pass: the same answer."""
    seen = set()
    for tree, shape in SHAPED:
        strings = [p for p in _paths(tree) if p and p[-1] != "fmt" and isinstance(_at(tree, p), str)]
        for path in strings:
            for value in _TRICKY:
                t = json.loads(json.dumps(tree))
                parent = _at(t, path[:-1])
                parent[path[-1]] = value
                got = _outcome(_new_slots, t, shape)
                assert got == _outcome(_old_slots, t, shape), (path, value)
                seen.add(got[0] if isinstance(got, tuple) and got[0] != "ok" else bool(got[1]))
    assert seen >= {"DDLC-E011", True, False}  # errors, refused pastes and clean trees all met


def _at(tree: Any, path: tuple) -> Any:
    for k in path:
        tree = tree[k]
    return tree


# ---- the slot classes' quick forms (frontend/sql/slotforms.py) --------------------------------------------
from ddlc.frontend.sql import slotforms as F  # noqa: E402
from ddlc.frontend.sql.fragment import comments, fragment_problem  # noqa: E402
from ddlc.frontend.sql.lexer import scan  # noqa: E402

_ALPHABET = st.sampled_from(list("aeEnNxXbB_z9$ \t\n\r\f\v\"'();,.-/*\\:+é\u00a0\u2003") + ['""', "''", "--", "/*",
                                                                                              "*/", "$$", "E'"])
_TEXTS = st.lists(_ALPHABET, max_size=14).map("".join)


def _old_identifier(v: str, form: str) -> tuple:
    if form == "word":
        return F.identifier_verdict(v, form)
    if comments(v) or any(k == "error" for k, _, _ in scan(v)):
        return "not a name", False
    toks = [t for t in scan(v) if t[0] not in ("space", "comment")]
    ok = bool(toks) and all(k in ("word", "qident") for k, _, _ in toks) and (form == "words" or len(toks) == 1)
    return (None if ok else f"not {F.DESCRIBED[form]}"), False


@settings(max_examples=3000, deadline=None)
@given(_TEXTS, st.sampled_from(["name", "words"]))
def test_names_read_without_the_lexer(text: str, form: str) -> None:
    assert F.identifier_verdict(text, form) == _old_identifier(text, form)


def test_quick_forms_answer_as_the_lexer_on_fixture_strings() -> None:
    strings = {v for tree in TREES for p in _paths(tree) if p and isinstance(v := _at(tree, p), str)}
    quick = 0
    for v in strings:
        for form in ("name", "words"):
            assert F.identifier_verdict(v, form) == _old_identifier(v, form)
        quick += F._ONE_NAME.match(v) is not None
    assert quick > len(strings) // 4


_QUOTED_TEXTS = st.lists(st.sampled_from(list("ab_9 \n\"'(),.é") + ['""', "''", "'(x'", '"a)"', "e'", "X'"]),
                         max_size=16).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_QUOTED_TEXTS)
def test_quoted_names_read_without_the_lexer(text: str) -> None:
    for form in ("name", "words"):
        assert F.identifier_verdict(text, form) == _old_identifier(text, form)


_QUERY_TEXTS = st.tuples(_QUOTED_TEXTS, st.sampled_from(["", ";", "; ", ";\n\t", ";;", "; ;", " ;\f", ";x"])).map("".join)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_QUERY_TEXTS, _TEXTS))
def test_query_verdicts_as_before(text: str) -> None:
    assert F.fragment_verdict(text, "query") == _old_fragment_verdict(text, "query")


def _old_fragment_verdict(v: str, form: str) -> tuple:
    why = fragment_problem(v, query=form == "query")
    if why is not None and form == "partition" and fragment_problem(v, glued_quotes=True) is None:
        return None, True
    return why, why is None and bool(comments(v))


@settings(max_examples=2000, deadline=None)
@given(st.one_of(_QUOTED_TEXTS, _TEXTS), st.sampled_from(["identity", "expression", "partition", "index", "text"]))
def test_fragment_verdicts_as_before(text: str, form: str) -> None:
    assert F.fragment_verdict(text, form) == _old_fragment_verdict(text, form)


# ---- reading a document (frontend/documents.as_document, frontend/jsonload._load) ---------------------------
from collections.abc import Mapping  # noqa: E402
from decimal import Decimal  # noqa: E402

from ddlc.diagnostics import E_SHAPE  # noqa: E402
from ddlc.frontend import documents as D  # noqa: E402
from ddlc.frontend import jsonload as J  # noqa: E402


def _old_load(data: bytes) -> tuple[Any, bool]:
    """jsonload._load as it was: the standard parser with exact numbers whenever the bytes match _INEXACT."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if "UTF-8" in str(exc) and json.detect_encoding(data) == "utf-8":
            raise J._utf8_error(data, exc) from None
    else:
        if J._SIEVE.search(data.translate(J._NUMBERS)) is None or J._INEXACT.search(data) is None:
            return value, b"\\u0000" in data
    try:
        return json.loads(data, parse_float=J._decimal, parse_constant=J._constant), b"\\u" in data
    except J._NonFinite as exc:
        raise J.InputError(f"{exc.args[0]} is not valid JSON (JSON numbers are finite)") from None
    except J._OutOfRange as exc:
        raise J.InputError(f'invalid input syntax for type numeric: "{exc.args[0][:40]}" (a tree is a jsonb '
                           "value: its numbers are numerics, exponents within +-1000)") from None
    except (ValueError, RecursionError):
        return orjson.loads(data), b"\\u0000" in data


def _old_as_document(doc: Any, *, index: int = 0, source: str = "<input>") -> Any:
    """documents.as_document as it was (with the old _load)."""
    if isinstance(doc, D.Document):
        return doc
    if isinstance(doc, Mapping):
        return D.classify(dict(doc) if not isinstance(doc, dict) else doc, index=index, source=source, label=source)
    if isinstance(doc, str | bytes | bytearray):
        data = doc.encode("utf-8", "surrogatepass") if isinstance(doc, str) else bytes(doc)
        if data[:1] == b"{":
            try:
                value, suspect = _old_load(data)
            except orjson.JSONDecodeError:
                pass
            else:
                if isinstance(value, dict):
                    return D.classify(value, index=index, source=source, label=source, check=suspect)
        docs = list(D.read_documents(data, source, start=index))
        if len(docs) == 1:
            return docs[0]
        err = DdlcError(f"expected exactly one document, found {len(docs)} (use translate_many)",
                        code=E_SHAPE, document=source)
        return D.Document(index, source, source, error=err)
    err = DdlcError(f"cannot read a document from {type(doc).__name__}", code=E_SHAPE, document=source)
    return D.Document(index, source, source, error=err)


def _typed(v: Any) -> Any:
    """A value with the type of every number and string spelled out (1.5 == Decimal('1.5'), but not here)."""
    if isinstance(v, dict):
        return ("dict", [(_typed(k), _typed(x)) for k, x in v.items()])
    if isinstance(v, list):
        return ("list", [_typed(x) for x in v])
    return (type(v).__name__, repr(v))


def _doc(d: Any) -> Any:
    e = d.error
    err = None if e is None else (type(e).__name__, e.code, str(e), tuple(e.path), e.document,
                                  getattr(e, "position", None))
    return (type(d).__name__, d.index, d.source, d.label, d.line, _typed(d.tree), d.tddl, err, _typed(dict(d.meta)),
            d.lsn, d.xid, d.position)


def _read(fn: Any, data: Any, **kw: Any) -> Any:
    try:
        return _doc(fn(data, **kw))
    except Exception as e:  # noqa: BLE001 - compared as data
        return ("raised", type(e).__name__, str(e))


def _inputs() -> list[bytes]:
    out = [p.read_bytes() for p in sorted(ROOT.glob("fixtures/**/*.json*")) if p.stat().st_size < 200_000]
    return out + [orjson.dumps(t) for t in TREES]


INPUTS = _inputs()


def test_reading_every_fixture_input_as_before() -> None:
    assert _old_load.__doc__ and J._load is not _old_load
    assert len(INPUTS) > 300
    for data in INPUTS:
        for form in (data, data.decode("utf-8", "surrogatepass"), bytearray(data)):
            for kw in ({}, {"index": 7, "source": "<input 7>"}):
                assert _read(D.as_document, form, **kw) == _read(_old_as_document, form, **kw)


_NUMBER_TEXTS = st.sampled_from(["0", "-1", "1.5", "2.50", "1e3", "1E-2", "0.00", "12345678901234567890",
                                 "123456789012345678", "-0", "1e1001", "NaN", "Infinity", "1.0e5"])
_STRING_TEXTS = st.sampled_from(["x", "2.50", "a1e3", "0.00", "t_00e3a", "1234567890123456789", "\\u0000", "\\ud800",
                                 "\\u00e9", "é", "\\\\u0000", "public.t1", "", "a\\\"b"])


@st.composite
def _json_docs(draw: Any) -> bytes:
    """A JSON object of a few members: numbers, strings, nested objects and arrays, in text."""
    def value(depth: int) -> str:
        kind = draw(st.integers(0, 5 if depth < 3 else 2))
        if kind == 0:
            return draw(_NUMBER_TEXTS)
        if kind == 1 or kind == 2:
            return '"' + draw(_STRING_TEXTS) + '"'
        if kind == 3:
            return draw(st.sampled_from(["true", "false", "null"]))
        if kind == 4:
            return "[" + ",".join(value(depth + 1) for _ in range(draw(st.integers(0, 3)))) + "]"
        return obj(depth + 1)

    def obj(depth: int) -> str:
        keys = draw(st.lists(st.sampled_from(["fmt", "a", "b", "x1e5", "TDDL", "JDDL"]), max_size=4))
        sep = draw(st.sampled_from([",", ", ", " ,\n"]))
        return "{" + sep.join(f'"{k}":{value(depth)}' for k in keys) + "}"

    return obj(0).encode()


@settings(max_examples=3000, deadline=None)
@given(_json_docs())
def test_reading_generated_objects_as_before(data: bytes) -> None:
    assert _read(D.as_document, data) == _read(_old_as_document, data)
    assert _read(J._load, data) == _read(_old_load, data) or _load_same_but_suspect(data)


def _load_same_but_suspect(data: bytes) -> bool:
    """The loads agree on the value; ``suspect`` may differ only where the string check it asks for finds
    nothing either way (no NUL: no \\u0000)."""
    (a, _), (b, _) = J._load(data), _old_load(data)
    return _typed(a) == _typed(b) and b"\\u0000" not in data and J.text_error(a) is None


def test_exact_numbers_are_still_read_exactly() -> None:
    value, _ = J._load(b'{"fmt": "%{n}n", "n": 2.50, "s": "x"}')
    assert type(value["n"]) is Decimal and str(value["n"]) == "2.50"
    value, _ = J._load(b'{"fmt": "%{n}n", "n": 2.5, "s": "0.00"}')  # matched in a string, a float elsewhere
    assert type(value["n"]) is Decimal
    value, _ = J._load(b'{"fmt": "%{n}n", "n": 2, "s": "0.00"}')  # matched in a string only: orjson's own value
    assert value == {"fmt": "%{n}n", "n": 2, "s": "0.00"}


def _old_code_problem(v: str) -> str | None:
    from ddlc.frontend.sql.fragment import open_line_comment

    if open_line_comment(v):
        return "a -- comment that runs to the end of the text (it would swallow what follows it)"
    line_start, slash_line = True, False
    for kind, s, e in scan(v):
        if kind == "error":
            return "an unterminated quote, quoted name, dollar quote or comment"
        if kind == "space":
            if "\n" in v[s:e] or "\r" in v[s:e]:
                if slash_line:
                    return "a line holding only /"
                line_start = True
            continue
        if kind == "comment":
            continue
        tok = v[s:e]
        if "\\" in tok and kind not in ("string", "qident", "dollar"):
            return "a backslash outside quotes (psql and gsql run a meta-command from it)"
        slash_line, line_start = line_start and tok == "/", False
    return "a line holding only /" if slash_line and ("\n" in v or "\r" in v) else None


def _old_statements_problem(v: str, toks: list) -> str | None:
    for i, (kind, s, e) in enumerate(toks):
        if v[s:e] == ";" and any(v[a:b] != ";" for _, a, b in toks[i + 1:]):
            return "a ';' followed by another statement"
    return None


def _old_body(v: str) -> tuple:
    why = _old_code_problem(v)
    if why is None:
        toks = [t for t in scan(v) if t[0] not in ("space", "comment")]
        words = [v[s:e].upper() for k, s, e in toks if v[s:e] != ";"]
        if not (words and words[0] == "BEGIN" and words[-1] == "END"):
            why = _old_statements_problem(v, toks)
    return why, False


def _old_routine(v: str) -> tuple:
    why = _old_code_problem(v)
    if why is None:
        toks = [t for t in scan(v) if t[0] not in ("space", "comment")]
        if not toks or v[toks[0][1]:toks[0][2]].upper() != "CREATE":
            why = "not a CREATE statement"
        elif any(k == "dollar" for k, _, _ in toks):
            why = _old_statements_problem(v, toks)
    return why, False


_CODE_TEXTS = st.lists(st.sampled_from(["BEGIN", "END", "CREATE", "x", " ", "\n", ";", "/", "\\", "'", "$$", "$f$",
                                        "--", "/*", "*/", "e'", '"', "(", ")", "insert into t values (1)", "x;"]),
                       max_size=14).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_CODE_TEXTS)
def test_code_verdicts_in_one_scan(text: str) -> None:
    assert F.fragment_verdict(text, "body") == _old_body(text)
    assert F.fragment_verdict(text, "routine") == _old_routine(text)
    assert F._code_problem(text) == _old_code_problem(text)


def test_code_verdicts_on_fixture_strings() -> None:
    strings = {v for tree in TREES for p in _paths(tree) if p and isinstance(v := _at(tree, p), str)}
    for v in strings:
        assert F.fragment_verdict(v, "body") == _old_body(v)
        assert F.fragment_verdict(v, "routine") == _old_routine(v)


# ---- pglast's printing in the TDDL readers (frontend/recover._sql, text/_pgtree.deparse) -------------------
def _sql_texts() -> list[str]:
    out = set()
    for p in sorted(ROOT.glob("fixtures/**/*.json*")):
        for line in p.read_bytes().splitlines() if p.suffix != ".json" else [p.read_bytes()]:
            try:
                v = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            for path in _paths(v):
                if path and isinstance(x := _at(v, path), str) and (path[-1] in ("TDDL", "query", "definition",
                                                                                    "default", "where")):
                    out.add(x)
    for p in sorted(ROOT.glob("fixtures/**/*.sql")):
        out.add(p.read_text(errors="replace"))
    return sorted(out)


def _printed(fn: Any, node: Any) -> Any:
    try:
        return fn(node)
    except Exception as e:  # noqa: BLE001 - compared as data
        return ("raised", type(e).__name__, str(e))


def test_sql_printed_as_pglasts_raw_stream() -> None:
    from pglast import ast
    from pglast.stream import RawStream

    from ddlc.frontend.recover import _sql
    from ddlc.frontend.sql.pgparse import parse_sql

    nodes = 0
    for text in _sql_texts():
        try:
            stmts = parse_sql(text)
        except Exception:  # noqa: BLE001 - not PostgreSQL's grammar
            continue
        todo: list[Any] = list(stmts)
        while todo:
            n = todo.pop()
            if isinstance(n, tuple):
                todo.extend(n)
                continue
            if not isinstance(n, ast.Node):
                continue
            nodes += 1
            assert _printed(_sql, n) == _printed(lambda x: RawStream()(x), n)
            todo.extend(getattr(n, name) for name in n.__slots__ if name != "ancestors" and not name.startswith("_")
                        and isinstance(getattr(n, name, None), (tuple, ast.Node)))
    assert nodes > 1000


# ---- the TDDL recovery reads the text's one scan (frontend/recover.py, Lexed) -------------------------------
from ddlc.frontend import recover as R  # noqa: E402
from ddlc.frontend.sql.lexer import Lexed, ScanError, Tok, tokens  # noqa: E402
from ddlc.frontend.statement_kind import _head  # noqa: E402

_SQL_TEXTS = st.lists(st.sampled_from(["CREATE", "TABLE", "t", " ", "\n", "(", ")", "AS", "SELECT", "1", ";", "'x'",
                                       "'", '"a"', '"', "$$b$$", "$$", "--c\n", "/*", "*/", "WITH", "NO", "DATA", ".",
                                       "e'\\''", "INCREMENTAL", "LARGE"]), max_size=16).map("".join)


def _all_tokens(text: str) -> Any:
    try:
        return list(tokens(text))
    except ScanError as e:
        return ("ScanError", str(e))


def _upto(text: Any) -> Any:
    try:
        return text.upto()
    except ScanError as e:
        return ("ScanError", str(e))


@settings(max_examples=3000, deadline=None)
@given(_SQL_TEXTS, st.integers(1, 12), st.booleans())
def test_a_lexed_texts_tokens_are_the_texts(text: str, n: int, scanned_first: bool) -> None:
    """What the recovery's handlers now read from the text's one scan (``Lexed``) is what they read by scanning
    it again: its first tokens, all its tokens or the same ScanError, however far it was scanned before."""
    lexed = Lexed(text)
    if scanned_first:
        _upto(lexed)
    assert lexed.head(n) == _head(text, n)
    assert _upto(lexed) == _all_tokens(text)
    assert all(type(t) is Tok for t in lexed.head(n))


def test_recovery_reads_fixture_texts_alike_from_text_and_scan() -> None:
    texts = [t for t in _sql_texts() if R.recovers(R.statement_kind(t))]
    assert len(texts) > 20
    for t in texts:
        lexed = Lexed(t)
        _upto(lexed)
        a, b = R.recover_tddl(t), R.recover_tddl(lexed)
        assert (repr(a[0]), [(d.code, d.message) for d in a[1]]) == (repr(b[0]), [(d.code, d.message) for d in b[1]])
