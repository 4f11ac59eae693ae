"""@node builds its classes without dataclasses' general machinery (start-up): proven here to give, for every
node class ddlc defines, exactly what dataclasses.dataclass(init=False, repr=False, eq=False, slots=True) gives."""

from __future__ import annotations

import json
import subprocess
import sys

DUMP = r"""
import dataclasses, importlib, json, pkgutil, sys
import ddlc.ir.base as base
if sys.argv[1] == "real":
    base._slotted_dataclass = lambda cls: dataclasses.dataclass(init=False, repr=False, eq=False, frozen=False,
                                                                slots=True)(cls)
import ddlc
for m in pkgutil.walk_packages(ddlc.__path__, "ddlc."):
    if not m.name.startswith(("ddlc.pipeline", "ddlc.cli", "ddlc.__main__")):
        importlib.import_module(m.name)
import gc
gc.collect()  # dataclasses' slots=True leaves the first class object behind until the collector runs
out = {}
todo = [base.Node]
while todo:
    c = todo.pop()
    todo.extend(c.__subclasses__())
    if "__dataclass_fields__" not in c.__dict__:
        continue
    fs = []
    for f in c.__dataclass_fields__.values():
        missing = lambda v: "MISSING" if v is dataclasses.MISSING else repr(v)
        fs.append([f.name, str(f.type), missing(f.default), missing(f.default_factory), f.init, f.repr, f.compare,
                   f.hash, missing(f.kw_only), str(f._field_type), dict(f.metadata)])
    out[f"{c.__module__}.{c.__qualname__}"] = {
        "fields": fs, "slots": list(c.__dict__.get("__slots__", ())), "match": list(getattr(c, "__match_args__", ())),
        "public": [f.name for f in dataclasses.fields(c)], "params": repr(c.__dataclass_params__),
        "doc": c.__doc__}
print(json.dumps(out, sort_keys=True, default=str))
"""


def _dump(mode: str) -> dict:
    p = subprocess.run([sys.executable, "-c", DUMP, mode], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


def test_fast_node_classes_equal_dataclasses():
    fast, real = _dump("fast"), _dump("real")
    assert len(fast) > 150 and fast.keys() == real.keys()
    for name in real:
        assert fast[name] == real[name], name


def test_node_instances_behave():
    import dataclasses

    import pytest

    from ddlc.ir.names import QualifiedName

    q = QualifiedName("t", "s", origin=("x",))
    assert dataclasses.is_dataclass(q) and dataclasses.replace(q, name="u").name == "u"
    same = QualifiedName("t", "s", origin=("x",))
    assert q == same and hash(q) == hash(same) and q != QualifiedName("t", "x", origin=("x",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.name = "v"  # type: ignore[misc]
    with pytest.raises((AttributeError, dataclasses.FrozenInstanceError)):
        q.other = 1  # type: ignore[attr-defined]
    assert not hasattr(q, "__dict__")
