"""Record classes without ``dataclasses``' start-up cost.

``dataclasses.dataclass`` reads every annotation through ``typing``, ``exec``s five or six methods per
class and, with ``slots=True``, builds each class twice: about 0.7 ms a class, which for the ~40
records and ~190 IR node classes a short ``ddlc check`` defines was a fifth of its cold start.

:func:`record` is the drop-in used everywhere in ddlc instead of ``@dataclass``: the same ``Field``
objects (so ``dataclasses.fields``/``replace``/``asdict``/``is_dataclass`` work), the same slots,
``__match_args__`` and parameters, the same ``__init__`` signature (generated on first use, one
``exec``), and equality, hashing, ``repr`` and the frozen ``__setattr__`` as functions shared by every
class and keyed on its field names. A ``__post_init__`` is called at the end of ``__init__``, as
``dataclasses`` does (so ``dataclasses.replace`` runs it too). Anything unusual (``InitVar``, non-string
annotations, fields whose ``hash`` differs from ``compare``) is handed to ``dataclasses`` itself.
``tests/test_records.py`` proves, for every record ddlc defines, that both give the same classes and
the same behaviour.

IR nodes are ``msgspec.Struct`` classes (:mod:`ddlc.ir.base`). These records stay on this module, not
on a library, for now: ``dataclasses`` itself costs ~0.7 ms a class (~20 ms of a ``ddlc check``, past
its cold-start goal; ``attrs`` more), and ``msgspec.Struct`` has no ``dataclasses.replace``/``fields``/
``asdict``/``field(compare=...)`` that their users call (``bench/bench_records.py``, docs/performance.md).
The few records made once per document on the hot path (``Document``, ``Front``, ``EmitContext``,
``Translation``) are :class:`Struct` instead: ``msgspec.Struct`` classes, made in C, that those ``dataclasses``
functions take too (throughput round 8); so is ``Diagnostic`` (a few a document), whose ``field(compare=False)``/
``field(repr=False)`` fields :func:`keyed` declares.
"""

from __future__ import annotations

import dataclasses
import types
from keyword import iskeyword
from typing import Any, TypeVar

C = TypeVar("C", bound=type)

_MISSING = dataclasses.MISSING
_FIELD = dataclasses._FIELD  # type: ignore[attr-defined]
_FIELD_CLASSVAR = dataclasses._FIELD_CLASSVAR  # type: ignore[attr-defined]
_PARAMS: dict[tuple[bool, ...], Any] = {}
_MEMBER = types.MemberDescriptorType  # a slot's descriptor


def record(cls: C | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True) -> Any:
    """``@record(frozen=True, slots=True)`` is ``@dataclass(frozen=True, slots=True)``, built faster."""

    def wrap(c: C) -> C:
        return _build(c, frozen=frozen, slots=slots, eq=eq)

    return wrap if cls is None else wrap(cls)


def _unusual(cls: type) -> bool:
    own = cls.__dict__.get("__annotations__", {})
    return ("__slots__" in cls.__dict__ or "__setattr__" in cls.__dict__
            or not all(isinstance(a, str) and "InitVar" not in a for a in own.values()))


