"""Issue 26, the tree check's plans as compiled functions (:mod:`ddlc.frontend.treecheck_gen`): the compiled
function of a plan and the interpreter of its entries (``treecheck._interpreted``) give, on every fixture tree,
mutated trees and trees of made-up fmts (member names holding quotes, backslashes, line breaks...), what the two
separate checks give: :func:`ddlc.jddl.expand.check` / :func:`~ddlc.jddl.expand.expand` (the same error: code,
message, path, fmt; the same text) and :func:`ddlc.frontend.slots.check_tree` (the same first error and
unpastable paths)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend import treecheck
from ddlc.frontend.slots import NODES, check_tree
from ddlc.frontend.treecheck import check_both, expand_both
from ddlc.frontend.treecheck_gen import source
from ddlc.jddl.expand import check, expand

from test_expand_check import TREES, mutated

_MODES = (0, 1)  # COMPILE_AT: 0 the interpreter only, 1 every plan compiled when first met


@contextmanager
def _mode(compile_at: int) -> Iterator[None]:
    """Every plan's function forgotten, and made again under ``compile_at`` (then forgotten again)."""

    def forget() -> None:
        for fns in treecheck._FNS.values():
            fns.clear()
        treecheck._kept = 0

    saved = treecheck.COMPILE_AT
    forget()
    treecheck.COMPILE_AT = compile_at
    try:
        yield
    finally:
        treecheck.COMPILE_AT = saved
        forget()


def _error(e: DdlcError) -> Any:
    return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None))


def _reference(tree: Any, shape: str | None, text: bool) -> Any:
    """What the two checks give: the expansion's error, else (its text,) the slot check's error or paths."""
    try:
        out = expand(tree, document="d") if text else check(tree, document="d")
    except DdlcError as e:
        return "expansion", _error(e)
    except RecursionError:
        return "recursion"
    try:
        slots = ("ok", check_tree(tree, shape, "d")) if shape in NODES else ("ok", ())
    except DdlcError as e:
        slots = _error(e)
    return ("text", out, slots) if text else ("check", slots)


def _found(tree: Any, shape: str | None, text: bool) -> Any:
    try:
        if text:
            out, found = expand_both(tree, shape, "d")
        else:
            found = check_both(tree, shape, "d")
    except DdlcError as e:
        return "expansion", _error(e)
    except RecursionError:
        return "recursion"
    slots = _error(found.error) if found.error is not None else ("ok", tuple(found.unpastable))
    return ("text", out, slots) if text else ("check", slots)


def _same(tree: Any, shapes: Any) -> None:
    for shape in shapes:
        for text in (False, True):
            want = _reference(tree, shape, text)
            for mode in _MODES:
                with _mode(mode):
                    got = _found(tree, shape, text)
                    again = _found(tree, shape, text)  # (COMPILE_AT 2: the second time compiled)
                assert want == got == again, (mode, shape, text, tree, want, got)


def _shape(tree: Any) -> str | None:
    """The shape the build reads ``tree`` as (the builders loaded first: ``_fmt_shape`` remembers its answer)."""
    from ddlc.frontend.build import _fmt_shape, _lazy, load_families

    _lazy.load()
    load_families()
    return _fmt_shape(tree)


def test_fixture_trees_as_the_two_checks() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        _same(tree, {_shape(tree), None})


def test_fixture_trees_as_any_shape() -> None:
    shapes = sorted(NODES)
    for tree in TREES[::7]:
        _same(tree, shapes)


def test_compiled_at_the_second_meeting() -> None:
    tree = TREES[0]
    with _mode(2):
        fmt, shape = tree["fmt"], _shape(tree)
        fns = treecheck._fns_of(shape, False, False)
        check_both(tree, shape, "d")
        assert fns[fmt].__code__.co_filename != "<treecheck plan>"  # the interpreter
        check_both(tree, shape, "d")
        assert fns[fmt].__code__.co_filename == "<treecheck plan>"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_trees_as_the_two_checks(data: Any) -> None:
    tree = mutated(data)
    _same(tree, {_shape(tree), None})


_STRINGS = st.one_of(st.sampled_from(["", "x", "a b", "'q'", "--c", "IF EXISTS", "1", "(", "\\", "CASCADE",
                                      "int4(3)", "\"A\"", "DROP", "a.b", "it's"]), st.text(max_size=8))


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_trees_with_strings_replaced_as_the_two_checks(data: Any) -> None:
    tree = mutated(data, _STRINGS, keep_fmt=True, delete_odds=8)
    _same(tree, {_shape(tree), None})


