"""Issue 23.8: GaussDB text (TDDL) reaches Spark (and PostgreSQL) as the tree does.

The property: for a JDDL tree, tree → GaussDB text → ddlc → Spark equals tree → ddlc → Spark (the statements,
the ``-- ddlc`` comments of ``on_unsupported="comment"`` compared by their tokens, and the error, if any) for
every text the text reader recognises; a text it does not read (kept as GaussDB text and reported,
DDLC-N404/N405) is one whose tree reaches the target no better. The same for PostgreSQL.

* exhaustively over the fixtures, each input read as the stream it is (the histories' earlier statements are
  the catalog of the later ones, in both forms): ``fixtures/cases`` (every family but the expander's),
  ``fixtures/histories/*.jddl.jsonl``, ``fixtures/sample/ddl.jsonl`` and the inputs of ``fixtures/oracle``;
* with hypothesis, over fixture trees changed the ways the deparser's output varies: names (``%I``/``%D``:
  keywords, mixed case, quotes, blanks), literals (``%L``), the keyword members' other words (IF [NOT]
  EXISTS, ONLY, CASCADE, UNIQUE, CONCURRENTLY, OR REPLACE...), column types, defaults present or not, and an
  ADD COLUMN's FIRST / AFTER placement.

``tests/test_tddl_equivalence.py`` compares the IR and the outputs of each golden case's trees; this test
holds the Spark output to the property on every fixture stream and on the variants.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.frontend.build import shape_of
from ddlc.frontend.documents import read_documents
from ddlc.frontend.slots import raw_slots
from ddlc.frontend.sql.lexer import ScanError, tokenize
from ddlc.jddl.expand import parse_fmt

from conftest import FIXTURES

NOT_READ = ("DDLC-N404", "DDLC-N405")  # the text reader did not recognise the text: kept as GaussDB text


# ---- the fixture streams ------------------------------------------------------------------------------
def fixture_streams() -> list[tuple[str, bytes]]:
    out = []
    for inp in sorted((FIXTURES / "cases").rglob("input.json")):
        if inp.parent.relative_to(FIXTURES / "cases").parts[0] != "expander":
            out.append((str(inp.parent.relative_to(FIXTURES)), inp.read_bytes()))
    for p in sorted((FIXTURES / "histories").glob("*.jddl.jsonl")):
        out.append((str(p.relative_to(FIXTURES)), p.read_bytes()))
    out.append(("sample/ddl.jsonl", (FIXTURES / "sample" / "ddl.jsonl").read_bytes()))
    for p in sorted((FIXTURES / "oracle").glob("*.json")):
        out.append((str(p.relative_to(FIXTURES)), json.dumps(json.loads(p.read_bytes())["input"]).encode()))
    return out


STREAMS = fixture_streams()


def _line(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False)


def text_of(tree: dict[str, Any]) -> str | None:
    """The GaussDB text printed for ``tree`` as a TDDL record, or None when it prints no single statement."""
    (g,) = ddlc.translate_many(_line(tree).encode(), target="gaussdb")
    return g.statements[0] + ";" if g.error is None and len(g.statements) == 1 else None


def _comment(c: str) -> tuple[str, ...]:
    """A ``-- ddlc`` comment as a text says it: the tokens of what it shows (the GaussDB text of a tree keeps
    blanks and line breaks the canonical text of a TDDL record has not; a TDDL record ends with its ``;``)."""
    c = " ".join(c.replace("\n-- ", "\n").split())
    head, sep, shown = c.partition(": not translated: ")
    try:
        toks = [t.text for t in tokenize(shown)]
    except ScanError:
        toks = shown.split()
    return (head + sep, *(toks[:-1] if toks[-1:] == [";"] else toks))


def outputs(lines: list[str], target: str = "spark") -> list[tuple[tuple[str, ...], str | None,
                                                                   tuple[tuple[str, ...], ...], frozenset[str]]]:
    """Per document: the target's statements, the error code, the ``-- ddlc`` comments (what was not
    translated, :func:`_comment`) and the codes of the notes saying the text was not read."""
    return [(t.statements, t.error.code if t.error else None, tuple(_comment(c) for c in t.comments),
             frozenset(d.code for d in t.diagnostics if d.code in NOT_READ))
            for t in ddlc.translate_many("\n".join(lines).encode(), target=target, on_unsupported="comment")]


def _owned_by_none(tree: Any) -> bool:
    """An ALTER SEQUENCE's ``OWNED BY NONE``: an element with ``"present": false``, which prints nothing, so the
    text cannot tell it (tddl_pairs.NOT_EQUAL); PostgreSQL writes it from the tree, Spark has no sequences."""
    return isinstance(tree, dict) and any(isinstance(e, dict) and e.get("clause") == "owned" and e.get("present") is False
                                          for e in tree.get("definition") or ())


def pairs(data: bytes, source: str, target: str = "spark") -> Iterator[tuple[int, str, Any, Any]]:
    """For each tree of the stream with a single-statement text: (index, text, tree's output, text's output),
    both streams translated whole (a document whose text is not compared is the same document in both)."""
    trees, texts, compared = [], [], []
    for d in read_documents(data, source=source):
        if d.tree is None and d.tddl is None:
            continue
        own = _line(d.tree) if d.tree is not None else _line({"TDDL": d.tddl})
        text = text_of(d.tree) if d.tree is not None else None
        trees.append(own)
        texts.append(own if text is None else _line({"TDDL": text}))
        if text is not None and not _owned_by_none(d.tree):
            compared.append((len(trees) - 1, text))
    a, b = outputs(trees, target), outputs(texts, target)
    for i, text in compared:
        yield i, text, a[i], b[i]


@pytest.mark.parametrize("target", ["spark", "postgres"])
@pytest.mark.parametrize(("name", "data"), STREAMS, ids=[n for n, _ in STREAMS])
def test_every_fixture_text_reaches_the_target_as_its_tree(name, data, target):
    bad = []
    for i, text, tree_out, text_out in pairs(data, name, target):
        if text_out[3] - tree_out[3]:  # not read: then the tree reaches Spark no better (nothing is lost)
            if tree_out[0] or tree_out[1] != text_out[1]:
                bad.append(f"document {i}: the text is not read ({sorted(text_out[3])}) but the tree is "
                           f"translated: {text[:200]}\n  tree: {tree_out[:3]}")
        elif tree_out[:3] != text_out[:3]:
            bad.append(f"document {i}: {text[:200]}\n  tree: {tree_out[:3]}\n  text: {text_out[:3]}")
    assert not bad, "\n".join(bad)


def test_the_fixtures_hold_enough_statements():
    assert sum(1 for name, data in STREAMS for _ in pairs(data, name)) >= 250


# ---- variants of the fixture trees ------------------------------------------------------------------------
def _trees() -> list[dict[str, Any]]:
    out = []
    for name, data in STREAMS:
        for d in read_documents(data, source=name):
            if d.tree is not None and text_of(d.tree) is not None:
                out.append(d.tree)
    return out


TREES = _trees()

NAMES = st.one_of(
    st.sampled_from(["Mixed Case", 'q"uote', "select", "user", "é", "a b", "order", "1abc", "x$y", "table",
                     "column", "limit", "end", "default", "if", "exists", "first", "after", "only", "cascade"]),
    st.from_regex(r"[a-z_][a-z0-9_$]{0,12}", fullmatch=True),
)
LITERALS = st.sampled_from(["it's", "a,b", "x) y", "", "$$", "line\nbreak", "back\\slash", "%s", "-- no", "/* c */"])
TYPES = [("int2", ""), ("int8", ""), ("text", ""), ("varchar", "(10)"), ("numeric", "(10,2)"), ("bpchar", "(3)"),
         ("timestamp", "(6)"), ("bool", ""), ("float8", ""), ("date", ""), ("bytea", ""), ("int4", "")]
DEFAULTS = ["0", "'x'::text", "now()", "1.5", "NULL", "(1 + 2)", "'a,b'::character varying", "true",
            "CURRENT_TIMESTAMP", "nextval('public.s'::regclass)", "'it''s'::text"]
# keyword members whose words vary in what the deparser prints for one kind of statement (an object type or a
# persistence changes the kind: a DROP of another kind, a temporary sequence, are other statements)
_VARYING = {"if_exists", "if_not_exists", "only", "cascade", "concurrently", "unique", "or_replace", "set_reset",
            "option", "deferrable", "init_deferred", "gpi"}


def _holes(v: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """(path, what) of every name (%I, a part of %D), literal (%L), type (%T), default and ADD COLUMN."""
    if isinstance(v, dict):
        fmt = v.get("fmt")
        if isinstance(fmt, str):
            for t in parse_fmt(fmt):
                if not isinstance(t, tuple) or t[0] not in v:
                    continue
                key, _sep, conv = t
                x = v[key]
                if conv == "I" and isinstance(x, str):
                    yield path + (key,), "name"
                elif conv == "D" and isinstance(x, dict):
                    for k in ("objname", "schemaname", "object_name", "schema_name"):
                        if isinstance(x.get(k), str) and x[k]:
                            yield path + (key, k), "name"
                elif conv == "L" and isinstance(x, str):
                    yield path + (key,), "literal"
                elif conv == "T" and isinstance(x, dict) and isinstance(x.get("typename", x.get("type_name")), str):
                    yield path + (key,), "type"
            if fmt == "DEFAULT %{default}s":
                yield path, "default"
            if v.get("type") == "add column" and v.get("objtype") == "COLUMN":
                yield path, "placement"
        for k, x in v.items():
            if isinstance(x, dict | list):
                yield from _holes(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _holes(x, path + (i,))


def _at(tree: Any, path: tuple) -> Any:
    for p in path:
        tree = tree[p]
    return tree


def _set(tree: Any, path: tuple, value: Any) -> None:
    _at(tree, path[:-1])[path[-1]] = value


def _keywords(tree: dict[str, Any]) -> list[tuple[tuple, list[str]]]:
    shape = shape_of(tree)
    if shape is None:
        return []
    out = []
    for path, slot, _value in raw_slots(tree, shape):
        if slot is not None and len(slot.words) > 1 and not slot.forms and path[-1] in _VARYING:
            out.append((path, sorted(slot.words)))
        elif path == ("persistence",) and shape == "create_table":
            out.append((path, ["", "UNLOGGED"]))
    return out


@st.composite
def variants(draw) -> dict[str, Any]:
    tree = copy.deepcopy(draw(st.sampled_from(TREES)))
    holes = list(_holes(tree)) + [(p, ("keyword", w)) for p, w in _keywords(tree)]
    if not holes:
        return tree
    for path, what in draw(st.lists(st.sampled_from(holes), min_size=1, max_size=3, unique_by=lambda h: h[0])):
        if what == "name":
            _set(tree, path, draw(NAMES))
        elif what == "literal":
            _set(tree, path, draw(LITERALS))
        elif isinstance(what, tuple):
            _set(tree, path, draw(st.sampled_from(what[1])))
        elif what == "type":
            t = _at(tree, path)
            name, typmod = draw(st.sampled_from(TYPES))
            t["typename" if "typename" in t else "type_name"], t["typmod"] = name, typmod
            t["schemaname" if "schemaname" in t or "schema_name" not in t else "schema_name"] = "pg_catalog"
        elif what == "default":
            d = _at(tree, path)
            if draw(st.booleans()):
                d.pop("present", None)
                d["default"] = draw(st.sampled_from(DEFAULTS))
            else:
                d.pop("default", None)
                d["present"] = False
        else:  # placement of an ADD COLUMN: none, FIRST or AFTER a name
            sub = _at(tree, path)
            fmt = sub["fmt"].replace(" %{add_first}s", "").replace(" %{add_after_name}s", "")
            sub.pop("add_first", None)
            sub.pop("add_after_name", None)
            place = draw(st.sampled_from([None, "FIRST", "AFTER"]))
            if place == "FIRST":
                fmt += " %{add_first}s"
                sub["add_first"] = {"fmt": "FIRST"}
            elif place == "AFTER":
                fmt += " %{add_after_name}s"
                sub["add_after_name"] = {"fmt": "AFTER %{name}I", "name": draw(NAMES)}
            sub["fmt"] = fmt
    return tree


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(variants(), st.sampled_from(["spark", "spark", "postgres"]))
def test_a_variant_text_reaches_the_target_as_its_tree(tree, target):
    text = text_of(tree)
    if text is None or _owned_by_none(tree):  # not a statement GaussDB prints (an input error), or one its text
        return  # cannot tell: nothing to compare
    (tree_out,), (text_out,) = outputs([_line(tree)], target), outputs([_line({"TDDL": text})], target)
    if text_out[3] - tree_out[3]:  # not read: kept as GaussDB text and reported; the tree reaches it no better
        assert not tree_out[0] and tree_out[1] == text_out[1], text
        return
    assert tree_out[:3] == text_out[:3], text


def test_variants_are_read():
    """Most variants' texts are recognised (the property above is not vacuous)."""
    read = total = 0

    @settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
              database=None)
    @given(variants())
    def count(tree):
        nonlocal read, total
        text = text_of(tree)
        if text is not None:
            total += 1
            read += not outputs([_line({"TDDL": text})])[0][3]

    count()
    assert total >= 100 and read >= 0.9 * total, (read, total)
