"""Issue 26, round 13 (the builders): an index definition with expression keys or a one-line LOCAL list is read
without the cursor (:func:`ddlc.frontend.sql.index._keyed`). Whatever it reads, the cursor (:class:`_P`) reads the
same; ``parse_definition`` gives what it gave when the cursor read every text the common pattern does not (the
same definition, the same message, the same error), on every fixture definition, on texts made from the
definition's grammar (names quoted or not, strings, quotes that do not close, blanks of every kind, keywords in
any case, ``$$``, ``--``, ``/*``, backslashes, non-ASCII, empty parts) and on mutated fixture definitions."""

from __future__ import annotations

import glob

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import index
from ddlc.ir.index import IndexDefinition, IndexKey, IndexPartition, NullsOrder, PartitionScope, SortOrder
from ddlc.frontend.sql.lexer import ScanFail


def _outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - the same error either way
        return ("raised", type(e).__name__, str(e))


def _cursor(text: str):
    try:
        return index._P(text, ("definition",)).definition()
    except ScanFail as e:
        return str(e)


def _former_parse(text: str):
    """parse_definition as it was: the common pattern, then the cursor for every other text."""
    real = index._keyed
    index._keyed = lambda text, origin: None
    try:
        return _outcome(index.parse_definition, text, ("definition",))
    finally:
        index._keyed = real


def _same(text: str) -> bool:
    """Asserts the readings agree; whether the fast reading took the text."""
    fast = _outcome(index._keyed, text, ("definition",))
    if fast is not None:
        assert fast == _outcome(_cursor, text), text
        if not isinstance(fast, tuple):  # (both read the module's names: its values checked by their classes too)
            assert type(fast.scope) is PartitionScope, text
            assert all(type(k.ordering) in (SortOrder, type(None)) and type(k.nulls) in (NullsOrder, type(None))
                       for k in fast.keys), text
    assert _outcome(index.parse_definition, text, ("definition",)) == _former_parse(text), text
    return fast is not None and not isinstance(fast, tuple)


def _definitions() -> list[str]:
    out = []
    for p in sorted(glob.glob("fixtures/**/*.json*", recursive=True)):
        for line in open(p, "rb").read().splitlines() if p.endswith(".jsonl") else [open(p, "rb").read()]:
            try:
                tree = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            stack = [tree]
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    if isinstance(node.get("definition"), str) and "INDEX" in str(node.get("fmt", "")):
                        out.append(node["definition"])
                    stack.extend(node.values())
                elif isinstance(node, list):
                    stack.extend(node)
    return out


DEFINITIONS = _definitions()


def test_fixture_definitions_read_as_before():
    assert len(DEFINITIONS) >= 6
    taken = sum(_same(text) for text in DEFINITIONS)
    assert taken >= 5  # the expression keys and the LOCAL list included


def test_local_list_read_as_the_server_wrote_it():
    got = index._keyed("(id pg_catalog.int4_ops) LOCAL(PARTITION p1, PARTITION \"P 2\" TABLESPACE ts) ", ("d",))
    opclass = index.QualifiedName("int4_ops", "pg_catalog", origin=("d",))
    assert got == IndexDefinition((IndexKey("id", None, None, opclass, origin=("d",)),), (), PartitionScope.LOCAL,
                                  (IndexPartition("p1", None, origin=("d",)), IndexPartition("P 2", "ts", origin=("d",))),
                                  False, origin=("d",))
    assert got.scope is PartitionScope.LOCAL


def test_examples():
    for text in [
        "(lower(note) pg_catalog.text_ops, ((id + 1)) pg_catalog.int4_ops DESC NULLS FIRST) INCLUDE (amount, \"Extra\")",
        "(to_tsvector('english'::regconfig, body) pg_catalog.tsvector_ops)",
        "(id pg_catalog.int4_ops) LOCAL(PARTITION p1_id_idx, PARTITION p2_id_idx TABLESPACE ts) ",
        "(f('a)b''(', x))", "(f('a\"b'))", "(f(\"a)b\"))", "(f('a)) b)", "(f('a'))'", "((a))GLOBAL", "((a)) LOCAL() ",
        "((a)) GLOBAL INCLUDE (b) LOCAL(PARTITION p) ", "((a)) INCLUDE (b)GLOBAL", "(a.b)", "(a.b(c))", "(\"f\"(c))",
        "(f (c))", "((a) ASC)", "((a) asc)", "((a)  DESC)", "((a) COLLATE \"C\" x.y DESC NULLS LAST)", "((a) NULLS)",
        "(f($$)$$))", "(f(a) -- x\n)", "(f(/* ) */ a))", "(f(E'\\')'))", "(f('é'))", "(é(a))", "((a)) LOCAL(PARTITION \"q, PARTITION z\") ",
        "((a)) LOCAL(partition p) ", "((a)) LOCAL(PARTITION p TABLESPACE) ", "((a)) LOCAL(\n    PARTITION p(\n        SUBPARTITION s\n    )\n) ",
        "()", "(", "((a)", "(a))", "", "((a)) INCLUDE ()", "((a),(b))", "((a), (b))", "((a) , (b))", "((a);)",
    ]:
        _same(text)


_idents = st.sampled_from(["a", "amount", "B_1", "x$", '"Note"', '"a""b"', '"a.b"', '"a, b"', '"a(b"', '"a)b"', '""',
                           "asc", "ASC", "desc", "nulls", "Nulls", "collate", "COLLATE", "first", "last", "global",
                           "include", "partition", "PARTITION", "tablespace", "e", "x", "é", "a'b'", "1a", "_", '"x"y',
                           "a b", "local", "LOCAL"])
