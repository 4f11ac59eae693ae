"""IR nodes are frozen msgspec.Struct classes (issue 21: a library instead of hand-built classes): every node class
ddlc defines is one, with its fields in declaration order; what msgspec has no per-field option for (fields left out
of equality, of the JSON form, reset by replace) behaves as the dataclass fields it replaced did."""

from __future__ import annotations

import importlib
import pickle
import pkgutil

import msgspec
import pytest

import ddlc
from ddlc.ir.base import Node, _eq_compared, _hash_compared, fields, shown_fields, replace, to_json


def _all_node_classes() -> list[type]:
    for m in pkgutil.walk_packages(ddlc.__path__, "ddlc."):
        if not m.name.startswith(("ddlc.pipeline", "ddlc.cli", "ddlc.__main__")):
            importlib.import_module(m.name)
    out, todo = [], [Node]
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(c.__subclasses__())
    return out


def test_every_node_class_is_a_frozen_struct_with_declared_field_order():
    classes = _all_node_classes()
    assert len(classes) > 150
    for c in classes:
        assert issubclass(c, msgspec.Struct) and c.__struct_config__.frozen, c
        names = fields(c)
        assert sorted(names) == sorted(c.__struct_fields__), c
        assert names[0] == "origin", c  # declaration order: Node's field first, as dataclasses gave it
        declared = [n for k in reversed(c.__mro__) for n in k.__dict__.get("__annotations__", ()) if n in names]
        assert list(names) == list(dict.fromkeys(declared)), c
        if any("_not_compared" in k.__dict__ for k in c.__mro__):  # @node gave it equality without them
            assert c.__eq__ is _eq_compared and c.__hash__ is _hash_compared, c
        for attr in ("_not_compared", "_hidden", "_reset_on_replace"):
            for k in c.__mro__[:c.__mro__.index(Node) + 1]:
                assert set(k.__dict__.get(attr, ())) <= set(getattr(k, "__struct_fields__", ())), (k, attr)


def test_node_instances_behave():
    from ddlc.ir.names import QualifiedName

    q = QualifiedName("t", "s", origin=("x",))
    assert replace(q, name="u").name == "u" and replace(q, name="u").origin == ("x",)
    same = QualifiedName("t", "s", origin=("x",))
    assert q == same and hash(q) == hash(same) and q != QualifiedName("t", "x", origin=("x",))
    assert q != QualifiedName("t", "s", origin=("y",))  # the origin is compared, as before
    with pytest.raises(AttributeError):
        q.name = "v"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        q.other = 1  # type: ignore[attr-defined]
    assert not hasattr(q, "__dict__")
    assert pickle.loads(pickle.dumps(q)) == q
    with pytest.raises(TypeError):
        QualifiedName("t", "s", "a", ("x",))  # origin is keyword-only
    assert to_json(q, with_origin=True) == {"@": "QualifiedName", "origin": ["x"], "name": "t", "schema": "s",
                                            "attr": None}


def test_fields_left_out_of_equality_json_and_replace():
    from ddlc.ir.names import Expr, ParsedSql
    from ddlc.ir.statement import Opaque

    a = Opaque("CREATE X", origin=(1,), unpastable=(("a",),))
    b = Opaque("CREATE X", origin=(1,))
    assert a == b and hash(a) == hash(b) and a.unpastable == (("a",),)
    assert "unpastable" not in to_json(a) and "unpastable" in fields(a) and "unpastable" not in shown_fields(Opaque)
    assert a != Opaque("CREATE Y", origin=(1,))
    assert list(to_json(a, with_origin=True)) == ["@", "origin", "layout", "text", "kind", "reason"]

    sql = ParsedSql("expr", None, (), True)
    e = Expr("a + 1", origin=("d",), sql=sql)
    assert e == Expr("a + 1", origin=("d",)) and hash(e) == hash(Expr("a + 1", origin=("d",)))
    assert e.sql is sql and e.parsed and to_json(e) == {"@": "Expr", "text": "a + 1"}
    assert replace(e, origin=("x",)).sql is None and replace(e, text="b").sql is None  # no stale parsed form
    assert replace(e, text="b", sql=sql).sql is sql
    back = pickle.loads(pickle.dumps(e))  # the parsed form travels with it (Spark workers)
    assert back == e and back.sql == sql
    assert repr(e) == "Expr(text='a + 1', origin=('d',))"
