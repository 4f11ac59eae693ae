"""ddlc.records.record is dataclasses.dataclass, built faster (cold start): proven here for every record ddlc
defines (same fields, slots, match args and parameters) and, by hypothesis, for the behaviour of generated classes
(signature, repr, equality, hashing, frozenness, replace, asdict, pickling)."""

from __future__ import annotations

import dataclasses
import dis
import inspect
import json
import pickle
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.records import record

DUMP = r"""
import dataclasses, gc, importlib, inspect, json, pkgutil, re, sys
import ddlc.records as records
if sys.argv[1] == "real":
    records.record = lambda cls=None, /, **kw: dataclasses.dataclass(**kw) if cls is None else dataclasses.dataclass(cls, **kw)
import ddlc
import ddlc.ir.base as base
for m in pkgutil.walk_packages(ddlc.__path__, "ddlc."):
    if not m.name.startswith(("ddlc.cli", "ddlc.__main__")):
        try:
            importlib.import_module(m.name)
        except ImportError as e:  # pyspark-only modules
            if "pyspark" not in str(e):
                raise
gc.collect()
def init_of(c):
    fn = c.__init__
    if sys.argv[1] == "fast" and fn.__code__.co_flags & inspect.CO_VARARGS:  # still the lazy stand-in
        return records.make_init(c, dataclasses.fields(c))
    return fn
out = {}
for name, mod in sorted(sys.modules.items()):
    if not name.startswith("ddlc."):
        continue
    for c in vars(mod).values():
        if not (isinstance(c, type) and c.__module__ == name and "__dataclass_fields__" in c.__dict__):
            continue
        if issubclass(c, base.Node):
            continue
        missing = lambda v: "MISSING" if v is dataclasses.MISSING else re.sub(r" at 0x[0-9a-f]+", "", repr(v))
        fs = [[f.name, str(f.type), missing(f.default), missing(f.default_factory), f.init, f.repr, f.compare,
               f.hash, missing(f.kw_only), str(f._field_type)] for f in c.__dataclass_fields__.values()]
        out[f"{name}.{c.__qualname__}"] = {
            "fields": fs, "slots": list(c.__dict__.get("__slots__", ())), "match": list(getattr(c, "__match_args__", ())),
            "params": repr(c.__dataclass_params__), "hash_none": c.__hash__ is None,
            "frozen_set": c.__setattr__ is not object.__setattr__, "dict": hasattr(c, "__dict__") and "__dict__" in dir(c),
            "signature": re.sub(r" at 0x[0-9a-f]+", "", str(inspect.signature(init_of(c)))),
            "class_defaults": {f.name: re.sub(r" at 0x[0-9a-f]+", "", repr(c.__dict__[f.name])) for f in dataclasses.fields(c) if f.name in c.__dict__
                               and not isinstance(c.__dict__[f.name], type(c.__dict__.get("__slots__", None)))
                               and type(c.__dict__[f.name]).__name__ != "member_descriptor"}}
print(json.dumps(out, sort_keys=True, default=str))
"""


