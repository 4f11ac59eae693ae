"""Round 13 (issue 26), the tree check with fewer frames and steps per object (:mod:`ddlc.frontend.treecheck`,
:mod:`ddlc.frontend.treecheck_steps`): an object pasted by ``%s`` met for the first time, of a fmt whose function
is known, not too deep, is read by its plan's function from its parent's without
:meth:`~ddlc.frontend.treecheck._Both.descend`'s frame; a plain ``%D``/``%T`` object is judged (and written)
without ``plain_dotted``/``plain_type``/``types``/``_type_text``'s frames, and the slot check looks at a plain
type only when it has a typmod or an empty schema; the steps carry the general path's members in one tuple; the
walk starts in ``check_both``/``expand_both``.

Compared here with the interpreters and the walk as they were (kept below, from 3e710de) on every fixture tree read
as its shape, as no shape and as every shape, mutated trees, trees of made-up fmts (hostile member names and
values: quotes, backslashes, ``$$``, ``--``, ``/*``, line breaks, non-ASCII, empty), shared objects (the repeat
count), trees nested past the depth limit, and dict/str subclasses: the same error (code, message, path, fmt,
hint), the same text, the same slot-check error and unpastable paths."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError, Path
from ddlc.frontend import treecheck
from ddlc.frontend.slots import NODES, _TAKEN, _learn
from ddlc.frontend.sql.slotforms import quote_free
from ddlc.frontend.treecheck import (
    _TOPS, _Both, _BothText, _compiled, _fns_of, _function, _top, check_both, expand_both,
)
from ddlc.frontend.treecheck_steps import (
    _DOTTED, _IDENT, _LITERAL, _MISSING, _SIMPLE, _STRING_OK, _TYPE, _Entry, _code, _type_text, _unwritten,
)
from ddlc.frontend.treecheck_gen import MAX_ENTRIES
from ddlc.jddl.expand import MAX_DEPTH, REPEATS, plain_dotted, plain_type
from ddlc.quoting import quote_ident, quote_literal

from test_expand_check import TREES, mutated
from test_throughput_check import _STRINGS, _made_up, _mode, _shape


# ---- the interpreters and the walk as they were (3e710de) ---------------------------------------------------
def _old_interpreted(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """The function of a plan, reading its entries (as the compiled one does: :mod:`.treecheck_gen`); kept in
    ``fns`` (or None), it counts its meetings and puts the compiled function in its place at the COMPILE_AT-th."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = 0
    steps = tuple((_code(e), *e[:9], _fns_of(e[6], False, False), _fns_of(e[7], False, False)) for e in entries)

    def run(self: _Both, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        nonlocal met
        if counting:
            met += 1
            if met == treecheck.COMPILE_AT:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = _compiled(fmt, why, entries, False)  # type: ignore[index]
        check = check and depth <= 64 and self.error is None
        if check and why is not None:
            check = _unwritten(self, path, why)
        for code, name, sep, conv, slot, inquote, known, child, items, quick, cfns, ifns in steps:
            value = obj.get(name, _MISSING)
            if code == _SIMPLE:  # the common member: a string %s pastes as it is, or an object
                if type(value) is str:
                    if check and value:
                        got = known.get(value)
                        if got is None:
                            got = _learn(value, slot, known, quick)
                        if got is not _TAKEN and (got[0] is not None or got[1]):
                            check = self.judged(value, name, slot, got, path + (name,))
                    continue
                if type(value) is dict:
                    present = value.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', path + (name, "present"), fmt)
                    self.descend(value, child, cfns, path + (name,), depth, check)
                    check = check and self.error is None
                    continue
            elif code == _DOTTED:
                if type(value) is dict:
                    if not plain_dotted(value):
                        self.dotted(value, path + (name,), fmt)
                    continue
            elif code == _IDENT or code == _LITERAL:
                if type(value) is str:
                    continue
            elif code == _TYPE:
                if type(value) is dict:
                    if check:
                        check = self.types(value, path + (name,))
                    if not plain_type(value):
                        self.typename(value, path + (name,), fmt)
                    continue
            elif name is None:
                raise self.fail(sep, path + ("fmt",), fmt)
            # the general path
            if value is _MISSING:
                raise self.fail(f'element "{name}" not found', path + (name,), fmt)
            if check:
                if inquote and not quote_free(value) and path + (name,) not in self.unpastable:
                    self.unpastable.append(path + (name,))  # between the fmt's own quotes, unescaped
                if conv == "T":
                    check = self.types(value, path + (name,))
            if sep is None:
                if type(value) is str:
                    if conv in _STRING_OK:
                        if check and conv == "s" and value:
                            got = known.get(value)
                            if got is None:
                                got = _learn(value, slot, known, quick)
                            if got[0] is not None or got[1]:
                                check = self.judged(value, name, slot, got, path + (name,))
                        continue
                elif type(value) is dict or isinstance(value, dict):
                    if conv == "s":
                        present = value.get("present", True)
                        if present is False:
                            continue
                        if present is not True:
                            raise self.fail('element "present" is not of type boolean', path + (name, "present"),
                                            fmt)
                        self.descend(value, child, cfns, path + (name,), depth, check)
                        check = check and self.error is None
                        continue
                    if conv == "D":
                        if not plain_dotted(value):
                            self.dotted(value, path + (name,), fmt)
                        continue
                    if conv == "T":
                        if not plain_type(value):
                            self.typename(value, path + (name,), fmt)
                        continue
                self.convert(value, conv, name, path + (name,), fmt, depth, self.out)
                continue
            if not isinstance(value, list):
                raise self.fail(f'element "{name}" is not a JSON array', path + (name,), fmt)
            vpath = path + (name,)
            for idx, elem in enumerate(value):
                if type(elem) is str and conv in _STRING_OK:
                    if check and conv == "s" and elem:
                        got = known.get(elem)
                        if got is None:
                            got = _learn(elem, slot, known, quick)
                        if got[0] is not None or got[1]:
                            check = self.judged(elem, name, slot, got, vpath + (idx,))
                    continue
                if isinstance(elem, dict):
                    present = elem.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', vpath + (idx, "present"), fmt)
                    if conv == "s":
                        self.descend(elem, items, ifns, vpath + (idx,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, self.out)

    return run


def _old_interpreted_text(fmt: str, why: str | None, entries: tuple[_Entry, ...], fns: dict[str, Any] | None) -> Any:
    """:func:`_old_interpreted` writing the expansion (the entries of a text plan: the fmt's own text included, each
    run of it written with the specifier after it, ``lead``)."""
    counting = fns is not None and len(entries) <= MAX_ENTRIES
    met = 0
    steps: list[tuple[Any, ...]] = []
    lead = ""
    for e in entries:
        if e[2] == "":  # the fmt's own text
            lead += e[0]
            continue
        steps.append((_code(e), lead, *e[:9], _fns_of(e[6], False, True), _fns_of(e[7], False, True)))
        lead = ""
    tail = lead
    all_steps = tuple(steps)

    def run(self: _Both, obj: Mapping[str, Any], path: Path, depth: int, check: bool) -> None:
        nonlocal met
        if counting:
            met += 1
            if met == treecheck.COMPILE_AT:  # the compiled function in this one's place from the next meeting on
                fns[fmt] = _compiled(fmt, why, entries, True)  # type: ignore[index]
        check = check and depth <= 64 and self.error is None
        if check and why is not None:
            check = _unwritten(self, path, why)
        out = self.out
        for code, lead, name, sep, conv, slot, inquote, known, child, items, quick, cfns, ifns in all_steps:
            if lead:
                out.append(lead)  # (the text is dropped when the walk raises)
            value = obj.get(name, _MISSING)
            if code == _SIMPLE:  # the common member: a string %s pastes as it is, or an object
                if type(value) is str:
                    out.append(value)
                    if check and value:
                        got = known.get(value)
                        if got is None:
                            got = _learn(value, slot, known, quick)
                        if got is not _TAKEN and (got[0] is not None or got[1]):
                            check = self.judged(value, name, slot, got, path + (name,))
                    continue
                if type(value) is dict:
                    present = value.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', path + (name, "present"), fmt)
                    self.descend(value, child, cfns, path + (name,), depth, check)
                    check = check and self.error is None
                    continue
            elif code == _DOTTED:
                if type(value) is dict and plain_dotted(value):
                    out.append(quote_ident(value["schemaname"]) + "." + quote_ident(value["objname"]))
                    continue
            elif code == _IDENT:
                if type(value) is str:
                    out.append(quote_ident(value))
                    continue
            elif code == _LITERAL:
                if type(value) is str:
                    out.append(quote_literal(value))
                    continue
            elif code == _TYPE:
                if type(value) is dict:
                    if check:
                        check = self.types(value, path + (name,))
                    if plain_type(value):
                        out.append(_type_text(value))
                    else:
                        out.append(self.typename(value, path + (name,), fmt))
                    continue
            elif conv is None:
                raise self.fail(sep, path + ("fmt",), fmt)
            # the general path
            if value is _MISSING:
                raise self.fail(f'element "{name}" not found', path + (name,), fmt)
            if check:
                if inquote and not quote_free(value) and path + (name,) not in self.unpastable:
                    self.unpastable.append(path + (name,))  # between the fmt's own quotes, unescaped
                if conv == "T":
                    check = self.types(value, path + (name,))
            if sep is None:
                if conv == "s":
                    if type(value) is str:
                        out.append(value)
                        if check and value:
                            got = known.get(value)
                            if got is None:
                                got = _learn(value, slot, known, quick)
                            if got[0] is not None or got[1]:
                                check = self.judged(value, name, slot, got, path + (name,))
                        continue
                    if type(value) is dict or isinstance(value, dict):
                        present = value.get("present", True)
                        if present is False:
                            continue
                        if present is not True:
                            raise self.fail('element "present" is not of type boolean', path + (name, "present"),
                                            fmt)
                        self.descend(value, child, cfns, path + (name,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(value, conv, name, path + (name,), fmt, depth, out)
                continue
            if not isinstance(value, list):
                raise self.fail(f'element "{name}" is not a JSON array', path + (name,), fmt)
            vpath = path + (name,)
            first = True
            for idx, elem in enumerate(value):
                if isinstance(elem, dict):
                    present = elem.get("present", True)
                    if present is False:
                        continue
                    if present is not True:
                        raise self.fail('element "present" is not of type boolean', vpath + (idx, "present"), fmt)
                if not first:
                    out.append(sep)
                first = False
                if conv == "s":
                    if type(elem) is str:
                        out.append(elem)
                        if check and elem:
                            got = known.get(elem)
                            if got is None:
                                got = _learn(elem, slot, known, quick)
                            if got[0] is not None or got[1]:
                                check = self.judged(elem, name, slot, got, vpath + (idx,))
                        continue
                    if isinstance(elem, dict):
                        self.descend(elem, items, ifns, vpath + (idx,), depth, check)
                        check = check and self.error is None
                        continue
                self.convert(elem, conv, name, vpath + (idx,), fmt, depth, out)
        if tail:
            out.append(tail)

    return run


def _old_walk(found: _Both, tree: Mapping[str, Any], shape: str | None, text: bool) -> _Both:
    """The walk from the top object (as :meth:`_Both.descend`, at depth 0, without its frame)."""
    found.shape = shape
    found.error = None
    found.unpastable = []
    found.seen = {id(tree): 1}
    fns, block, checked = _TOPS[text].get(shape) or _top(shape, text)
    fmt = tree.get("fmt", _MISSING)
    if type(fmt) is not str:
        if fmt is _MISSING:
            raise found.fail('missing element "fmt" in JSON object', (), None)
        if not isinstance(fmt, str):
            raise found.fail('element "fmt" is not of type string', ("fmt",), None)
    fn = fns.get(fmt)
    if fn is None:
        fn = _function(fmt, shape, block, text, fns)
    fn(found, tree, (), 0, checked and tree.get("present", True) is not False)
    return found


_new = object.__new__


def _old_check_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> _Both:
    """:func:`ddlc.jddl.expand.check` of ``tree`` (its errors raised) and, in the same walk,
    :func:`ddlc.frontend.slots.check_tree` as the shape ``shape``: its error (``error``) and its unpastable paths
    (``unpastable``) are in the answer."""
    if type(tree) is not dict:
        from ddlc.jddl.expand import check

        check(tree, document=document)  # raises on what is not an object
    found = _new(_Both)  # (no __init__ frame: _walk sets the rest)
    found.document = document
    return _old_walk(found, tree, shape, False)


def _old_expand_both(tree: Mapping[str, Any], shape: str | None, document: str | None = None) -> tuple[str, _Both]:
    """:func:`ddlc.jddl.expand.expand` of ``tree`` (its text; its errors raised) and, in the same walk, the slot
    check as :func:`check_both` gives it."""
    if type(tree) is not dict:
        from ddlc.jddl.expand import expand

        expand(tree, document=document)  # raises on what is not an object
    found = _new(_BothText)
    found.document = document
    found.out = []
    _old_walk(found, tree, shape, True)
    return "".join(found.out), found




# ---- the comparison ---------------------------------------------------------------------------------------
@contextmanager
def _old() -> Iterator[None]:
    new = treecheck._interpreted, treecheck._interpreted_text
    treecheck._interpreted, treecheck._interpreted_text = _old_interpreted, _old_interpreted_text
    try:
        yield
    finally:
        treecheck._interpreted, treecheck._interpreted_text = new


def _error(e: DdlcError) -> Any:
    return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None), getattr(e, "hint", None))


def _found(tree: Any, shape: str | None, text: bool, old: bool) -> Any:
    try:
        if text:
            out, found = (_old_expand_both if old else expand_both)(tree, shape, "d")
        else:
            out, found = None, (_old_check_both if old else check_both)(tree, shape, "d")
    except DdlcError as e:
        return "raised", _error(e)
    except RecursionError:
        return "recursion"
    slots = _error(found.error) if found.error is not None else ("ok", tuple(found.unpastable))
    return out, slots, found.shape


def _same(tree: Any, shapes: Any) -> None:
    for shape in shapes:
        for text in (False, True):
            with _mode(0), _old():
                want = _found(tree, shape, text, True)
            for mode in (0, 2):  # (2: the compiled functions from the second meeting, under the new walk)
                with _mode(mode):
                    got = _found(tree, shape, text, False)
                    again = _found(tree, shape, text, False)
                assert want == got == again, (mode, shape, text, tree, want, got, again)


def test_fixture_trees_as_before() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        _same(tree, {_shape(tree), None})


def test_fixture_trees_as_any_shape_as_before() -> None:
    shapes = sorted(NODES)
    for tree in TREES[::3]:
        _same(tree, shapes)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_trees_as_before(data: Any) -> None:
    tree = mutated(data)
    _same(tree, {_shape(tree), None})


_HOSTILE = st.one_of(_STRINGS, st.sampled_from(["$$", "$$x$$", "--", "/*", "*/", "a\nb", "\\", "é", "''", '""',
                                                "x'y", 'x"y', "", " ", "(1)", "(0) without time zone"]))


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_trees_with_hostile_strings_as_before(data: Any) -> None:
    tree = mutated(data, _HOSTILE, keep_fmt=True, delete_odds=8)
    _same(tree, {_shape(tree), None})


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(_made_up(), st.sampled_from(sorted(NODES) + [None]))
def test_made_up_fmts_as_before(tree: dict[str, Any], shape: str | None) -> None:
    _same(tree, [shape])


_KEYS = st.sampled_from(["schemaname", "objname", "typename", "typarray", "typmod", "attrname", "attr_name",
                         "attribute_name", "schema_name", "object_name", "type_name", "x"])
_PARTS = st.one_of(_HOSTILE, st.booleans(), st.none(), st.integers(-1, 1), st.just([]), st.just({}))


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(_KEYS, _PARTS, max_size=6), st.sampled_from(["D", "T", "s", "I"]),
       st.sampled_from(["create_table", "element", "column", "drop", None]))
def test_dotted_and_type_objects_as_before(obj: dict[str, Any], conv: str, shape: str | None) -> None:
    """Every spelling of a ``%D``/``%T`` object: plain, missing members, other key dialects, attribute names,
    members of other types."""
    _same({"fmt": "CREATE TABLE %{identity}D (c %{t}" + conv + ")", "identity": {"schemaname": "s", "objname": "t"},
           "t": obj}, [shape])
    _same({"fmt": "DROP %{t}" + conv, "t": obj}, [shape])


def test_types_as_before() -> None:
    for schema in ("", "pg_catalog", "s x", 'q"'):
        for typmod in (None, "", "(3)", "(1,2)", "(x", 3):
            for arr in (False, True, None):
                for name in ("int4", "character varying", "x(", 'a"b', None):
                    t: dict[str, Any] = {"schemaname": schema, "typename": name, "typarray": arr}
                    if typmod is not None:
                        t["typmod"] = typmod
                    _same({"fmt": "CREATE TABLE t (c %{t}T)", "t": t}, [None, "create_table", "element"])
                    _same({"fmt": "%{name}I %{coltype}T %{default}s", "name": "c", "coltype": t, "default": ""},
                          ["column", "element"])


def _nested(levels: int, array: bool) -> dict[str, Any]:
    tree: dict[str, Any] = {"fmt": "x %{a}I", "a": "b"}
    for _ in range(levels):
        tree = {"fmt": "%{c:, }s" if array else "%{c}s", "c": [tree, "y"] if array else tree}
    return tree


def test_depth_as_before() -> None:
    """Trees nested to the depth limit and past it, by objects and by arrays' objects."""
    for levels in (1, 60, 64, 65, 66, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 5):
        for array in (False, True):
            _same(_nested(levels, array), [None, "create_table", "element"])


def test_shared_objects_as_before() -> None:
    """One object pasted many times (a tree made in Python, not read from JSON): the repeat count."""
    for times in (1, 2, REPEATS - 1, REPEATS, REPEATS + 1, REPEATS + 3):
        leaf = {"fmt": "DEFAULT %{default}s", "default": "1"}
        names = [f"m{i}" for i in range(times)]
        tree: dict[str, Any] = {"fmt": " ".join("%{" + n + "}s" for n in names), **{n: leaf for n in names}}
        _same(tree, [None, "column"])
        _same({"fmt": "%{xs:, }s", "xs": [leaf] * times}, [None, "create_table"])
        mid = {"fmt": "%{a}s %{b}s", "a": leaf, "b": leaf}
        _same({"fmt": "%{x}s %{y}s %{z}s %{w}s %{v}s", **{k: mid for k in "xyzwv"}}, [None, "column"])


class _Dict(dict):  # type: ignore[type-arg]
    pass


class _Str(str):
    pass


def test_subclasses_as_before() -> None:
    """Objects and strings of subclasses of dict and str (no JSON reader makes them; an API caller may)."""
    base = {"fmt": "CREATE TABLE %{identity}D %{elems:, }s %{d}s", "identity": {"schemaname": "s", "objname": "t"},
            "elems": [{"fmt": "%{name}I %{coltype}T", "name": "c",
                       "coltype": {"schemaname": "", "typename": "int4", "typarray": False}}],
            "d": {"fmt": "DEFAULT %{default}s", "default": "1"}}
    variants = [
        {**base, "elems": [_Dict(base["elems"][0])]},
        {**base, "d": _Dict(base["d"])},
        {**base, "d": {**base["d"], "fmt": _Str(base["d"]["fmt"])}},
        {**base, "elems": [{**base["elems"][0], "fmt": _Str(base["elems"][0]["fmt"])}]},
        {**base, "identity": _Dict(base["identity"])},
        {**base, "fmt": _Str(base["fmt"])},
        {**base, "d": {**base["d"], "default": _Str("1")}},
    ]
    for tree in variants:
        _same(tree, [None, "create_table", "column"])
