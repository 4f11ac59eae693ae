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


# ---- the per-document path: _normalize written out in _compile_statement, as_document without _load's frame -----
# * ``ddlc.compiler._compile_statement`` without a shared part runs the passes' loop (run_pipeline's) and the
#   deferred parses' class test itself, and hands the frontend's diagnostics on as they are when nothing else was
#   said: compared with ``_normalize`` (run_pipeline, then parse_pending: the former route), and the whole results
#   with the route through ``_normalize`` (``shared``), on every fixture, every target.
# * ``_one_statement_as_written`` is called only for the classes it reads (its own isinstance test first).
# * ``as_document`` reads bytes by ``_load``'s two routes written out: compared with the former reading on every
#   fixture's bytes and on generated JSON texts (floats, exponents, escapes of NUL and of lone surrogates, invalid
#   UTF-8, NaN, nesting, trailing text, non-ASCII, quotes, backslashes, "$$", "--", "/*", newlines).

from ddlc import compiler  # noqa: E402
from ddlc.backends import get_backend  # noqa: E402
from ddlc.frontend import documents  # noqa: E402
from ddlc.frontend.jsonload import load as _former_load  # noqa: E402
from ddlc.history import Catalog  # noqa: E402


def _spy_of(backend):
    seen = []

    class Spy(type(backend)):
        def emit(self, stmt, ctx):
            seen.append(stmt)
            return super().emit(stmt, ctx)

    return Spy(), seen


def _result(r) -> tuple:
    return (r.statements, r.owner, tuple(str(d.to_dict()) for d in r.diagnostics), r.comments,
            None if r.error is None else str(r.error.to_dict()), r.untranslated, r.blocks, r.filtered, r.kind,
            r.object)


@pytest.mark.parametrize("target", TARGETS)
def test_the_written_out_normalize_equals_the_former(target: str) -> None:
    options = Options.of()
    spy, seen = _spy_of(get_backend(target))
    t = compiler._target(options, spy)
    new_catalog, old_catalog = Catalog(), Catalog()
    compared = 0
    for data in _documents():
        doc = documents.as_document(data)
        try:
            f = compiler.front(doc, options, source=spy.passes_source_text)
        except Exception:  # noqa: BLE001 - a document the frontend refuses never reaches the passes
            continue
        if not spy.passes_source_text and isinstance(f.stmt, compiler.Opaque):
            f = compiler._read_back(f, doc.label)
        del seen[:]
        try:
            new = compiler._compile_statement(t, f.stmt, spy, options, new_catalog, doc.label, f, f.owner, None)
        except Exception as exc:  # noqa: BLE001 - the same failure either way
            new = ("error", type(exc), str(exc))
        emitted = list(seen)
        del seen[:]
        try:
            old = compiler._compile_statement(t, f.stmt, spy, options, old_catalog, doc.label, f, f.owner, {})
        except Exception as exc:  # noqa: BLE001
            old = ("error", type(exc), str(exc))
        assert (new if type(new) is tuple else _result(new)) == (old if type(old) is tuple else _result(old))
        if emitted:  # what the passes and deferred parses made of it: as _normalize (run_pipeline) makes it
            stmt, diags = compiler._normalize(t, f.stmt, spy, doc.label, Catalog(), None)
            assert emitted[0] == stmt
            if type(new) is not tuple:
                assert new.diagnostics[:len(f.diagnostics) + len(diags)] == (*f.diagnostics, *diags)
                assert type(new.diagnostics) is tuple
            compared += 1
    assert compared > 150


def _former_as_document(doc, *, index: int = 0, source: str = "<input>"):
    """as_document's bytes route as it was at da28a32."""
    data = doc.encode("utf-8", "surrogatepass") if type(doc) is str else bytes(doc)
    if data.startswith(b"{"):
        try:
            value, suspect = _former_load(data)
        except orjson.JSONDecodeError:
            pass
        else:
            if type(value) is dict and not suspect and "fmt" in value:
                return documents.Document(index, source, source, 1, value)
            if isinstance(value, dict):
                return documents.classify(value, index=index, source=source, label=source, check=suspect)
    return documents._read_one(data, index, source)


def _doc(d) -> tuple:
    return (d.index, d.source, d.label, d.line, d.tree, d.tddl, None if d.error is None else str(d.error.to_dict()),
            dict(d.meta), d.lsn, d.xid, d.position)


def _same_document(data) -> None:
    def run(fn):
        try:
            return ("ok", _doc(fn(data, index=3, source="<input 3>")))
        except Exception as exc:  # noqa: BLE001
            return ("error", type(exc), str(exc))

    assert run(documents.as_document) == run(_former_as_document)


def test_as_document_reads_every_fixture_as_before() -> None:
    files = sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.json"), recursive=True))
    assert len(files) > 200
    for f in files:
        data = Path(f).read_bytes()
        _same_document(data)
        _same_document(data.decode("utf-8", "surrogateescape"))
        _same_document(bytearray(data))


HOSTILE_JSON_STRING = st.sampled_from([
    "", "'", "''", '\\"', "\\\\", "$$", "$x$", "--", "/*", "*/", "\\n", "\\r\\n", "\\u0000", "\\ud800", "\\udfff",
    "\\ud83d\\ude00", "é", "\\u00e9", "x'; DROP TABLE t; --", "\t", "日本"]) | st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters='"\\'), max_size=8)
NUMBER = st.sampled_from(["1", "-0", "2.50", "1e3", "1E-2", "0.1", "123456789012345678901234567890", "NaN",
                          "Infinity", "9e999999999", "1.0", "00"])


@st.composite
def json_texts(draw) -> bytes:
    members = []
    if draw(st.booleans()):
        members.append('"fmt":"' + draw(HOSTILE_JSON_STRING) + '"')
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(["fmt", "JDDL", "TDDL", "myowner", "objname", "x"]))
        kind = draw(st.integers(0, 3))
        if kind == 0:
            value = '"' + draw(HOSTILE_JSON_STRING) + '"'
        elif kind == 1:
            value = draw(NUMBER)
        elif kind == 2:
            value = "[" + ",".join(draw(st.lists(NUMBER, max_size=3))) + "]"
        else:
            value = '{"fmt":"' + draw(HOSTILE_JSON_STRING) + '","n":' + draw(NUMBER) + "}"
        members.append('"' + key + '":' + value)
    text = "{" + ",".join(members) + "}" + draw(st.sampled_from(["", " ", "\n", "x", "}", "\n{}", ",", "\ufeff"]))
    data = text.encode("utf-8")
    cut = draw(st.sampled_from([None, 0, 1, 7]))
    if cut is not None and len(data) > cut:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\\", b'"'])) + data[i:]
    return data


@settings(max_examples=1500, deadline=None)
@given(json_texts())
def test_as_document_reads_generated_json_as_before(data: bytes) -> None:
    _same_document(data)
    _same_document(b"{" * 3 + data + b"}" * 3)


def test_as_document_reads_deep_nesting_as_before() -> None:
    for depth in (10, 500, 1100, 5000):
        _same_document(b'{"fmt":"x","a":' + b"[" * depth + b"]" * depth + b"}")
        _same_document(b'{"fmt":"x","a":' + b'{"b":' * depth + b"1.5" + b"}" * depth + b"}")
