"""ddlc.frontend.schema_fast: the validity-only checker agrees with jsonschema, and spares its import."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema._utils import equal as js_equal

from ddlc.frontend import schema, schema_fast
from ddlc.frontend.documents import read_documents
from ddlc.frontend.grammar_files import ROOT_ID, load_schemas
from ddlc.frontend.schema_fast import Unsupported, compile_schemas, is_valid

ROOT = Path(__file__).resolve().parents[1]


def _corpus() -> list[tuple[str, Any]]:
    """Every JSON document the repository holds as a fixture, by a readable name."""
    found: list[tuple[str, Any]] = []
    for path in sorted((ROOT / "fixtures" / "cases").glob("*/*/input.json")):
        found.append((path.parent.relative_to(ROOT / "fixtures" / "cases").as_posix(),
                      json.loads(path.read_text(encoding="utf-8"))))
    for path in sorted((ROOT / "fixtures" / "oracle").glob("*.json")):
        found.append((f"oracle/{path.name}", json.loads(path.read_text(encoding="utf-8"))))
    for path in sorted((ROOT / "tests" / "data").rglob("*.json")):
        found.append((path.relative_to(ROOT).as_posix(), json.loads(path.read_text("utf-8"))))
    lines = (ROOT / "tests" / "data" / "reference_trees.jsonl").read_text("utf-8").splitlines()
    found += [(f"reference:{i}", json.loads(line)["tree"]) for i, line in enumerate(lines, 1)
              if line.strip()]
    streams = [ROOT / "fixtures" / "sample" / "ddl.jsonl"]
    streams += sorted(p for p in (ROOT / "fixtures" / "streams").iterdir() if p.suffix != ".md")
    for path in streams:
        for doc in read_documents(path.read_bytes(), source=path.name):
            if doc.tree is not None:
                found.append((doc.label, doc.tree))
    return found


CORPUS = _corpus()
TREES = [tree for _, tree in CORPUS]


def _reference_valid(tree: Any) -> bool:
    return schema.validator().is_valid(tree)


# --------------------------------------------------------------------------- the fixtures


def test_corpus_is_large_and_mixed():
    verdicts = [_reference_valid(t) for t in TREES]
    assert len(TREES) > 250
    assert sum(verdicts) > 200 and verdicts.count(False) >= 10  # both answers are exercised


@pytest.mark.parametrize("name,tree", CORPUS, ids=[name for name, _ in CORPUS])
def test_fixture_verdict_matches_jsonschema(name, tree):
    assert is_valid(tree) is _reference_valid(tree)


def test_validate_answers_fixtures_as_before():
    for _, tree in CORPUS:
        problems = schema.validate(tree)
        assert (problems == []) is _reference_valid(tree)


# --------------------------------------------------------------------------- mutations

JSON_VALUES = [None, True, False, 0, 1, 1.0, -2.5, 1e300, "", "x", [], [1], {}, {"fmt": ""},
               {"fmt": "%{x}s", "x": None}, {"present": False}, {"objname": "t"},
               {"typename": "int4", "typarray": False}]
HOSTILE = ["", " ", "%", "%{", "%{x}s", "%{x}I %{y}D %{z}T %{w}L", "'; DROP TABLE t; --", '"',
           "\\", "\x00", "\n\r\t", "é\u202eabc", "𝔘nicode", "a" * 300, "CREATE %{persistence}s TABLE ",
           "ALTER %{objtype}s %{only}s ", "DROP %{objtype}s ", "UPDATE ", "DECLARE\n",
           "^CREATE", "NEWPUB x", "COMMENT ON ", "IF NOT EXISTS", "UNLOGGED", "TABLE", "1", "true"]
UNKNOWN_KEYS = ["zzz", "present", "typarray", "fmt", "myowner", "typename", "objname",
                "schema_name", "object_name", "elements", "JDDL", "TDDL", "$ref"]


def _paths(value: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, here + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _paths(child, here + (i,))
    return out


def _get(tree: Any, path: tuple) -> Any:
    for part in path:
        tree = tree[part]
    return tree


def _set(tree: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    _get(tree, path[:-1])[path[-1]] = value
    return tree


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    tree = copy.deepcopy(draw(st.sampled_from(TREES)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(tree)))
        here = _get(tree, path)
        op = draw(st.sampled_from(["delete", "retype", "hostile", "present", "unknown", "empty"]))
        if op == "delete" and path:
            del _get(tree, path[:-1])[path[-1]]
        elif op == "retype":
            tree = _set(tree, path, copy.deepcopy(draw(st.sampled_from(JSON_VALUES))))
        elif op == "hostile" and (isinstance(here, str) or draw(st.booleans())):
            tree = _set(tree, path, draw(st.sampled_from(HOSTILE) | st.text(max_size=20)))
        elif op == "present" and isinstance(here, dict):
            here["present"] = draw(st.sampled_from([False, True, 0, 1, "false", None]))
        elif op == "unknown" and isinstance(here, dict):
            here[draw(st.sampled_from(UNKNOWN_KEYS) | st.text(max_size=8))] = copy.deepcopy(
                draw(st.sampled_from(JSON_VALUES + HOSTILE[:6])))
        elif op == "empty":
            lists = [p for p in _paths(tree) if isinstance(_get(tree, p), list)]
            if lists:
                tree = _set(tree, draw(st.sampled_from(lists)), [])
    return tree


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_fixture_verdict_matches_jsonschema(tree):
    assert is_valid(tree) is _reference_valid(tree)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_envelopes_match_jsonschema(tree):
    for wrapped in ({"JDDL": tree}, {"TDDL": tree}, [tree], tree if not isinstance(tree, dict)
                    else {k: v for k, v in tree.items() if k != "fmt"}):
        assert is_valid(wrapped) is _reference_valid(wrapped)


def test_every_single_type_change_of_some_fixtures():
    """Exhaustive over paths for a few fixtures of different kinds: each value to each JSON type."""
    names = {"create_table/constraints", "alter_table/mixed-subcommands",
             "trigger/row-update-of-with-args", "view/create-or-replace"}
    picked = [t for n, t in CORPUS if n in names]
    assert len(picked) == len(names)
    checked = 0
    for tree in picked:
        for path in _paths(tree)[1:]:
            for value in (None, True, 1, 1.5, "s", [], {}):
                changed = _set(copy.deepcopy(tree), path, value)
                assert is_valid(changed) is _reference_valid(changed), path
                checked += 1
    assert checked > 100


# --------------------------------------------------------------------------- keyword semantics

ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 0.0, 1.5, float("inf"), 10**30, "", "1", "a", [],
              [1], [1.0], [True], [[1]], {}, {"a": 1}, {"a": 1.0}, {"a": True}, {"b": 1}]


@pytest.mark.parametrize("one", ODD_VALUES, ids=repr)
def test_equal_is_jsonschemas(one):
    for two in ODD_VALUES:
        assert schema_fast.equal(one, two) is js_equal(one, two), (one, two)


SMALL_SCHEMAS = [
    {"type": "integer"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"},
    {"type": "string"}, {"type": "array"}, {"type": "object"}, {"type": ["null", "object"]},
    {"const": 1}, {"const": True}, {"const": False}, {"const": "a"}, {"const": [1]},
    {"const": {"a": 1}}, {"const": None}, {"enum": [1, "a", None]}, {"enum": [True, [1]]},
    {"enum": ["1", "a"]}, {"pattern": "^a"}, {"pattern": "1"}, {"minItems": 1},
    {"required": ["a"]}, {"properties": {"a": {"type": "string"}}},
    {"properties": {"a": True}, "additionalProperties": False},
    {"additionalProperties": {"type": "integer"}}, {"items": {"type": "number"}},
    {"not": {"type": "array"}}, {"anyOf": [{"type": "string"}, {"minItems": 2}]},
    {"allOf": [{"type": "array"}, {"items": {"const": 1}}]},
    {"if": {"type": "object"}, "then": {"required": ["b"]}},
    {"if": {"type": "object"}, "else": {"type": "string"}},
    {"then": {"type": "string"}}, True, False, {"title": "only annotations", "examples": [1]},
    {"$defs": {"n": {"type": "number"}}, "items": {"$ref": "#/$defs/n"}},
    {"$defs": {"t": {"items": {"$ref": "#/$defs/t"}, "type": ["array", "integer"]}},
     "$ref": "#/$defs/t"},
]


@pytest.mark.parametrize("small", SMALL_SCHEMAS, ids=lambda s: json.dumps(s)[:50])
def test_keyword_semantics_are_jsonschemas(small):
    uri = "https://example.test/s.json"
    doc = {"$id": uri, **small} if isinstance(small, dict) else small
    check = compile_schemas({uri: doc}, uri)
    reference = Draft202012Validator(doc)
    for value in ODD_VALUES + [[[1, 2]], [1, 2], ["a", 2], {"b": 1, "a": "x"}, "ab", "ba"]:
        assert check(value) is reference.is_valid(value), value


# --------------------------------------------------------------------------- refusing to build


@pytest.mark.parametrize("extra", [{"minLength": 1}, {"format": "uri"}, {"prefixItems": [True]},
                                   {"$anchor": "x"}, {"unevaluatedProperties": False},
                                   {"patternProperties": {"^a": True}}, {"$dynamicRef": "#x"},
                                   {"oneOf": [True]}, {"$id": "https://example.test/inner"}])
def test_unknown_keyword_anywhere_refuses_the_build(extra):
    schemas = load_schemas()
    alter = schemas["https://ddlc.dev/grammars/v1/statements/alter_table.schema.json"]
    deep = next(iter(alter["$defs"].values()))
    deep.setdefault("properties", {})["zzz"] = {"type": "string", **extra}  # never reached
    with pytest.raises(Unsupported):
        compile_schemas(schemas, ROOT_ID)


@pytest.mark.parametrize("ref", ["#/$defs/nope", "other.schema.json", "#anchor", "#/$defs/~2"])
def test_dangling_ref_refuses_the_build(ref):
    schemas = load_schemas()
    schemas[ROOT_ID]["$defs"]["unused"] = {"$ref": ref}
    with pytest.raises(Unsupported):
        compile_schemas(schemas, ROOT_ID)


def test_current_grammars_build():
    compile_schemas(load_schemas(), ROOT_ID)
    assert schema_fast.root_check() is schema_fast.root_check()


def test_validate_falls_back_when_the_fast_checker_fails(monkeypatch):
    def broken(tree):
        raise Unsupported("pretend a grammar grew a keyword")

    monkeypatch.setattr(schema_fast, "is_valid", broken)
    valid = next(t for t in TREES if _reference_valid(t))
    invalid = next(t for t in TREES if not _reference_valid(t))
    assert schema.validate(valid) == []
    assert schema.validate(invalid) != []


def test_deep_tree_fits_the_validate_stack():
    tree: dict = {"fmt": "%{x}s", "x": "leaf"}
    for _ in range(255):
        tree = {"fmt": "%{x:}s", "x": [tree]}
    with schema._stack_for(256):
        assert is_valid(tree) is True  # no RecursionError: the fast path answers deep trees too


# --------------------------------------------------------------------------- the point of it all


def _run(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_valid_documents_do_not_import_jsonschema():
    valid = [t for t in TREES if _reference_valid(t)][:40] + [{"JDDL": TREES[0]}]
    _run(
        "import json, sys\n"
        "import ddlc.frontend.schema as s\n"
        f"trees = json.loads({json.dumps(json.dumps(valid))})\n"
        "assert all(s.validate(t, document='d') == [] for t in trees)\n"
        "bad = [m for m in ('jsonschema', 'referencing', 'rpds', 'attrs') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )


def test_invalid_documents_still_get_jsonschemas_errors():
    _run(
        "import sys\n"
        "import ddlc.frontend.schema as s\n"
        "(err,) = s.validate({'fmt': 'CREATE SCHEMA %{name}I', 'name': True})\n"
        "assert err.path == ('name',) and 'booleans are only allowed' in err.message, err\n"
        "assert 'jsonschema' in sys.modules\n"
    )


_SEGMENTS = st.sampled_from(["a", "b.json", "..", ".", "statements", "x.schema.json", "", "%41"])


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["https://ddlc.dev/grammars/v1/jddl.schema.json",
                        "https://ddlc.dev/grammars/v1/statements/create_table.schema.json",
                        "https://ddlc.dev/grammars/v1/statements/create_table.schema.json#/$defs/x",
                        "https://ddlc.dev/", "https://ddlc.dev"]),
       st.lists(_SEGMENTS, max_size=4),
       st.sampled_from(["", "#", "#/$defs/node", "#/a~1b/0"]))
def test_urljoin_equals_urllib(base, segments, fragment):
    """schema_fast's urljoin (no urllib.parse at start-up) gives what urllib.parse.urljoin gives."""
    from urllib.parse import urljoin as full

    from ddlc.frontend.schema_fast import urljoin

    ref = "/".join(segments) + fragment
    assert urljoin(base, ref) == full(base, ref)