_qnames = st.one_of(_idents, st.tuples(_idents, _idents).map(lambda t: f"{t[0]}.{t[1]}"),
                    st.tuples(_idents, _idents, _idents).map(lambda t: f"{t[0]}.{t[1]}.{t[2]}"))
_sep = st.sampled_from([" ", " ", " ", "  ", "\t", "\n", ""])
_atoms = st.sampled_from(["a", "1", "'x'", "'a)b'", "'('", "''''", "'it''s'", "'\"'", "'", '"q"', '"a)"', "E'\\''",
                          "$$)$$", "$t$($t$", "-- )\n", "/* ) */", "\\", "é", "::regconfig", " + ", ", ", "", "x.y"])


@st.composite
def _expressions(draw) -> str:
    def inner(depth: int) -> str:
        parts = []
        for _ in range(draw(st.integers(0, 3))):
            if depth < 3 and draw(st.booleans()):
                parts.append("(" + inner(depth + 1) + ")")
            else:
                parts.append(draw(_atoms))
        return "".join(parts)

    head = draw(st.sampled_from(["", "", "lower", "f.g", '"F"', "pg_catalog.lower", "a b", "é"]))
    return head + "(" + inner(0) + ")"


@st.composite
def _keys(draw) -> str:
    out = draw(st.one_of(_idents, _expressions(), st.sampled_from(["lower(a)", "((a + 1))", "f.g(a)", "a.b"])))
    for part in draw(st.lists(st.sampled_from(["collate", "opclass", "ord", "nulls"]), max_size=4)):
        sep = draw(_sep)
        if part == "collate":
            out += sep + draw(st.sampled_from(["COLLATE", "collate", "Collate"])) + draw(_sep) + draw(_qnames)
        elif part == "opclass":
            out += sep + draw(_qnames)
        elif part == "ord":
            out += sep + draw(st.sampled_from(["ASC", "DESC", "asc", "Desc"]))
        else:
            out += sep + draw(st.sampled_from(["NULLS", "nulls"])) + draw(_sep) + \
                draw(st.sampled_from(["FIRST", "LAST", "first", "middle"]))
    return out


@st.composite
def _locals(draw) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        p = draw(st.sampled_from(["PARTITION ", "PARTITION ", "partition ", "PARTITION  ", "SUBPARTITION "])) + draw(_idents)
        if draw(st.booleans()):
            p += draw(st.sampled_from([" TABLESPACE ", " tablespace ", " TABLESPACE"])) + draw(_idents)
        parts.append(p)
    return draw(st.sampled_from([" LOCAL(", " LOCAL (", "LOCAL(", " LOCAL(\n"])) + \
        draw(st.sampled_from([", ", ",", " ,"])).join(parts) + draw(st.sampled_from([") ", ")", ")  ", ") x"]))


@st.composite
def _index_definitions(draw) -> str:
    keys = draw(st.lists(_keys(), min_size=1, max_size=3))
    text = "(" + draw(st.sampled_from([", ", ", ", ",", " , "])).join(keys) + ")"
    if draw(st.booleans()):
        text += draw(st.sampled_from([" INCLUDE (", " GLOBAL INCLUDE (", " include (", "INCLUDE ("])) + \
            ", ".join(draw(st.lists(_idents, min_size=1, max_size=3))) + ")"
    text += draw(st.one_of(st.sampled_from(["", "", "GLOBAL", " GLOBAL", " ", "global"]), _locals()))
    return text


@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(_index_definitions())
def test_grammar_definitions_read_as_before(text):
    _same(text)


@st.composite
def _layout_definitions(draw) -> str:
    """Definitions in the server's layout (single blanks, keywords in capitals), expression keys of every kind."""
    keys = []
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.one_of(_idents, _expressions()))
        if draw(st.booleans()):
            key += " COLLATE " + draw(_qnames)
        if draw(st.booleans()):
            key += " " + draw(_qnames)
        key += draw(st.sampled_from(["", " ASC", " DESC"])) + draw(st.sampled_from(["", " NULLS FIRST", " NULLS LAST"]))
        keys.append(key)
    text = "(" + ", ".join(keys) + ")"
    if draw(st.booleans()):
        text += draw(st.sampled_from([" INCLUDE (", " GLOBAL INCLUDE ("])) + \
            ", ".join(draw(st.lists(_idents, min_size=1, max_size=3))) + ")"
    if draw(st.booleans()):
        parts = [f"PARTITION {draw(_idents)}" + (f" TABLESPACE {draw(_idents)}" if draw(st.booleans()) else "")
                 for _ in range(draw(st.integers(0, 3)))]
        return text + " LOCAL(" + ", ".join(parts) + ") "
    return text + draw(st.sampled_from(["", "GLOBAL"]))


@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(_layout_definitions())
def test_layout_definitions_read_as_before(text):
    _same(text)


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(DEFINITIONS or ["(a)"]), st.integers(0, 140), st.integers(0, 4),
       st.sampled_from(["", " ", ",", ", ", "(", ")", '"', "'", "''", ".", "a", "ASC", " DESC", " NULLS FIRST", "é", "--",
                        "/*", "$", "$$", "\\", "\n", "GLOBAL", " INCLUDE (x)", " LOCAL(PARTITION p) ", "PARTITION ",
                        " TABLESPACE t", "lower(", "'('", "')'"]))
def test_mutated_definitions_read_as_before(text, at, cut, insert):
    at = min(at, len(text))
    _same(text[:at] + insert + text[at + cut:])
