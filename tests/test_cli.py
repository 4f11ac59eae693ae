"""The real console script, through subprocess: outputs, stderr lines and exit codes."""

from __future__ import annotations

import json
import subprocess

from conftest import ORACLE, ddlc_command

DROP = {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s",
        "cascade": "CASCADE", "objtype": "table", "if_exists": "IF EXISTS",
        "objidentity": "public.orders", "concurrently": ""}
BAD = {"fmt": "CREATE TABLE %{identity}D (%{cols:, }s)", "identity": {"objname": "t"}, "cols": "x"}


def run(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(ddlc_command() + list(args), input=data, capture_output=True, timeout=60)


def test_translate_oracle_file(tmp_path):
    doc = json.loads((ORACLE / "opengauss-regress-create-index.json").read_text())
    f = tmp_path / "index.json"
    f.write_text(json.dumps(doc["input"]))
    p = run("translate", "--to", "gaussdb", str(f))
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode() == doc["expect"]["gaussdb_canonical"] + ";\n"
    p = run("translate", "--to", "gaussdb", "--mode", "raw", str(f))
    assert p.stdout.decode() == doc["expect"]["opengauss_raw"] + ";\n"


def test_mixed_good_and_bad_lines_exit_1_and_keep_the_good_ones():
    lines = "\n".join([json.dumps(DROP), json.dumps(BAD), "{not json", json.dumps({"TDDL": "CREATE  TABLE t (a int)"})])
    p = run("translate", "--to", "gaussdb", "-", stdin=lines + "\n")
    assert p.returncode == 1
    assert p.stdout.decode() == "DROP table IF EXISTS public.orders CASCADE;\nCREATE  TABLE t (a int);\n"
    err = [x for x in p.stderr.decode().splitlines() if x.startswith("error:")]
    assert len(err) == 2
    assert err[0].startswith("error: <stdin>:2: $.cols: ")
    assert 'element "cols" is not a JSON array' in err[0] and "DDLC-E003" in err[0]
    assert err[1].startswith("error: <stdin>:3: ") and "DDLC-E001" in err[1]
    assert "\x1b[" not in p.stderr.decode()  # plain when not a terminal


def test_json_format_contract():
    lines = json.dumps(DROP) + "\n" + json.dumps(BAD) + "\n"
    p = run("translate", "--to", "gaussdb", "--format", "json", stdin=lines)
    assert p.returncode == 1
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [r["index"] for r in rows] == [0, 1]
    assert rows[0]["sql"] == ["DROP table IF EXISTS public.orders CASCADE"]
    assert rows[0]["error"] is None and rows[0]["owner"] is None
    assert all(d["severity"] in ("note", "info") for d in rows[0]["diagnostics"])
    assert rows[0]["document"] == "<stdin>:1" and rows[0]["line"] == 1
    assert rows[1]["sql"] == [] and rows[1]["error"]["path"] == "$.cols"
    assert rows[1]["error"]["code"] == "DDLC-E003"
    assert rows[1]["error"]["fmt"] == BAD["fmt"]


def test_json_array_input_and_owner(tmp_path):
    tree = dict(DROP, myowner="omm")
    f = tmp_path / "docs.json"
    f.write_text(json.dumps([tree, {"JDDL": DROP}]))
    p = run("translate", "--format", "json", str(f))
    assert p.returncode == 0, p.stderr
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [r["owner"] for r in rows] == ["omm", None]
    assert [r["document"] for r in rows] == [f"{f}[0]", f"{f}[1]"]


def test_missing_file_is_exit_1_and_other_files_still_translate(tmp_path):
    f = tmp_path / "ok.json"
    f.write_text(json.dumps(DROP))
    p = run("translate", "--to", "gaussdb", str(tmp_path / "nope.json"), str(f))
    assert p.returncode == 1
    assert p.stdout.decode() == "DROP table IF EXISTS public.orders CASCADE;\n"
    assert "cannot read input" in p.stderr.decode()


def test_usage_errors_exit_2():
    assert run("translate", "--to", "oracle").returncode == 2
    assert run("translate", "--bogus").returncode == 2
    assert run("frobnicate").returncode == 2


def test_no_traceback_on_garbage():
    p = run("translate", stdin=b"\xff\xfe garbage \x00")
    assert p.returncode == 1
    assert b"Traceback" not in p.stderr and p.stderr.startswith(b"error: ")


def test_validate_command(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(DROP))
    p = run("validate", str(good))
    assert p.returncode == 0, p.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(DROP) + "\n" + json.dumps({"fmt": 5}) + "\n")
    p = run("validate", str(bad))
    assert p.returncode == 1
    assert f"{bad}:2: $.fmt" in p.stderr.decode()


def test_explain_text_and_json():
    tree = {"fmt": "CREATE %{or_replace}s %{persistence}s VIEW %{identity}D AS %{query}s",
            "query": "SELECT orders.id FROM public.orders;", "identity": {"objname": "v", "schemaname": "public"},
            "or_replace": "", "persistence": ""}
    p = run("explain", "--schema-map", "public=app", stdin=json.dumps(tree))
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode()
    assert out.startswith("# <stdin>") and "CreateView" in out and "'app'" in out and "app.orders" in out
    p = run("explain", "--format", "json", stdin=json.dumps(tree) + "\n" + json.dumps(BAD) + "\n")
    assert p.returncode == 1
    rows = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert rows[0]["ir"]["@"] == "CreateView" and rows[0]["error"] is None
    assert rows[1]["ir"] is None and rows[1]["error"]["path"] == "$.cols"


def test_default_schema_and_schema_map_flags():
    tree = {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s", "cascade": "",
            "objtype": "table", "if_exists": "", "objidentity": "orders", "concurrently": ""}
    p = run("translate", "--to", "gaussdb", "--default-schema", "crm", stdin=json.dumps(tree))
    assert p.stdout.decode() == "DROP table crm.orders;\n", p.stderr
    p = run("translate", "--to", "gaussdb", "--schema-map", "public=app", stdin=json.dumps(dict(tree, objidentity="public.orders")))
    assert p.stdout.decode() == "DROP table app.orders;\n", p.stderr
    assert run("translate", "--schema-map", "nonsense").returncode == 2