def _dump(mode: str) -> dict:
    p = subprocess.run([sys.executable, "-c", DUMP, mode], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


def test_every_ddlc_record_equals_its_dataclass():
    fast, real = _dump("fast"), _dump("real")
    assert len(fast) > 50 and fast.keys() == real.keys()
    for name in real:
        assert fast[name] == real[name], name


# ---- generated classes: the same behaviour as dataclasses --------------------------------------------------------

_VALUES = st.one_of(st.integers(-5, 5), st.text(max_size=3), st.none(), st.tuples(st.integers(0, 3)))


@st.composite
def _specs(draw):
    n = draw(st.integers(0, 4))
    fields = []
    seen_default = False
    for i in range(n):
        kind = draw(st.sampled_from(["plain", "default", "factory", "kw", "kw_default", "noinit", "norepr", "nocompare"]))
        if seen_default and kind in ("plain", "nocompare", "norepr"):
            kind = "kw"
        seen_default |= kind in ("default", "factory", "noinit")
        fields.append((f"f{i}", kind))
    return fields, draw(st.booleans()), draw(st.booleans()), draw(st.booleans()), draw(st.booleans())


def _post_init(self):
    """A ``__post_init__`` whose work shows: the first field rewritten (through object, frozen or not), and a
    ValueError for one value (as ddlc.options.Options checks its values)."""
    names = [f.name for f in dataclasses.fields(self)]
    if names:
        v = getattr(self, names[0])
        if v == -5:
            raise ValueError("refused")
        object.__setattr__(self, names[0], ("post", v))


def _make(decorator, fields, frozen, slots, eq, *, base=None, post=False):
    ns: dict = {"__annotations__": {}}
    if post:
        ns["__post_init__"] = _post_init
    for name, kind in fields:
        ns["__annotations__"][name] = "object"
        if kind == "default":
            ns[name] = 7
        elif kind == "factory":
            ns[name] = dataclasses.field(default_factory=list)
        elif kind == "kw":
            ns[name] = dataclasses.field(kw_only=True)
        elif kind == "kw_default":
            ns[name] = dataclasses.field(kw_only=True, default="k")
        elif kind == "noinit":
            ns[name] = dataclasses.field(init=False, default=3)
        elif kind == "norepr":
            ns[name] = dataclasses.field(repr=False)
        elif kind == "nocompare":
            ns[name] = dataclasses.field(compare=False)
    cls = type("R", (base,) if base else (), ns)
    cls.__module__ = __name__
    cls.__qualname__ = "R"
    return decorator(frozen=frozen, slots=slots, eq=eq)(cls)


def _args(fields, values):
    pos, kw = [], {}
    for (name, kind), v in zip(fields, values, strict=False):
        if kind in ("plain", "norepr", "nocompare"):
            pos.append(v)
        elif kind in ("kw", "kw_default"):
            kw[name] = v
        elif kind == "default":
            kw[name] = v
    return pos, kw


def _behaviour(cls, fields, values, other_values):
    pos, kw = _args(fields, values)
    try:
        a, b = cls(*pos, **kw), cls(*pos, **kw)
        pos2, kw2 = _args(fields, other_values)
        c = cls(*pos2, **kw2)
    except ValueError as e:  # refused by __post_init__
        return {"refused": str(e), "signature": str(inspect.signature(cls.__init__))}
    out = {
        "signature": str(inspect.signature(cls.__init__)), "repr": repr(a), "eq": [a == b, a == c, a != c],
        "fields": [(f.name, f.init, f.repr, f.compare, f.kw_only) for f in dataclasses.fields(cls)],
        "asdict": repr(dataclasses.asdict(a)), "match": getattr(cls, "__match_args__", None),
        "params": repr(cls.__dataclass_params__), "hash_none": cls.__hash__ is None,
        "slots": cls.__dict__.get("__slots__"), "has_dict": hasattr(a, "__dict__"),
    }
    if cls.__hash__ is not None and cls.__hash__ is not object.__hash__:
        try:
            out["hash"] = [hash(a) == hash(b), hash(a)]
        except TypeError as e:  # a list field (default_factory=list)
            out["hash"] = str(e)
    for name, kind in fields:
        if kind != "noinit":
            out.setdefault("replace", repr(dataclasses.replace(a, **{name: "r"})))
            break
    if fields:  # (a name that is not a field meets a CPython 3.11 bug in dataclasses' frozen slots classes)
        try:
            setattr(a, "f0", 1)
            out["set"] = "ok"
        except Exception as e:  # noqa: BLE001 - the exception type is what is compared
            out["set"] = type(e).__name__
    try:
        out["pickle"] = repr(pickle.loads(pickle.dumps(a)))
    except Exception as e:  # noqa: BLE001
        out["pickle"] = type(e).__name__
    return out


@settings(max_examples=300, deadline=None)
@given(_specs(), st.lists(_VALUES, min_size=4, max_size=4), st.lists(_VALUES, min_size=4, max_size=4))
def test_generated_records_behave_as_dataclasses(spec, values, other):
    fields, frozen, slots, eq, post = spec
    fast = _make(record, fields, frozen, slots, eq, post=post)
    real = _make(dataclasses.dataclass, fields, frozen, slots, eq, post=post)
    globals()["R"] = fast  # pickle finds the class by module and name
    got = _behaviour(fast, fields, values, other)
    globals()["R"] = real
    want = _behaviour(real, fields, values, other)
    assert got == want


def test_inheritance_and_explicit_methods():
    @record(frozen=True, slots=True)
    class Base:
        a: int
        b: str = "x"

    @record(frozen=True, slots=True)
    class Child(Base):
        c: tuple = ()

        def __eq__(self, other):
            return True

    @dataclasses.dataclass(frozen=True, slots=True)
    class RBase:
        a: int
        b: str = "x"

    @dataclasses.dataclass(frozen=True, slots=True)
    class RChild(RBase):
        c: tuple = ()

        def __eq__(self, other):
            return True

    assert Child(1) == Child(2) and RChild(1) == RChild(2)  # (the first call generates __init__)
    assert str(inspect.signature(Child.__init__)) == str(inspect.signature(RChild.__init__))
    assert (Child.__hash__ is None) == (RChild.__hash__ is None)
    assert Child.__slots__ == RChild.__slots__ and Child.__match_args__ == RChild.__match_args__
    assert repr(Child(1, "y", (2,))).replace("Child", "X") == repr(RChild(1, "y", (2,))).replace("RChild", "X")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Child(1).a = 2


def test_mutable_default_refused():
    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Bad:
            items: list = []  # noqa: RUF012


def test_options_is_a_record_whose_post_init_checks_every_construction():
    """ddlc.options.Options (a ``__post_init__``) is built by record, not handed to dataclasses, and its checks
    run however an instance is made: the constructor, ``of`` and ``dataclasses.replace``."""
    from ddlc import records
    from ddlc.options import Options

    assert Options.__eq__ is records.shared_eq and Options.__setattr__ is records.frozen_setattr
    assert Options(schema_map={"a": "b"}).schema_map == (("a", "b"),)
    assert dataclasses.replace(Options(), role_map=["x=y"]).role_map == (("x", "y"),)
    assert Options.of(exclude_users="u1,u2").exclude_users == ("u1", "u2")
    with pytest.raises(ValueError, match="mode must be one of"):
        dataclasses.replace(Options.of(), mode="rawx")
    with pytest.raises(TypeError, match="must be True or False"):
        Options(pretty=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Options().mode = "raw"
    assert pickle.loads(pickle.dumps(Options(schema_map={"a": "b"}))) == Options(schema_map={"a": "b"})


def _outcome(fn, cls, args, kw):
    obj = object.__new__(cls)
    try:
        fn(obj, *args, **kw)
    except Exception as e:  # noqa: BLE001 - the exception and its message are what is compared
        return f"{type(e).__name__}: {e}"
    return [getattr(obj, f.name, "unset") for f in dataclasses.fields(cls)]


@settings(max_examples=300, deadline=None)
@given(_specs(), st.lists(_VALUES, min_size=5, max_size=5))
def test_the_shared_form_init_is_the_exec_init(spec, values):
    """The ``__init__`` made from a shared code object (no compile) is the one ``exec`` writes: same signature,
    defaults, bytecode, values set, ``__post_init__`` call and error messages, for every call shape."""
    from ddlc import records

    fields, frozen, _slots, eq, post = spec
    cls = _make(record, fields, frozen, True, eq, post=post)
    fs = dataclasses.fields(cls)
    shared, real = records._shared_form_init(cls, fs), records._exec_init(cls, fs)
    assert (shared is not None) == all(k in ("plain", "default", "norepr", "nocompare") for _, k in fields)
    if shared is None:
        return
    for attr in ("__name__", "__module__", "__defaults__", "__kwdefaults__"):
        assert getattr(shared, attr) == getattr(real, attr), attr
    assert str(inspect.signature(shared)) == str(inspect.signature(real))
    assert [i.opname for i in dis.get_instructions(shared)] == [i.opname for i in dis.get_instructions(real)]
    n = len(fields)
    calls = [(values[:k], {}) for k in range(n + 2)]
    calls += [((), {name: v for (name, _), v in zip(fields, values, strict=False)}), ((), {"nope": 1}),
              (values[:1], {fields[0][0]: 2} if fields else {})]
    for args, kw in calls:
        assert _outcome(shared, cls, args, kw) == _outcome(real, cls, args, kw), (args, kw)


def test_every_ddlc_record_init_is_the_exec_init():
    """Each ddlc record whose ``__init__`` takes the shared form gets the ``__init__`` exec writes (signature,
    defaults, bytecode); the others are left to exec."""
    import importlib
    import pkgutil

    import ddlc
    from ddlc import records

    for m in pkgutil.walk_packages(ddlc.__path__, "ddlc."):
        if not m.name.startswith(("ddlc.cli", "ddlc.__main__", "ddlc.pipeline")):
            importlib.import_module(m.name)
    shared = 0
    for name, mod in list(sys.modules.items()):
        for c in list(vars(mod).values()) if name.startswith("ddlc.") else ():
            if not (isinstance(c, type) and c.__module__ == name and "__ddlc_key__" in c.__dict__):
                continue
            fs = dataclasses.fields(c)
            fn = records._shared_form_init(c, fs)
            if fn is None:
                continue
            shared += 1
            real = records._exec_init(c, fs)
            assert str(inspect.signature(fn)) == str(inspect.signature(real)), c
            assert fn.__defaults__ == real.__defaults__ and fn.__kwdefaults__ == real.__kwdefaults__, c
            assert [i.opname for i in dis.get_instructions(fn)] == [i.opname for i in dis.get_instructions(real)], c
    assert shared > 20
