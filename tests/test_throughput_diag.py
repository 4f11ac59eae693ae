"""Diagnostic made in C (throughput round 8): :class:`ddlc.diagnostics.Diagnostic` is a :class:`ddlc.records.Struct`
(``@keyed``) instead of a :func:`ddlc.records.record`; here, by hypothesis, it behaves as the record it was (kept
below as it was written): the same equality and hash (the ``dropped_*`` fields left out), ``repr``, ``str``,
``to_dict``, ``severity``, ``dataclasses`` fields/replace/asdict, pickling, frozenness, signature."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc import diagnostics
from ddlc.diagnostics import Diagnostic, PathPart, Severity
from ddlc.records import Struct, keyed, record


@record(frozen=True, slots=True)
class Old:
    code: str
    message: str
    path: tuple[PathPart, ...] = ()
    target: str | None = None
    pass_name: str | None = None
    document: str | None = None
    dropped_text: str | None = field(default=None, compare=False)
    dropped_node: object = field(default=None, compare=False, repr=False)
    dropped_prefix: str = field(default="", compare=False, repr=False)
    dropped_after: object = field(default=None, compare=False, repr=False)
    dropped_within: tuple[object, ...] = field(default=(), compare=False, repr=False)

    severity = Diagnostic.severity
    jsonpath = Diagnostic.jsonpath
    to_dict = Diagnostic.to_dict
    __str__ = Diagnostic.__str__


Old.__qualname__ = Diagnostic.__qualname__  # the repr names the class
NAMES = [f.name for f in dataclasses.fields(Old)]
_CODES = st.sampled_from(sorted(diagnostics.CODES)) | st.sampled_from(["DDLC-W999", "DDLC-E998", "DDLC-I997"])
_TEXT = st.none() | st.text(max_size=4)
_PATH = st.tuples() | st.lists(st.text(max_size=3) | st.integers(0, 5), max_size=3).map(tuple)
_OBJ = st.none() | st.integers(0, 3) | st.tuples(st.integers(0, 2))
ARGS = st.fixed_dictionaries({
    "code": _CODES, "message": st.text(max_size=5), "path": _PATH, "target": _TEXT, "pass_name": _TEXT,
    "document": _TEXT, "dropped_text": _TEXT, "dropped_node": _OBJ, "dropped_prefix": st.text(max_size=2),
    "dropped_after": _OBJ, "dropped_within": st.tuples() | st.tuples(_OBJ)})


def _pair(kw: dict, n: int) -> tuple[Old, Diagnostic]:
    """Both made from the first ``n`` fields, given positionally, the rest by keyword."""
    pos = [kw[k] for k in NAMES[:n]]
    rest = {k: v for k, v in kw.items() if k not in NAMES[:n]}
    return Old(*pos, **rest), Diagnostic(*pos, **rest)


@settings(max_examples=300, deadline=None)
@given(ARGS, ARGS, st.integers(2, 11), st.booleans())
def test_diagnostic_behaves_as_the_record_it_was(a, b, n, same_head):
    if same_head:  # often equal where it counts, different in the dropped_* fields
        b = {**b, **{k: a[k] for k in NAMES[:6]}}
    oa, na = _pair(a, n)
    ob, nb = _pair(b, 11 - n + 2)
    assert (na == nb) is (oa == ob)
    assert (na != nb) is (oa != ob)
    if oa == ob:
        assert hash(na) == hash(nb)
    assert hash(na) == hash(oa)
    assert repr(na) == repr(oa)
    assert str(na) == str(oa)
    assert na.to_dict() == oa.to_dict()
    assert na.severity is oa.severity and na.jsonpath == oa.jsonpath
    assert dataclasses.astuple(na) == dataclasses.astuple(oa)
    assert dataclasses.asdict(na) == dataclasses.asdict(oa)
    r_old, r_new = dataclasses.replace(oa, message="m", document=None), dataclasses.replace(na, message="m", document=None)
    assert type(r_new) is Diagnostic and dataclasses.astuple(r_new) == dataclasses.astuple(r_old)
    back = pickle.loads(pickle.dumps(na, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is Diagnostic and dataclasses.astuple(back) == dataclasses.astuple(na)
    assert (na == oa) is False and na != oa  # another class: never equal, as between two records


def test_diagnostic_fields_and_flags_are_the_record_s():
    old, new = dataclasses.fields(Old), dataclasses.fields(Diagnostic)
    assert [(f.name, f.default, f.compare, f.repr, f.init, f.kw_only) for f in new] \
        == [(f.name, f.default, f.compare, f.repr, f.init, f.kw_only) for f in old]
    assert Diagnostic.__match_args__ == Old.__match_args__ and dataclasses.is_dataclass(Diagnostic)
    d = Diagnostic("DDLC-W101", "m")
    with pytest.raises(dataclasses.FrozenInstanceError.__mro__[1]):  # AttributeError, as a record's
        d.message = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Diagnostic("DDLC-W101")
    with pytest.raises(TypeError):
        Diagnostic("DDLC-W101", "m", nope=1)
    assert d.severity is Severity.WARNING


def test_keyed_checks_its_names():
    with pytest.raises(TypeError, match="no field nope"):
        @keyed(uncompared=("nope",))
        class X(Struct, frozen=True):
            a: int

    @keyed(unshown=("b",))
    class Y(Struct):
        a: int
        b: int = 0

    assert Y.__hash__ is None and repr(Y(1, 2)).endswith(".Y(a=1)") and Y(1, 2) != Y(1, 3)
