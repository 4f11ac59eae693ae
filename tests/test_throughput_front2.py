"""Issue 26, a document walked once: ``build(tree, expansion=True)`` (the expansion check and the slot check in
one walk, :mod:`ddlc.frontend.treecheck`) gives what :func:`ddlc.jddl.expand.check` then ``build`` gave, and
``build_source(tree)`` what :func:`ddlc.jddl.expand.expand` then ``build`` gave, on every fixture tree and on
mutated ones: the same error (code, message, path, fmt) or the same text, statement, diagnostics and unpastable
paths."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend.build import build, build_source
from ddlc.frontend.slots import NODES, check_tree
from ddlc.frontend.treecheck import check_both, expand_both
from ddlc.jddl.expand import check, expand

from test_expand_check import TREES, mutated


def _outcome(fn: Any) -> Any:
    try:
        return "ok", fn()
    except DdlcError as e:
        return (e.code, str(e), tuple(e.path), getattr(e, "fmt", None))
    except RecursionError:
        return "recursion"


def _old(tree: Any) -> Any:
    def run() -> Any:
        check(tree, document="d")
        return build(tree, document="d")

    return _outcome(run)


def _new(tree: Any) -> Any:
    return _outcome(lambda: build(tree, document="d", expansion=True))


def _raiser(e: Exception) -> Any:
    def run() -> Any:
        raise e

    return run


def _old_text(tree: Any) -> Any:
    def run() -> Any:
        text = expand(tree, document="d")
        return (text, *build(tree, document="d"))

    return _outcome(run)


def _same(tree: Any) -> None:
    old, new = _old(tree), _new(tree)
    assert old == new, (tree, old, new)
    old, new = _old_text(tree), _outcome(lambda: build_source(tree, document="d"))
    assert old == new, (tree, old, new)


def test_fixture_trees_build_as_before() -> None:
    assert len(TREES) > 100
    for tree in TREES:
        _same(tree)


def test_fixture_trees_checked_as_any_shape() -> None:
    """The slot half on its own: as check_tree for every shape of the table (the expansion passing)."""
    for tree in TREES:
        for shape in NODES:
            try:
                check(tree, document="d")
            except DdlcError:
                continue
            old = _outcome(lambda: check_tree(tree, shape, "d"))
            for found in (check_both(tree, shape, "d"), expand_both(tree, shape, "d")[1]):
                new = _outcome(_raiser(found.error)) if found.error else ("ok", tuple(found.unpastable))
                assert old == new, (shape, tree, old, new)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_mutated_trees_build_as_before(data: Any) -> None:
    _same(mutated(data))


_STRINGS = st.one_of(st.sampled_from(["", "x", "a b", "'q'", "--c", "IF EXISTS", "1", "(", "\\", "CASCADE",
                                      "int4(3)", "\"A\"", "DROP", "a.b"]), st.text(max_size=8))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_trees_with_strings_replaced_build_as_before(data: Any) -> None:
    _same(mutated(data, _STRINGS, keep_fmt=True, delete_odds=8))


class _Sub(dict):
    """A mapping a library caller may pass (not what a JSON parser gives)."""


def _subclassed(v: Any) -> Any:
    if isinstance(v, dict):
        return _Sub({k: _subclassed(x) for k, x in v.items()})
    if isinstance(v, list):
        return [_subclassed(x) for x in v]
    return v


def test_fixture_trees_of_dict_subclasses_build_as_before() -> None:
    for tree in TREES:
        sub = _subclassed(tree)
        _same(sub)
        inner = dict(sub)  # the top level a plain dict, as documents.classify makes it
        _same(inner)


def test_deep_and_shared_objects() -> None:
    inner: dict[str, Any] = {"fmt": "%{x}s", "x": "a"}
    for depth in (10, 63, 64, 65, 66, 200, 257, 300):
        tree: dict[str, Any] = {"fmt": "DROP TABLE %{objidentity}s", "objidentity": "a"}
        node = tree
        for _ in range(depth):
            node["objidentity"] = node = {"fmt": "%{objidentity}s", "objidentity": "b --c"}
        _same(tree)
    shared = {"fmt": "DROP TABLE %{a}s %{a}s %{a}s %{a}s %{a}s", "a": inner}
    _same(shared)
    _same({"fmt": "DROP TABLE %{l:, }s", "l": [inner] * 9})


# ---- the builders' readers: Obj.raw / opt_obj and read_type as they were (b eb299a5) -------------------------
from ddlc.frontend.build._read import BuildContext, Obj, read_qname, read_type  # noqa: E402
from ddlc.frontend.sql.typmod import check_spelling, check_typmod  # noqa: E402
from ddlc.ir.names import QualifiedName, TypeName  # noqa: E402
from ddlc.jddl.keys import ALIASES  # noqa: E402

_M: Any = object()


def _key_before(o: Obj, name: str) -> str | None:
    aliases = ALIASES.get(name)
    if aliases is None:
        return name if name in o.d else None
    return next((k for k in aliases if k in o.d), None)


def _raw_before(o: Obj, name: str, default: Any = _M) -> Any:
    v = o.d.get(name, _M)
    if v is not _M:
        return v
    k = _key_before(o, name)
    if k is None:
        if default is _M:
            raise o.ctx.error(f'element "{name}" not found', o.path + (name,))
        return default
    return o.d[k]


def _opt_obj_before(o: Obj, name: str) -> Obj | None:
    v = _raw_before(o, name, None)
    if v is None or v == "":
        return None
    if not isinstance(v, dict):
        raise o.ctx.error(f'element "{name}" must be an object', o.at(name))
    if v.get("present", True) is False:
        return None
    return Obj(v, o.at(name), o.ctx)


def _read_type_before(o: Obj) -> Any:
    schema = _raw_before(o, "schemaname", None)
    if schema is not None and not isinstance(schema, str):
        raise o.ctx.error('element "schemaname" is not of type string', o.at("schemaname"))
    arr = _raw_before(o, "typarray", False)
    if not isinstance(arr, bool):
        raise o.ctx.error('element "typarray" is not of type boolean', o.at("typarray"))
    typmod = _raw_before(o, "typmod", "")
    if not isinstance(typmod, str):
        raise o.ctx.error('element "typmod" is not of type string', o.at("typmod"))
    name = o.str("typename")
    if typmod:
        check_typmod(typmod, o.at("typmod"), o.ctx.document, name, schema)
    if schema == "":
        check_spelling(name, o.at("typename"), o.ctx.document)
    return TypeName(name, schema, typmod, arr, origin=o.path)


def _opt_str_before(o: Obj, name: str) -> Any:
    v = _raw_before(o, name, None)
    if v is None or v == "" or (isinstance(v, dict) and v.get("present", True) is False):
        return None
    if not isinstance(v, str):
        raise o.ctx.error(f'element "{name}" must be a string', o.at(name))
    return v


def _flag_before(o: Obj, name: str, word: str | None = None) -> Any:
    v = _raw_before(o, name, "")
    if isinstance(v, dict):
        return v.get("present", True) is not False
    if not isinstance(v, str):
        raise o.ctx.error(f'element "{name}" must be a string', o.at(name))
    return bool(v.strip()) if word is None else v.strip().upper() == word


def _obj_before(o: Obj, name: str) -> Any:
    v = _raw_before(o, name)
    if not isinstance(v, dict):
        raise o.ctx.error(f'element "{name}" must be an object', o.at(name))
    return Obj(v, o.at(name), o.ctx)


def _read_qname_before(o: Obj) -> Any:
    schema = _raw_before(o, "schemaname", None)
    attr = _raw_before(o, "attrname", None)
    for key, v in (("schemaname", schema), ("attrname", attr)):
        if v is not None and not isinstance(v, str):
            raise o.ctx.error(f'element "{key}" is not of type string', o.at(key))
    return QualifiedName(o.str("objname"), schema, attr, origin=o.path)


_KEYS = ["schemaname", "schema_name", "typename", "type_name", "typarray", "typmod", "present", "objname",
         "object_name", "collation", "default", "attrname", "attr_name", "attribute_name", "x"]
_MEMBER = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["", "int4", "pg_catalog", "(3)",
                                                                                   "(1,2)", "character varying", " if exists ",
                                                                                   "IF EXISTS"]),
                    st.just({}), st.just({"present": False}), st.just({"present": True, "fmt": "x"}), st.just([]))


def _obj_outcome(fn: Any, o: Obj, *a: Any) -> Any:
    try:
        got = fn(o, *a)
    except DdlcError as e:
        return ("error", e.code, str(e), tuple(e.path))
    return ("obj", got.d, got.path) if isinstance(got, Obj) else got


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(st.sampled_from(_KEYS), _MEMBER, max_size=6), st.sampled_from(_KEYS))
def test_readers_read_as_before(d: dict, name: str) -> None:
    o = Obj(d, ("t", 0), BuildContext("d"))
    assert _obj_outcome(Obj.raw, o, name, None) == _obj_outcome(_raw_before, o, name, None)
    assert _obj_outcome(Obj.raw, o, name) == _obj_outcome(_raw_before, o, name)
    assert _obj_outcome(Obj.opt_obj, o, name) == _obj_outcome(_opt_obj_before, o, name)
    assert _obj_outcome(read_type, o) == _obj_outcome(_read_type_before, o)
    assert _obj_outcome(read_qname, o) == _obj_outcome(_read_qname_before, o)
    assert _obj_outcome(Obj.opt_str, o, name) == _obj_outcome(_opt_str_before, o, name)
    assert _obj_outcome(Obj.obj, o, name) == _obj_outcome(_obj_before, o, name)
    for word in (None, "IF EXISTS"):
        assert _obj_outcome(Obj.flag, o, name, word) == _obj_outcome(_flag_before, o, name, word)


def test_fixture_objects_read_as_before() -> None:
    def types(v: Any, at: tuple = ()) -> Any:
        if isinstance(v, dict):
            yield v, at
            for k, x in v.items():
                yield from types(x, at + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                yield from types(x, at + (i,))

    n = 0
    for tree in TREES:
        for t, at in types(tree):
            o = Obj(t, at, BuildContext("d"))
            assert _obj_outcome(read_type, o) == _obj_outcome(_read_type_before, o)
            assert _obj_outcome(read_qname, o) == _obj_outcome(_read_qname_before, o)
            for name in ("schemaname", "present", "not_null", "if_exists", "definition", "default", "name"):
                assert _obj_outcome(Obj.opt_str, o, name) == _obj_outcome(_opt_str_before, o, name)
                assert _obj_outcome(Obj.obj, o, name) == _obj_outcome(_obj_before, o, name)
                assert _obj_outcome(Obj.flag, o, name) == _obj_outcome(_flag_before, o, name)
            n += 1
    assert n >= 100
