"""Properties (hypothesis): quoting round-trips and no crash on any tree."""

from __future__ import annotations

import copy
import json

import pglast
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.jddl.expand import expand
from ddlc.quoting import ident_is_bare, opengauss_keywords
from conftest import CASES

KEYWORDS = sorted(opengauss_keywords())
names = st.one_of(st.text(max_size=20), st.sampled_from(KEYWORDS), st.from_regex(r"[a-z_][a-z0-9_$]{0,10}", fullmatch=True))


def _unquote(text: str) -> str:
    assert text.startswith('"') and text.endswith('"') and len(text) >= 2
    inner = text[1:-1]
    assert '"' not in inner.replace('""', "")
    return inner.replace('""', '"')


@given(names)
def test_identifier_is_safe_or_round_trips(name):
    out = expand({"fmt": "%{n}I", "n": name})
    if out == name:
        assert ident_is_bare(name)
        assert opengauss_keywords().get(name, "UNRESERVED_KEYWORD") == "UNRESERVED_KEYWORD"
        assert all(c in "abcdefghijklmnopqrstuvwxyz0123456789_" for c in name) and name[:1] not in "0123456789"
    else:
        assert _unquote(out) == name


@given(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40))
def test_literal_parses_back_to_the_same_string(value):
    out = expand({"fmt": "%{v}L", "v": value})
    stmt = pglast.parse_sql(f"SELECT {out}")[0].stmt
    const = stmt.targetList[0].val
    assert const.val.sval == value


# ---- no crash on any tree -------------------------------------------------------------
_spec = st.tuples(st.sampled_from(["a", "b", "c", "fmt", "present"]), st.sampled_from(["", ":, ", ": OR ", ":"]),
                  st.sampled_from(list("IDTLsnx{}%")))
_fmt = st.lists(st.one_of(st.text(max_size=5), _spec.map(lambda t: "%{" + t[0] + t[1] + "}" + t[2]),
                          st.sampled_from(["%", "%%", "%{", "%{a", "%{a}"])), max_size=6).map("".join)
_scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8))


def _trees(children):
    return st.fixed_dictionaries(
        {"fmt": _fmt},
        optional={k: children for k in ("a", "b", "c", "objname", "schemaname", "typename", "typarray", "typmod",
                                        "present", "object_name", "schema_name", "attrname")},
    )


trees = st.recursive(_scalar, lambda ch: st.one_of(st.lists(ch, max_size=3), _trees(ch)), max_leaves=25)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_random_trees_raise_only_ddlc_errors(tree):
    for mode in ("raw", "canonical"):
        try:
            ddlc.translate(tree, mode=mode, target="gaussdb")
        except ddlc.DdlcError as exc:
            assert exc.message and exc.code.startswith("DDLC-E") and exc.code != "DDLC-E900"


def _real_trees():
    out = []
    for case in CASES.rglob("input.json"):
        doc = json.loads(case.read_text("utf-8"))
        out.append(doc.get("JDDL", doc) if isinstance(doc, dict) else doc)
    return out or [{"fmt": "DROP %{o}s", "o": "x"}]


REAL = _real_trees()


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_real_trees_raise_only_ddlc_errors(data):
    tree = copy.deepcopy(data.draw(st.sampled_from(REAL)))
    paths = [p for p in _paths(tree) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent = tree
        try:
            for p in path[:-1]:
                parent = parent[p]
            action = data.draw(st.sampled_from(["delete", "replace"]))
            if action == "delete" and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = data.draw(_scalar | st.just([]) | st.just({}) | st.just({"fmt": "%{zz}s"}))
        except (KeyError, IndexError, TypeError):
            continue
    try:
        ddlc.translate(tree, target="gaussdb")
    except ddlc.DdlcError as exc:
        assert exc.code != "DDLC-E900", exc


def test_ten_thousand_deep_tree_is_an_error_not_a_crash():
    tree: dict = {"fmt": "x"}
    for _ in range(10_000):
        tree = {"fmt": "(%{a}s)", "a": tree}
    try:
        ddlc.translate(tree, target="gaussdb")
    except ddlc.DdlcError as exc:
        assert exc.code == "DDLC-E004"
    else:
        raise AssertionError("expected an error")
    text = "".join('{"fmt": "(%{a}s)", "a": ' for _ in range(10_000)) + '{"fmt": "x"}' + "}" * 10_000
    results = list(ddlc.translate_many(text, target="gaussdb"))
    assert len(results) == 1 and results[0].error is not None
    assert results[0].error.code in ("DDLC-E001", "DDLC-E004")
