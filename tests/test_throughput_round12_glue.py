"""Throughput round 12 (issue 26): the glue's per-call and per-document costs, old beside new.

* ``ddlc.api._options`` gives the one :class:`~ddlc.options.Options` of the defaults, made and checked once, when
  every option keyword is its default object itself; any other value is made by ``Options.of`` as before. The
  run's per-target tables keyed on the Options (``ddlc.compiler._target``: the passes' plans, the target's
  settings) are then made once for every call with the defaults. Compared with ``Options.of`` (the former reading)
  on hostile keyword values, and every fixture translated by calls with the defaults against calls each given a
  fresh ``Options.of()`` (the former route: new tables at every call), on every target.
"""

from __future__ import annotations

import glob
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddlc
from ddlc import api
from ddlc.options import Options

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "**" / "input.json"), recursive=True))
TARGETS = ("postgres", "gaussdb", "spark")
OPTION_KEYS = sorted(api._KWDEFAULTS)


def _former(given: dict) -> Options:
    """``_options(None, given)`` as it was at da28a32."""
    return Options.of(**given)


def _outcome(fn, given: dict):
    try:
        return ("ok", fn(dict(given)))
    except Exception as exc:  # noqa: BLE001 - the same error, type and message, is part of the behaviour
        return ("error", type(exc), str(exc))


def _given(**kw) -> dict:
    """What ``translate_many`` hands ``_options`` for these keywords (its locals, the rest at their defaults)."""
    args = {"docs": None, "target": "postgres", "state": None, "options": None,
            **(ddlc.translate_many.__kwdefaults__ or {}), "target_options": {}}
    for k, v in kw.items():
        if k in args:
            args[k] = v
        else:
            args["target_options"][k] = v
    return api._given(args)


def test_the_keywords_are_translate_and_translate_many_s_option_keywords() -> None:
    many = set(ddlc.translate_many.__kwdefaults__) - api._NOT_OPTIONS
    one = set(ddlc.translate.__kwdefaults__) - api._NOT_OPTIONS
    assert set(api._KWDEFAULTS) == many == one


def test_the_defaults_give_one_options_equal_to_the_former() -> None:
    first = api._options(None, _given())
    assert first == _former(_given())
    assert api._options(None, _given()) is first
    assert api._options(None, api._given({"doc": 1, "target": "gaussdb", "options": None,
                                          **(ddlc.translate.__kwdefaults__ or {}), "target_options": {}})) == first


# values equal to a default but not the default object, of the right type or not: Options.of decides each
EQUAL_NOT_SAME = [
    ("validate", 0), ("validate", 0.0), ("pretty", 0), ("owners", 0), ("no_owner", False.__class__(0)),
    ("default_schema", "".join(["pub", "lic"])), ("mode", "".join(["canon", "ical"])),
    ("on_unsupported", "".join(["wa", "rn"])), ("schema_map", []), ("schema_map", {}), ("role_map", []),
    ("exclude_users", []), ("exclude_users", ""), ("white_table_list", ""), ("schema_regex", ""),
]


@pytest.mark.parametrize(("key", "value"), EQUAL_NOT_SAME)
def test_a_value_equal_to_a_default_is_made_as_before(key: str, value) -> None:
    given = _given(**{key: value})
    assert _outcome(lambda g: api._options(None, g), given) == _outcome(_former, given)


HOSTILE_TEXT = st.sampled_from(["", "'", '"', "\\", "$$", "--", "/*", "\n", "é", "public", "canonical", "warn",
                                "x'; DROP TABLE t; --", "a\x00b", "\ud800"]) | st.text(max_size=12)
VALUES = (st.none() | st.booleans() | st.integers(-2, 2) | HOSTILE_TEXT
          | st.lists(HOSTILE_TEXT, max_size=3) | st.tuples(HOSTILE_TEXT, HOSTILE_TEXT)
          | st.lists(st.tuples(HOSTILE_TEXT, HOSTILE_TEXT), max_size=2).map(tuple)
          | st.dictionaries(HOSTILE_TEXT, HOSTILE_TEXT, max_size=2))


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from([*OPTION_KEYS, "spark_varchar", "no_such_option"]), VALUES, max_size=3))
def test_hostile_keywords_are_made_as_before(kw: dict) -> None:
    given = _given(**kw)
    assert _outcome(lambda g: api._options(None, g), given) == _outcome(_former, given)


def _documents() -> list[bytes]:
    out = []
    for f in CASES:
        data = Path(f).read_bytes()
        try:
            orjson.loads(data)
        except orjson.JSONDecodeError:
            continue
        out.append(data)
    return out


def _plain(results) -> list:
    return [(t.statements, t.owner, tuple(str(d.to_dict()) for d in t.diagnostics),
             None if t.error is None else str(t.error.to_dict()), t.comments, t.untranslated, t.blocks, t.filtered,
             t.kind, t.object) for t in results]


@pytest.mark.parametrize("target", TARGETS)
def test_every_fixture_is_translated_as_with_fresh_options_at_every_call(target: str) -> None:
    docs = _documents()
    assert len(docs) > 200
    chunks = [docs[i:i + 37] for i in range(0, len(docs), 37)]
    for _ in range(2):  # (the second time round: every table made at the first calls reused)
        new = [r for c in chunks for r in ddlc.translate_many(c, target=target)]
        old = [r for c in chunks for r in ddlc.translate_many(c, target=target, options=Options.of())]
        assert _plain(new) == _plain(old)
    # one document a call (each its own history)
    one = [r for d in docs[:60] for r in ddlc.translate_many([d], target=target)]
    fresh = [r for d in docs[:60] for r in ddlc.translate_many([d], target=target, options=Options.of())]
    assert _plain(one) == _plain(fresh)
