"""Library edges a new user meets (issue 22, item 7): options checked however they are made, keywords
with options=, paths given to translate_many."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import ddlc
from ddlc.options import Options

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "fixtures" / "cases" / "drop" / "table-if-exists-cascade" / "input.json"
RENAME = '{"fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "newname": "sales_old", "identity": "sales"}'


def test_options_are_checked_however_they_are_made():
    with pytest.raises(ValueError, match="mode must be one of"):
        Options(mode="rawx")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mode must be one of"):
        dataclasses.replace(Options.of(), mode="rawx")
    with pytest.raises(TypeError, match="validate must be True or False"):
        Options(validate="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="spark_varchar must be one of"):
        Options(target_options=(("spark_varchar", "text"),))
    assert Options(schema_map={"a": "b"}).schema_map == (("a", "b"),)  # written in its one form
    assert Options(schema_map=["a=b", "c=d"]) == Options.of(schema_map={"a": "b", "c": "d"})
    assert Options(target_options={"spark_varchar": "keep"}).target_options == ()  # the default is no change


def test_keywords_with_options_are_set_over_it():
    opts = Options.of(mode="canonical", schema_map={"sales": "x"})
    t = ddlc.translate(RENAME, "postgres", options=opts, schema_map={"sales": "y"})
    assert t.sql == "ALTER SCHEMA y RENAME TO sales_old;\n"
    t = ddlc.translate(RENAME, "postgres", options=opts)  # nothing set over it
    assert t.sql == "ALTER SCHEMA x RENAME TO sales_old;\n"
    raw = ddlc.translate(DOC.read_text(), "gaussdb", options=Options.of(), mode="raw")
    assert raw.sql == ddlc.translate(DOC.read_text(), "gaussdb", mode="raw").sql
    assert Options.of(spark_varchar="string").merged(spark_catalog="main").spark_varchar == "string"
    with pytest.raises(ValueError, match="mode must be one of"):
        ddlc.translate(RENAME, "postgres", options=opts, mode="rwa")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="options must be an Options"):
        ddlc.translate(RENAME, "postgres", options={"mode": "raw"})  # type: ignore[arg-type]


def test_translate_many_reads_a_path(tmp_path):
    f = tmp_path / "ddl.jsonl"
    f.write_text(DOC.read_text().replace("\n", " ") + "\n" + RENAME + "\n")
    for given in (f, str(f)):
        out = list(ddlc.translate_many(given, "postgres"))
        assert [r.sql for r in out] == ["DROP TABLE IF EXISTS public.orders CASCADE;\n",
                                        "ALTER SCHEMA sales RENAME TO sales_old;\n"]
        assert out[0].source == str(f) and out[1].line == 2
    with pytest.raises(FileNotFoundError):
        list(ddlc.translate_many(tmp_path / "missing.jsonl", "postgres"))
    # a string that is a document stays a document, even if a file of that name existed
    assert [r.ok for r in ddlc.translate_many(RENAME, "postgres")] == [True]
