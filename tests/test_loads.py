"""``documents.loads`` parses with orjson first and falls back to the exact Decimal parse only when a
number needs it: the values are exactly those of the former regex-first parse (issue 8, item 4)."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.documents import InputError, loads

_INEXACT = re.compile(rb"[0-9](?:\.[0-9]*0(?![0-9])|[eE][-+]?[0-9]|[0-9]{18})")


def reference(data: bytes):
    """The former ``loads``: a regex over every byte, then orjson or the standard parser."""
    if _INEXACT.search(data) is None:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(data, parse_float=Decimal)
    except (ValueError, RecursionError):
        return orjson.loads(data)


def typed(v):
    """A value with every number's type spelled out (1.0 == Decimal('1.0') == 1 otherwise)."""
    if isinstance(v, dict):
        return {k: typed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [typed(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    return (type(v).__name__, str(v))


NUMBER = st.one_of(
    st.integers(min_value=-(10 ** 30), max_value=10 ** 30).map(str),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.builds(lambda i, f, z: f"{i}.{f}{'0' * z}", st.integers(0, 999), st.integers(0, 999), st.integers(0, 2)),
    st.builds(lambda m, e, s: f"{m}{s}{e}", st.integers(1, 99), st.integers(-30, 30), st.sampled_from("eE")),
)
STRING = st.text(max_size=8).map(lambda s: json.dumps(s, ensure_ascii=False))
SCALAR = st.one_of(NUMBER, STRING, st.sampled_from(["true", "false", "null", '"1.50"', '"v2e5"', '"123456789012345678901"']))
DOC = st.recursive(SCALAR, lambda kids: st.one_of(
    st.lists(kids, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
    st.lists(st.tuples(STRING, kids), max_size=4).map(
        lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}")), max_leaves=12)


@settings(max_examples=500)
@given(DOC)
def test_same_values_as_the_regex_first_parse(text):
    data = text.encode("utf-8")
    try:
        want = typed(reference(data))
    except orjson.JSONDecodeError:
        with pytest.raises(orjson.JSONDecodeError):
            loads(data)
        return
    assert typed(loads(data)) == want


@pytest.mark.parametrize("text,want", [
    (b'{"n": 2.50}', ("Decimal", "2.50")),
    (b'{"n": 1e3}', ("Decimal", "1E+3")),
    (b'{"n": 2.5}', ("float", "2.5")),
    (b'{"n": 123456789012345678901234567890}', ("int", "123456789012345678901234567890")),
    (b'{"n": 12345678901234567}', ("int", "12345678901234567")),
    (b'{"n": 100, "s": "1.50"}', ("int", "100")),  # a string may match: the exact parse, same value
])
def test_exact_numbers(text, want):
    assert typed(loads(text))["n"] == want


@pytest.mark.parametrize("text", [b"NaN", b"[Infinity]", b'{"a": -Infinity}', b'{"a": [1, NaN]}'])
def test_non_finite_is_refused(text):
    with pytest.raises(InputError, match="is not valid JSON"):
        loads(text)
    assert isinstance(InputError("x"), orjson.JSONDecodeError)