def _build(cls: C, *, frozen: bool, slots: bool, eq: bool) -> C:
    if _unusual(cls):
        return dataclasses.dataclass(frozen=frozen, slots=slots, eq=eq)(cls)  # type: ignore[return-value]
    if cls.__doc__ is None:  # else dataclasses builds one from inspect.signature (slow at start-up)
        cls.__doc__ = cls.__name__
    own_eq = "__eq__" in cls.__dict__
    class_hash = cls.__dict__.get("__hash__", _MISSING)
    explicit_hash = not (class_hash is _MISSING or (class_hash is None and own_eq))
    new = with_fields(cls, slots=slots, params=params(init=True, repr=True, eq=eq, frozen=frozen, slots=slots))
    fields = dataclasses.fields(new)
    if any(f.hash is not None and f.hash != f.compare for f in fields):
        return dataclasses.dataclass(frozen=frozen, slots=slots, eq=eq)(cls)  # type: ignore[return-value]
    if "__init__" not in cls.__dict__:
        new.__init__ = lazy_init(new)  # type: ignore[misc]
    compare = tuple(f.name for f in fields if f.compare)
    new.__ddlc_key__ = staticmethod(key_of(compare))  # type: ignore[attr-defined]
    new.__ddlc_repr__ = tuple(f.name for f in fields if f.repr)  # type: ignore[attr-defined]
    if "__repr__" not in cls.__dict__:
        new.__repr__ = shared_repr  # type: ignore[assignment]
    if eq and not own_eq:
        new.__eq__ = shared_eq  # type: ignore[assignment]
    if eq and not explicit_hash:
        new.__hash__ = shared_hash if frozen else None  # type: ignore[assignment]
    if frozen:
        if "__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__:
            raise TypeError(f"cannot overwrite __setattr__/__delattr__ in frozen record {cls.__name__}")
        new.__setattr__ = frozen_setattr  # type: ignore[assignment]
        new.__delattr__ = frozen_delattr  # type: ignore[assignment]
        if slots:
            new.__getstate__ = getstate  # type: ignore[attr-defined]
            new.__setstate__ = setstate  # type: ignore[attr-defined]
    return new


def params(*, init: bool, repr: bool, eq: bool, frozen: bool, slots: bool) -> Any:  # noqa: A002 - its names
    """The ``__dataclass_params__`` object ``dataclasses`` would attach (made once per combination)."""
    key = (init, repr, eq, frozen, slots)
    p = _PARAMS.get(key)
    if p is None:
        cls = dataclasses._DataclassParams  # type: ignore[attr-defined]
        p = object.__new__(cls)
        values = {"init": init, "repr": repr, "eq": eq, "frozen": frozen, "match_args": True, "slots": slots}
        for name in cls.__slots__:
            object.__setattr__(p, name, values.get(name, False))
        _PARAMS[key] = p
    return p


