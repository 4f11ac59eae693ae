"""Issue 22.6: one parser for every mapping (--schema-map, --role-map, the configuration's schema-map and the
library's schema_map/role_map): SRC=DST lists everywhere; ``a=b=c``, an empty side or entry, and a source
mapped twice to different targets are usage errors (exit 2) on the command line and ValueErrors in the
library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ddlc.check.config import ConfigError, load_config
from ddlc.options import Options, parse_mapping

ROOT = Path(__file__).resolve().parents[1]
DOC = json.dumps({"TDDL": "create table sales.t(a int)"}) + "\n" + json.dumps({"TDDL": "create table t2(a int)"})


def ddlc(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ddlc", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "NO_COLOR": "1"})


def test_schema_map_lists_as_role_map_does():
    p = ddlc("translate", "--to", "postgres", "--schema-map", "sales=s2,public=p2", stdin=DOC)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "CREATE TABLE s2.t (a integer);\nCREATE TABLE p2.t2 (a integer);\n"
    assert '"s2,public=p2"' not in p.stdout
    p = ddlc("translate", "--to", "postgres", "--schema-map", "sales=s2", "--schema-map", "public=p2", "--schema-map",
             "sales = s2", stdin=DOC)  # given again the same: said once; blanks around names ignored
    assert p.returncode == 0 and p.stdout.startswith("CREATE TABLE s2.t")


@pytest.mark.parametrize("flag", ["--schema-map", "--role-map"])
@pytest.mark.parametrize("value, words", [("sales=s2=x", "more than one '='"), ("=s2", "an empty name"),
                                          ("sales=", "an empty name"), ("sales", "no '='"),
                                          ("a=b,,c=d", "an empty entry")])
def test_malformed_mappings_are_usage_errors(flag, value, words):
    p = ddlc("translate", "--to", "postgres", flag, value, stdin=DOC)
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"Invalid value for '{flag}'" in p.stderr and words in p.stderr and p.stdout == ""


@pytest.mark.parametrize("flag", ["--schema-map", "--role-map"])
def test_a_source_mapped_twice_is_a_usage_error(flag):
    p = ddlc("translate", "--to", "postgres", flag, "sales=s2", flag, "sales=s3", stdin=DOC)
    assert p.returncode == 2 and "maps 'sales' twice, to 's2' and to 's3'" in p.stderr
    p = ddlc("translate", "--to", "postgres", flag, "sales=s2,sales=s3", stdin=DOC)
    assert p.returncode == 2 and "twice" in p.stderr


@pytest.mark.parametrize("command", [("check", "--no-config", "--targets", "postgres"), ("replay",),
                                     ("explain",), ("pipeline", "run", "--input", "x.log", "--output", "out")])
def test_every_command_reads_mappings_alike(command, tmp_path):
    p = ddlc(*command, "--schema-map", "a=b=c", "-", cwd=tmp_path) if command[0] != "pipeline" else \
        ddlc(*command, "--schema-map", "a=b=c", cwd=tmp_path)
    assert p.returncode == 2 and "more than one '='" in p.stderr, p.stderr
    if command[0] in ("check", "replay"):
        p = ddlc(*command, "--schema-map", "sales=s2,public=p2", "-", stdin=DOC, cwd=tmp_path)
        assert p.returncode == 0, p.stdout + p.stderr


def test_the_configuration_takes_the_same_forms(tmp_path):
    cfg = tmp_path / ".ddlc.toml"
    for text in ('schema-map = {sales = "s2", public = "p2"}', 'schema-map = "sales=s2,public=p2"',
                 'schema-map = ["sales=s2", "public=p2"]'):
        cfg.write_text(text + "\n")
        assert load_config(cfg).schema_map == (("sales", "s2"), ("public", "p2")), text
    for text, words in (('schema-map = "sales=s2=x"', "more than one '='"),
                        ('schema-map = ["sales=s2", "sales=s3"]', "twice"), ('schema-map = {sales = ""}', "empty"),
                        ("schema-map = 3", "schema-map must be a table")):
        cfg.write_text(text + "\n")
        with pytest.raises(ConfigError, match=words):
            load_config(cfg)
    cfg.write_text('schema-map = "sales=s2=x"\n')
    p = ddlc("check", "-", stdin=DOC, cwd=tmp_path)
    assert p.returncode == 2 and "more than one '='" in p.stderr


def test_the_library_parses_alike():
    assert parse_mapping("sales=s2,public=p2") == (("sales", "s2"), ("public", "p2"))
    with pytest.raises(TypeError, match="--schema-map"):  # a whole option as text is the flag's spelling
        Options.of(schema_map="sales=s2,public=p2")
    assert Options.of(schema_map=["sales=s2", "public=p2"]).schema_map == (("sales", "s2"), ("public", "p2"))
    assert Options.of(role_map=["a=b", ("c", "d")]).role_map == (("a", "b"), ("c", "d"))
    assert Options.of(schema_map={"a": "b"}).schema_map == (("a", "b"),)
    assert parse_mapping([("a", "b"), ("a", "b")]) == (("a", "b"),)
    for bad in ("a=b=c", "=b", "a=", "a=b,", [("a", "b"), ("a", "c")], {"a": ""}):
        with pytest.raises(ValueError):
            parse_mapping(bad)
        given = [bad] if isinstance(bad, str) else bad  # the library takes SRC=DST entries in a list
        with pytest.raises(ValueError):
            Options.of(schema_map=given)
        with pytest.raises(ValueError):
            Options.of(role_map=given)
    with pytest.raises(TypeError):
        Options.of(schema_map=3)
    with pytest.raises(TypeError):
        Options.of(schema_map=[("a", "b", "c")])
