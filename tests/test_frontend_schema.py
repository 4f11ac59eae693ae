"""The JSON Schemas in grammars/ and ddlc.frontend.schema (statement_kind, validate)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ddlc.diagnostics import E_SCHEMA
from ddlc.errors import DdlcError
from ddlc.frontend import schema
from ddlc.frontend.schema import KINDS, statement_kind, validate

ROOT = Path(__file__).resolve().parents[1]
GRAMMARS = ROOT / "grammars"
STATEMENTS = GRAMMARS / "statements"
REFERENCE_TREES = Path(__file__).with_name("data") / "reference_trees.jsonl"
ORACLES = sorted((ROOT / "fixtures" / "oracle").glob("*.json"))


def _reference() -> list[dict]:
    lines = REFERENCE_TREES.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


REFERENCE = _reference()


def _ref_tree(section: str, fmt_start: str) -> dict:
    for rec in REFERENCE:
        if rec["section"] == section and rec["tree"]["fmt"].startswith(fmt_start):
            return copy.deepcopy(rec["tree"])
    raise LookupError(section, fmt_start)


def _paths(tree) -> list[tuple]:
    return [e.path for e in validate(tree)]


GAUSSDB_TREE = {
    "fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s "
    "%{with_clause}s %{compression}s",
    "identity": {"object_name": "test_create_table_a", "schema_name": "public"},
    "compression": "NOCOMPRESS",
    "persistence": "",
    "with_clause": {
        "fmt": "WITH (%{with:, }s)",
        "with": [
            {"fmt": "%{label}s = %{value}L", "label": {"fmt": "%{label}I", "label": "orientation"},
             "value": "row"},
            {"fmt": "%{label}s = %{value}L", "label": {"fmt": "%{label}I", "label": "compression"},
             "value": "no"},
        ],
    },
    "if_not_exists": "",
    "table_elements": {
        "fmt": "(%{elements:, }s)",
        "elements": [{
            "fmt": "%{name}I %{column_type}T",
            "name": "a",
            "column_type": {"typmod": "", "typarray": False, "type_name": "int4",
                            "schema_name": "pg_catalog"},
        }],
    },
}


# --------------------------------------------------------------------------- the schema files


def _schema_files() -> list[Path]:
    return sorted(GRAMMARS.rglob("*.schema.json"))


@pytest.mark.parametrize("path", _schema_files(), ids=lambda p: p.stem)
def test_schema_file_is_a_valid_2020_12_schema(path):
    from jsonschema import Draft202012Validator

    doc = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert doc["$id"].startswith("https://ddlc.dev/grammars/v1/")
    assert doc["$id"].endswith(path.relative_to(GRAMMARS).as_posix())


def test_one_statement_schema_per_kind():
    kinds = [k for k, _ in KINDS]
    assert len(kinds) == len(set(kinds)) == 19
    stems = sorted(p.name.removesuffix(".schema.json") for p in STATEMENTS.glob("*.schema.json"))
    assert stems == sorted(kinds)


@pytest.mark.parametrize("kind", [k for k, _ in KINDS])
def test_statement_schema_uses_shared_defs_and_kind_pattern(kind):
    text = (STATEMENTS / f"{kind}.schema.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    assert doc["$ref"] == "../jddl.schema.json#/$defs/node"
    assert doc["properties"]["fmt"]["pattern"] == dict(KINDS)[kind]
    assert '"$ref": "../jddl.schema.json#/$defs/' in text


def test_root_dispatch_matches_python_table():
    root = json.loads((GRAMMARS / "jddl.schema.json").read_text(encoding="utf-8"))
    assert root["$id"] == schema.ROOT_ID
    allof = root["$defs"]["tree"]["allOf"]
    known = [alt["pattern"] for alt in allof[0]["if"]["properties"]["fmt"]["anyOf"]]
    dispatch = [(a["then"]["$ref"], a["if"]["properties"]["fmt"]["pattern"]) for a in allof[1:]]
    assert known == [p for _, p in KINDS]
    assert dispatch == [(f"statements/{k}.schema.json", p) for k, p in KINDS]
    defs = root["$defs"]
    for name in ("node", "qualifiedName", "typeName", "columnDefinition", "constraintElement",
                 "withOption", "commentLiteral", "sequenceOption", "functionSignature"):
        assert name in defs


def test_validator_is_built_once():
    assert schema.validator() is schema.validator()


# --------------------------------------------------------------------------- real inputs


def test_oracles_found():
    assert len(ORACLES) >= 4, f"no oracle documents in {ORACLE_DIR}"


@pytest.mark.parametrize("path", ORACLES, ids=lambda p: p.stem)
def test_oracle_input_validates(path):
    doc = json.loads(path.read_text(encoding="utf-8"))["input"]
    assert validate(doc, document=path.name) == []
    assert statement_kind(doc) in {"create_table", "create_index", "drop"}


def test_reference_corpus_is_complete():
    assert len(REFERENCE) == 63
    assert {rec["kind"] for rec in REFERENCE} == {k for k, _ in KINDS}


@pytest.mark.parametrize(
    "rec", REFERENCE, ids=[f"{r['section']}-{i}-{r['kind']}" for i, r in enumerate(REFERENCE)]
)
def test_reference_tree(rec):
    tree = rec["tree"]
    assert statement_kind(tree) == rec["kind"]
    assert statement_kind({"JDDL": tree}) == rec["kind"]
    assert [str(e) for e in validate(tree, document="reference")] == []
    matching = [k for k, p in KINDS if re.search(p, tree["fmt"])]
    assert matching == [rec["kind"]], "kind patterns must be mutually exclusive"


def test_set_statistics_percent_is_schema_valid_but_does_not_expand():
    from ddlc.jddl.expand import expand

    (rec,) = [r for r in REFERENCE if r.get("expands") is False]
    assert validate(rec["tree"]) == []
    with pytest.raises(DdlcError, match='expected JSON numeric for %n element "column"'):
        expand(rec["tree"])


# --------------------------------------------------------------------------- violations


def test_fmt_not_a_string():
    errors = validate({"fmt": 5}, document="doc#1")
    assert [e.path for e in errors] == [("fmt",)]
    (err,) = errors
    assert err.code == E_SCHEMA and err.document == "doc#1"
    assert "expected a string, got a number" in err.message
    assert str(err) == "doc#1: $.fmt: expected a string, got a number [DDLC-E005]"


def test_missing_fmt():
    assert _paths({"identity": {"objname": "t"}}) == [()]
    assert _paths({"fmt": "x", "clause": {"present": False}}) == [("clause",)]


def test_coltype_without_typarray():
    tree = _ref_tree("5.1", "CREATE")
    del tree["table_elements"]["elements"][1]["coltype"]["typarray"]
    (err,) = validate(tree)
    assert err.path == ("table_elements", "elements", 1, "coltype")
    assert '"typarray"' in err.message


def test_typarray_not_boolean():
    tree = _ref_tree("5.1", "CREATE")
    tree["table_elements"]["elements"][0]["coltype"]["typarray"] = "false"
    assert _paths(tree) == [("table_elements", "elements", 0, "coltype", "typarray")]


def test_gaussdb_dialect_validates():
    assert validate(GAUSSDB_TREE) == []
    assert validate({"JDDL": GAUSSDB_TREE}) == []
    assert statement_kind(GAUSSDB_TREE) == statement_kind({"JDDL": GAUSSDB_TREE}) == "create_table"


def test_gaussdb_dialect_violation_paths():
    tree = copy.deepcopy(GAUSSDB_TREE)
    del tree["table_elements"]["elements"][0]["column_type"]["typarray"]
    tree["compression"] = 1
    assert _paths({"JDDL": tree}) == [
        ("JDDL", "compression"),
        ("JDDL", "table_elements", "elements", 0, "column_type"),
    ]


def test_column_needs_a_type_in_either_dialect():
    tree = copy.deepcopy(GAUSSDB_TREE)
    del tree["table_elements"]["elements"][0]["column_type"]
    (err,) = validate(tree)
    assert err.path == ("table_elements", "elements", 0)
    assert '"coltype"' in err.message


def test_qualified_name_needs_objname():
    tree = {"fmt": "NEWPUB %{objtype}s %{identity}D", "objtype": "table",
            "identity": {"schemaname": "s"}}
    (err,) = validate(tree)
    assert err.path == ("identity",) and '"objname"' in err.message
    tree["identity"] = {"schema_name": "s", "object_name": "t"}
    assert validate(tree) == []


def test_tddl_envelope():
    assert validate({"TDDL": "CREATE TABLE t (a int)"}) == []
    assert statement_kind({"TDDL": "CREATE TABLE t (a int)"}) is None
    assert _paths({"TDDL": 5}) == [("TDDL",)]


def test_jddl_envelope_paths_start_with_jddl():
    tree = _ref_tree("5.4", "DROP")
    tree["cascade"] = "RESTRICT"
    assert _paths({"JDDL": tree}) == [("JDDL", "cascade")]
    assert _paths({"JDDL": 5}) == [("JDDL",)]


def test_not_an_object():
    assert _paths([1, 2]) == [()]


def test_booleans_only_in_present_and_typarray():
    errors = validate({"fmt": "DROP TABLE t %{cascade}s", "cascade": True})
    assert [e.path for e in errors] == [("cascade",)]
    assert "booleans are only allowed" in errors[0].message
    assert _paths({"fmt": "x", "present": "no"}) == [("present",)]


def test_null_only_inside_not_present_objects():
    tree = _ref_tree("5.6", "ALTER")  # OWNED BY NONE: "owner": null with "present": false
    owned = next(r["tree"] for r in REFERENCE if r["kind"] == "alter_sequence"
                 and any(d.get("owner", 0) is None for d in r["tree"]["definition"]))
    assert validate(owned) == []
    broken = copy.deepcopy(owned)
    broken["definition"][0]["present"] = True
    assert _paths(broken) == [("definition", 0, "owner")]
    tree["large"] = None
    assert _paths(tree) == [("large",)]


def test_persisted_generated_column_dummy_coltype():
    tree = _ref_tree("5.1", "CREATE")
    col = tree["table_elements"]["elements"][0]
    col["fmt"] = "%{name}I %{default}s %{not_null}s %{generated_column}s %{collation}s"
    col["coltype"] = {"typmod": "", "present": False, "typename": "", "schemaname": ""}
    assert validate(tree) == []


def test_unknown_kind_is_checked_generically():
    tree = {"fmt": "CREATE MATERIALIZED VIEW %{identity}D", "identity": {"objname": "mv"}, "n": 1.5}
    assert statement_kind(tree) is None
    assert validate(tree) == []
    tree["identity"] = {"objname": 7}
    assert _paths(tree) == [("identity", "objname")]


def test_extra_keys_are_allowed():
    tree = _ref_tree("5.5", "CREATE")
    tree["gaussdb_only"] = {"fmt": "DISTRIBUTE BY HASH (%{cols:, }I)", "cols": ["id"]}
    tree["table"]["extra"] = "x"
    assert validate(tree) == []


def test_subcommand_violations_and_sorting():
    tree = _ref_tree("5.2", "ALTER %{objtype}s %{only}s %{identity}D")
    tree["objtype"] = "TABEL"
    del tree["subcmds"][1]["column"]  # SET NOT NULL without its column
    tree["subcmds"][2]["cascade"] = "CASCADE"  # DROP COLUMN wants the CASCADE object
    errors = validate(tree, document="t.json")
    assert [e.path for e in errors] == [
        ("objtype",),
        ("subcmds", 1),
        ("subcmds", 2, "cascade"),
    ]
    assert "set not null" in errors[1].message
    assert all(e.code == E_SCHEMA and e.document == "t.json" for e in errors)


def test_statement_required_members():
    tree = _ref_tree("5.10", "CREATE")
    del tree["relation"]
    tree["events"] = []
    assert _paths(tree) == [(), ("events",)]


def test_followup_shapes():
    update = _ref_tree("5.3", "UPDATE")
    del update["default"]
    assert _paths(update) == [()]
    block = _ref_tree("5.3", "DECLARE")
    block["seqname"] = "db1.seq"
    assert _paths(block) == [("seqname",)]


def test_sequence_option_values_are_decimal_strings():
    tree = _ref_tree("5.6", "CREATE")
    tree["definition"][0]["value"] = 5
    tree["definition"][4]["value"] = "1e9"
    assert _paths(tree) == [("definition", 0, "value"), ("definition", 4, "value")]


def test_statement_kind_edge_cases():
    assert statement_kind({"fmt": 5}) is None
    assert statement_kind({"JDDL": "x"}) is None
    assert statement_kind([]) is None  # type: ignore[arg-type]
    assert statement_kind({"fmt": "ALTER FUNCTION %{signature}s"}) == "alter_function"
    set_schema = {"fmt": "ALTER %{objtype}s %{identity}s SET SCHEMA %{newschema}I"}
    assert statement_kind(set_schema) == "set_schema"
    assert statement_kind({"fmt": "ALTER %{objtype}s %{identity}D RENAME COLUMN %{c}I"}) == "rename"


def _nested(levels: int, leaf: object = "leaf") -> dict:
    tree: dict = {"fmt": "%{x}s", "x": leaf}
    for _ in range(levels - 1):
        tree = {"fmt": "%{x:}s", "x": [tree]}
    return tree


def test_deep_trees_up_to_the_expander_bound():
    assert validate(_nested(256)) == []
    (err,) = validate(_nested(256, leaf=True))
    assert err.path == ("x", 0) * 255 + ("x",)
    (err,) = validate(_nested(257), document="deep")
    assert err.code == E_SCHEMA and "deeper than 256" in err.message and err.document == "deep"
    assert len(err.path) == 2 * 256
    assert sys.getrecursionlimit() < 5000  # raised only while validating


def test_import_does_not_load_jsonschema():
    code = (
        "import sys, ddlc.frontend.schema as s\n"
        "assert s.statement_kind({'fmt': 'NEWPUB %{objtype}s %{identity}D'}) == 'newpub'\n"
        "bad = [m for m in ('jsonschema', 'referencing') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