def with_fields(cls: C, *, slots: bool, params: Any) -> C:  # noqa: C901 - mirrors dataclasses' field rules
    """``cls`` with dataclasses' ``Field`` objects (inherited ones first), rebuilt with ``__slots__``
    when ``slots``; defaults stay class attributes otherwise, as ``dataclasses`` leaves them."""
    own = cls.__dict__.get("__annotations__", {})
    fields: dict[str, dataclasses.Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        inherited = getattr(base, "__dataclass_fields__", None)
        if inherited:
            fields.update(inherited)
    ns = dict(cls.__dict__)
    for name, ann in own.items():
        if ann.startswith(("ClassVar", "typing.ClassVar")):  # kept as a class attribute, listed as dataclasses does
            cv = dataclasses.field(default=ns.get(name, _MISSING))
            cv.name, cv.type = name, ann
            cv._field_type = _FIELD_CLASSVAR  # type: ignore[attr-defined]
            fields[name] = cv
            continue
        default = ns.pop(name, _MISSING)
        f = default if isinstance(default, dataclasses.Field) else dataclasses.field(default=default)
        if f.default is not _MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        f.name, f.type = name, ann
        f._field_type = _FIELD  # type: ignore[attr-defined]
        if f.kw_only is _MISSING:
            f.kw_only = False
        fields[name] = f
        if not slots and f.default is not _MISSING:
            ns[name] = f.default
    if slots:
        inherited_slots = {s for base in cls.__mro__[1:-1] for s in base.__dict__.get("__slots__", ())}
        ns["__slots__"] = tuple(n for n, f in fields.items() if f._field_type is _FIELD  # type: ignore[attr-defined]
                                and n not in inherited_slots)
        ns.pop("__dict__", None)
        ns.pop("__weakref__", None)
        new = type(cls)(cls.__name__, cls.__bases__, ns)
        new.__qualname__ = cls.__qualname__
    else:
        new = cls
        for name in own:
            f = fields[name]
            if f._field_type is _FIELD and f.default is _MISSING and name in cls.__dict__:  # type: ignore[attr-defined]
                delattr(cls, name)  # a default_factory field: dataclasses removes the Field attribute
            elif f._field_type is _FIELD and f.default is not _MISSING:  # type: ignore[attr-defined]
                setattr(cls, name, f.default)
    new.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    new.__dataclass_params__ = params  # type: ignore[attr-defined]
    if "__match_args__" not in cls.__dict__:
        new.__match_args__ = tuple(n for n, f in fields.items()  # type: ignore[attr-defined]
                                   if f._field_type is _FIELD and f.init and not f.kw_only)  # type: ignore[attr-defined]
    return new


def key_of(names: tuple[str, ...]) -> Any:
    """The tuple of ``names`` of an instance (what equality and hashing compare)."""
    import operator

    if not names:
        return lambda self: ()
    if len(names) == 1:
        name = names[0]
        return lambda self: (getattr(self, name),)
    return operator.attrgetter(*names)


def lazy_init(owner: type) -> Any:
    """A stand-in ``__init__`` that generates the real one on first use (most classes are never
    instantiated in a short run, so start-up pays for none of them)."""

    def __init__(self: Any, *args: Any, **kw: Any) -> None:
        real = owner.__dict__.get("__init__")
        if real is __init__:
            real = make_init(owner, dataclasses.fields(owner))
            owner.__init__ = real  # type: ignore[misc]
        real(self, *args, **kw)

    __init__.__qualname__ = f"{owner.__qualname__}.__init__"
    return __init__


def make_init(cls: type, fields: tuple[dataclasses.Field, ...]) -> Any:
    """``__init__`` with the dataclass signature, setting through object, then calling ``__post_init__`` when
    the class has one: one ``exec`` per class, or none for the common form (:func:`_shared_form_init`)."""
    fn = _shared_form_init(cls, fields)
    if fn is None:
        fn = _exec_init(cls, fields)
    fn.__qualname__ = f"{cls.__qualname__}.__init__"
    fn.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
    return fn


_FORMS: dict[tuple[int, bool], types.CodeType] = {}  # (fields, __post_init__) -> the code of that form


def _shared_form_init(cls: type, fields: tuple[dataclasses.Field, ...]) -> Any:
    """The ``__init__`` :func:`_exec_init` writes, without compiling it again, when every field is a positional
    parameter set through its slot (no ``kw_only``, no ``default_factory``, no ``init=False``; a default only
    after a default): ``def __init__(self, a, b=d): s0(self, a); s1(self, b)`` is the same code for every
    class with as many fields, once its parameters are renamed (``code.replace``) and ``s0``, ``s1`` are the
    class's slot setters. Compiling it was ~0.1-0.2 ms a class at start-up. None for any other class."""
    names = []
    setters: dict[str, Any] = {}
    defaults = []
    for i, f in enumerate(fields):
        name = f.name
        if (not f.init or f.kw_only or f.default_factory is not _MISSING or name == "self"
                or not name.isidentifier() or iskeyword(name) or name.startswith("__")):
            return None
        if f.default is not _MISSING:
            defaults.append(f.default)
        elif defaults:  # a non-default parameter after a default one: _exec_init's SyntaxError
            return None
        d = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if type(d) is not _MEMBER:
            return None
        names.append(name)
        setters[f"s{i}"] = d.__set__
    post = hasattr(cls, "__post_init__")
    code = _FORMS.get((len(names), post))
    if code is None:
        params_ = "".join(f", p{i}" for i in range(len(names)))
        body = [f"    s{i}(self, p{i})" for i in range(len(names))] + (["    self.__post_init__()"] if post else [])
        ns: dict[str, Any] = {}
        exec(f"def __init__(self{params_}):\n" + ("\n".join(body) or "    pass") + "\n", {}, ns)  # noqa: S102
        code = _FORMS[(len(names), post)] = ns["__init__"].__code__
    return types.FunctionType(code.replace(co_varnames=("self", *names)), setters, "__init__",
                              tuple(defaults) or None)


def _exec_init(cls: type, fields: tuple[dataclasses.Field, ...]) -> Any:
    """One ``exec``: the ``__init__`` of any record."""
    positional = [f for f in fields if f.init and not f.kw_only]
    keyword = [f for f in fields if f.init and f.kw_only]
    env: dict[str, Any] = {"__set": object.__setattr__, "__MISSING": dataclasses._HAS_DEFAULT_FACTORY}  # type: ignore[attr-defined]
    params_, body = ["self"], []

    def param(f: dataclasses.Field) -> str:
        if f.default is not _MISSING:
            env[f"__d_{f.name}"] = f.default
            return f"{f.name}=__d_{f.name}"
        if f.default_factory is not _MISSING:
            env[f"__f_{f.name}"] = f.default_factory
            return f"{f.name}=__MISSING"
        return f.name

    params_.extend(param(f) for f in positional)
    if keyword:
        params_.append("*")
        params_.extend(param(f) for f in keyword)
    def setter(name: str) -> str:
        """How the body sets ``name``: through its slot's own descriptor when it has one (~40 % faster than
        ``object.__setattr__``, which looks the descriptor up by name each time), else ``object.__setattr__``."""
        for klass in cls.__mro__:
            d = klass.__dict__.get(name)
            if d is not None:
                if type(d) is _MEMBER:
                    env[f"__s_{name}"] = d.__set__
                    return f"__s_{name}(self, "
                break
        return f"__set(self, {name!r}, "

    for f in fields:
        if not f.init:
            if f.default_factory is not _MISSING:
                env[f"__f_{f.name}"] = f.default_factory
                body.append(f"    {setter(f.name)}__f_{f.name}())")
            elif f.default is not _MISSING:
                env[f"__d_{f.name}"] = f.default
                body.append(f"    {setter(f.name)}__d_{f.name})")
            continue
        value = f.name
        if f.default is _MISSING and f.default_factory is not _MISSING:
            value = f"__f_{f.name}() if {f.name} is __MISSING else {f.name}"
        body.append(f"    {setter(f.name)}{value})")
    if hasattr(cls, "__post_init__"):  # as dataclasses: last, with no argument (no InitVar reaches here)
        body.append("    self.__post_init__()")
    src = f"def __init__({', '.join(params_)}):\n" + ("\n".join(body) or "    pass") + "\n"
    ns: dict[str, Any] = {}
    exec(src, env, ns)  # noqa: S102 - generated from field names only
    return ns["__init__"]


def shared_eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = self.__ddlc_key__
    return key(self) == key(other)


def shared_hash(self: Any) -> int:
    return hash(self.__ddlc_key__(self))


def shared_repr(self: Any) -> str:
    inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__ddlc_repr__)
    return f"{self.__class__.__qualname__}({inner})"


def frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def frozen_delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=True):
        object.__setattr__(self, f.name, value)


# ---- records made in C: msgspec Structs that speak the dataclass protocol -----------------------------------------

_STRUCT_FIELDS: dict[type, dict[str, dataclasses.Field]] = {}


class _DataclassFields:
    """``__dataclass_fields__`` of a :class:`Struct` subclass: its fields as ``dataclasses.Field`` objects (from
    msgspec's own, made once per class), so that ``dataclasses.fields``/``replace``/``asdict``/``astuple``/
    ``is_dataclass`` take its instances."""

    def __get__(self, obj: Any, cls: type) -> dict[str, dataclasses.Field]:
        fields = _STRUCT_FIELDS.get(cls)
        if fields is None:
            fields = _STRUCT_FIELDS[cls] = _struct_fields(cls)
        return fields


class _DataclassParams:
    def __get__(self, obj: Any, cls: type) -> Any:
        return params(init=True, repr=True, eq=True, frozen=bool(cls.__struct_config__.frozen), slots=True)


def _struct_fields(cls: type) -> dict[str, dataclasses.Field]:
    names = cls.__struct_fields__  # type: ignore[attr-defined]
    defaults = cls.__struct_defaults__  # type: ignore[attr-defined]  # (those of the last fields)
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        hints.update(klass.__dict__.get("__annotations__", {}))
    first = len(names) - len(defaults)
    out = {}
    for i, name in enumerate(names):
        d = defaults[i - first] if i >= first else _MISSING
        if d is _MISSING:
            f = dataclasses.field()
        elif type(d).__name__ == "Factory" and type(d).__module__.startswith("msgspec"):
            f = dataclasses.field(default_factory=d.factory)
        else:
            f = dataclasses.field(default=d)
        f.name, f.type = name, hints.get(name, "Any")
        f._field_type = _FIELD  # type: ignore[attr-defined]
        f.kw_only = False
        out[name] = f
    return out


