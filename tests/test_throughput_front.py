"""Issue 26, the front half's fixed costs: each algorithm replaced for speed answers exactly as the one it
replaced (kept beside it as the reference), over every fixture tree and over trees hypothesis mutates, errors
included (code, message, path, fmt and hint, in the same order).

* ``jddl.expand.check`` (the check walk, :class:`ddlc.jddl.expand._Checker`) against the expander itself run
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


def _trees() -> list[dict]:
    out = []
    for p in sorted(ROOT.glob("fixtures/cases/**/input.json")):
        try:
            v = orjson.loads(p.read_bytes())
        except orjson.JSONDecodeError:
            continue
        v = v.get("JDDL", v) if isinstance(v, dict) else v
        if isinstance(v, dict) and "fmt" in v:
            out.append(v)
    return out


TREES = _trees()


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return ("ok", fn(*args))
    except DdlcError as e:
        return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None), getattr(e, "hint", None), e.document)
    except RecursionError:
        return "recursion"


def _paths(v: Any, at: tuple = ()) -> Any:
    yield at
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, at + (i,))


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6), st.just(""), st.just([]), st.just({}), st.just({"fmt": "%{x}I"}), st.just({"fmt": "%{x}s"}),
    st.just({"present": False}), st.just({"present": "no"}), st.just(["a", {"fmt": "x"}]),
    st.just({"objname": "t"}), st.just({"schemaname": 1, "objname": "t"}), st.just({"object_name": 2}),
    st.just({"typename": "int", "typarray": False}), st.just({"typename": "int", "typarray": 1}),
    st.just({"fmt": "%{a:, }s", "a": ["x", {"present": False}, {"fmt": "y"}]}),
    st.just({"fmt": "%{x", "x": 1}), st.just({"fmt": "%{x}q"}), st.just({"fmt": 3}),
)


def mutated(data: Any, trees: list[dict] = TREES, most: int = 3) -> dict:
    """A fixture tree with 1-``most`` members deleted or replaced (hypothesis draws which and by what)."""
    tree = json.loads(json.dumps(data.draw(st.sampled_from(trees))))
    for _ in range(data.draw(st.integers(1, most))):
        paths = [p for p in _paths(tree) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent = tree
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = json.loads(json.dumps(data.draw(_VALUES)))  # (a fresh copy: st.just is shared)
    return tree


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
    tree = json.loads(json.dumps(data.draw(st.sampled_from(TREES))))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(tree) if p and p[-1] != "fmt"]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent = tree
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict) and data.draw(st.integers(0, 4)) == 0:
            del parent[path[-1]]
        else:
            parent[path[-1]] = json.loads(json.dumps(data.draw(_SLOT_VALUES)))
    return tree


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


@settings(max_examples=3000, deadline=None)
@given(_TEXTS)
def test_quoted_plain_fragments_read_without_the_lexer(text: str) -> None:
    got = F._quoted_plain_problem(text)
    if got is not F._UNSURE:
        assert got == fragment_problem(text) == fragment_problem(text, query=True)


def test_quick_forms_answer_as_the_lexer_on_fixture_strings() -> None:
    strings = {v for tree in TREES for p in _paths(tree) if p and isinstance(v := _at(tree, p), str)}
    quick = 0
    for v in strings:
        for form in ("name", "words"):
            assert F.identifier_verdict(v, form) == _old_identifier(v, form)
        got = F._quoted_plain_problem(v)
        if got is not F._UNSURE:
            quick += 1
            assert got == fragment_problem(v)
    assert quick > len(strings) // 2


_QUOTED_TEXTS = st.lists(st.sampled_from(list("ab_9 \n\"'(),.é") + ['""', "''", "'(x'", '"a)"', "e'", "X'"]),
                         max_size=16).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_QUOTED_TEXTS)
def test_quoted_plain_fragments_mostly_quick(text: str) -> None:
    got = F._quoted_plain_problem(text)
    assert got is F._UNSURE or got == fragment_problem(text)
    if got is F._UNSURE:  # only an unterminated quote or a non-ASCII character sends such a text to the lexer
        assert not text.isascii() or any(k == "error" for k, _, _ in scan(text))
    for form in ("name", "words"):
        assert F.identifier_verdict(text, form) == _old_identifier(text, form)


_QUERY_TEXTS = st.tuples(_QUOTED_TEXTS, st.sampled_from(["", ";", "; ", ";\n\t", ";;", "; ;", " ;\f", ";x"])).map("".join)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_QUERY_TEXTS, _TEXTS))
def test_queries_read_without_the_lexer(text: str) -> None:
    got = F._quoted_plain_problem(F._query_body(text))
    if got is not F._UNSURE:
        assert got == fragment_problem(text, query=True)
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