# ---- made-up fmts: any member name, every conversion, arrays, nested objects -------------------------------
_NAMES = st.one_of(st.sampled_from(["name", "identity", "objidentity", "definition", "columns", "x", "it's",
                                    'q"uote', "back\\slash", "line\nbreak", "{", "", "%", "é", "\x00",
                                    "'''", '"""', "\\'"]),
                   st.text(alphabet=st.characters(blacklist_characters="}:%"), max_size=6))
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False),
              _STRINGS, st.fixed_dictionaries({"schemaname": _STRINGS, "objname": _STRINGS}),
              st.fixed_dictionaries({"schemaname": _STRINGS, "typename": _STRINGS, "typarray": st.booleans()},
                                    optional={"typmod": _STRINGS})),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(["fmt", "present", "x", "name"]), inner, max_size=3)),
    max_leaves=6)


_FITS = {"s": _STRINGS, "I": _STRINGS, "L": _STRINGS, "n": st.integers(-3, 3),
         "D": st.fixed_dictionaries({"schemaname": _STRINGS, "objname": _STRINGS}),
         "T": st.fixed_dictionaries({"schemaname": st.sampled_from(["", "pg_catalog", "s"]),
                                     "typename": st.sampled_from(["int4", "varchar", "character varying", "x"]),
                                     "typarray": st.booleans()},
                                    optional={"typmod": st.sampled_from(["", "(3)", "(1,2)", "(x"])})}


@st.composite
def _made_up(draw: Any, depth: int = 0) -> dict[str, Any]:
    parts: list[str] = [draw(st.sampled_from(["CREATE TABLE ", "DROP ", "", "(", " ", "'", "-- "]))]
    parts[0] = parts[0] if draw(st.integers(0, 2)) else "CREATE TABLE "
    tree: dict[str, Any] = {}
    for _ in range(draw(st.integers(0, 4))):
        name = draw(_NAMES)
        conv = draw(st.sampled_from("sssIDTLn"))
        sep = draw(st.sampled_from(["", "", ", ", " ", ":"]))
        parts.append("%{" + name + (":" + sep if sep else "") + "}" + conv + draw(st.sampled_from([" ", "", "'"])))
        if draw(st.integers(0, 5)) == 0:
            continue  # missing
        if conv == "s" and depth < 2 and draw(st.booleans()):
            value: Any = draw(_made_up(depth + 1))
            if sep:
                value = [value, draw(_VALUES)]
        else:
            fits = _FITS[conv] if draw(st.integers(0, 3)) else _VALUES  # mostly a value of the conversion
            value = draw(fits)
            if sep:
                value = [value, draw(fits)] if draw(st.booleans()) else [value]
        tree[name] = value
    if draw(st.integers(0, 9)) == 0:
        parts.append(draw(st.sampled_from(["%", "%{x", "%{x}", "%{x}q", "%%"])))
    tree["fmt"] = "".join(parts)
    if draw(st.integers(0, 9)) == 0:
        tree["present"] = draw(st.sampled_from([False, True, "no"]))
    return json.loads(json.dumps(tree))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(_made_up(), st.sampled_from(sorted(NODES) + [None]))
def test_made_up_fmts_as_the_two_checks(tree: dict[str, Any], shape: str | None) -> None:
    _same(tree, [shape])


def test_source_holds_no_name() -> None:
    """A plan's source names nothing of its fmt (names, messages, text are closure cells): two fmts whose
    members are of the same kinds have the same text (compiled once)."""
    one, two = "DROP %{a'b}s %{\"c\\\nd}I %{e:, }s %{f}T", "ALTER %{x}s %{y}I %{z:; }s %{w}T"
    for text in (False, True):
        codes = []
        for fmt in (one, two):
            why, entries = treecheck._plan(fmt, "drop", False, text)
            code, _ = source(fmt, why, entries, text, treecheck._fns_of)
            compile(code, "<treecheck plan>", "exec")
            for word in ("a'b", "c\\", "DROP", "ALTER", "not found", "drop"):
                assert word not in code, (word, code)
            codes.append(code)
        assert codes[0] == codes[1]