def _struct_base() -> type:
    import msgspec

    class DataclassProtocol:  # (a mixin with no layout of its own; not a module name: no record of its own)
        __slots__ = ()
        __dataclass_fields__ = _DataclassFields()
        __dataclass_params__ = _DataclassParams()

    class Struct(msgspec.Struct, DataclassProtocol):
        """A record made in C (``msgspec.Struct``: construction ~4x cheaper than a Python ``__init__`` setting
        each slot) for the records made once per document on the hot path; ``dataclasses.fields``, ``replace``,
        ``asdict`` and ``is_dataclass`` take it as they take a :func:`record` (``__dataclass_fields__`` made from
        msgspec's fields, once per class). A frozen record is a subclass with ``frozen=True`` under
        :func:`sealed`."""

    return Struct


Struct: Any = _struct_base()


def sealed(cls: type) -> type:
    """A frozen :class:`Struct` subclass whose assignment or deletion of a field raises
    ``dataclasses.FrozenInstanceError``, as a frozen :func:`record`'s does (msgspec's own frozen check raises a
    plain ``AttributeError``, which ``except FrozenInstanceError`` does not catch). msgspec makes and copies its
    instances in C without ``__setattr__``: construction costs the same. Set after the class is made: msgspec
    puts its own ``__setattr__`` in place when it makes the class."""
    if not cls.__struct_config__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: sealed is for a Struct declared frozen=True")
    cls.__setattr__ = frozen_setattr  # type: ignore[method-assign,assignment]
    cls.__delattr__ = frozen_delattr  # type: ignore[method-assign,assignment]
    return cls


def keyed(*, uncompared: tuple[str, ...] = (), unshown: tuple[str, ...] = ()) -> Any:
    """Class decorator for a :class:`Struct` some of whose fields a :func:`record` would declare with
    ``field(compare=False)`` (``uncompared``: also left out of the hash) or ``field(repr=False)`` (``unshown``):
    equality, hashing and ``repr`` as :func:`record` makes them (the functions it shares, on the compared and the
    shown fields only) and those flags on the class's ``dataclasses`` fields. A frozen class hashes; another
    has ``__hash__ = None``, as a record."""

    def wrap(cls: C) -> C:
        fields = _struct_fields(cls)
        unknown = set(uncompared) - fields.keys() | set(unshown) - fields.keys()
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(unknown))}")
        for name in uncompared:
            fields[name].compare = False
        for name in unshown:
            fields[name].repr = False
        _STRUCT_FIELDS[cls] = fields
        cls.__ddlc_key__ = staticmethod(key_of(tuple(n for n, f in fields.items() if f.compare)))  # type: ignore[attr-defined]
        cls.__ddlc_repr__ = tuple(n for n, f in fields.items() if f.repr)  # type: ignore[attr-defined]
        cls.__eq__ = shared_eq  # type: ignore[assignment]
        cls.__hash__ = shared_hash if cls.__struct_config__.frozen else None  # type: ignore[attr-defined,assignment]
        cls.__repr__ = shared_repr  # type: ignore[assignment]
        return cls

    return wrap
