"""Filters with the databases' own syntax and meaning: white-table-list, a schema regex, exclude-users."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import ddlc
from ddlc.api import Options


def _table(schema: str, name: str, owner: str | None = None) -> dict:
    d = {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s", "persistence": "",
         "if_not_exists": "", "identity": {"objname": name, "schemaname": schema},
         "table_elements": {"fmt": "(%{elements:, }s)", "elements": [
             {"fmt": "%{name}I %{coltype}T", "name": "a", "type": "column",
              "coltype": {"typmod": "", "typarray": False, "typename": "int4", "schemaname": "pg_catalog"}}]}}
    if owner:
        d["myowner"] = owner
    return d


def _schema(name: str) -> dict:
    return {"fmt": "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s", "if_not_exists": "",
            "name": name, "authorization": {"fmt": "AUTHORIZATION %{authorization_role}I", "present": False},
            "blockchain": {"fmt": "WITH BLOCKCHAIN %{blockchain}s", "present": False}}


DOCS = [_schema("my_schema"), _table("public", "t1", "alice"), _table("public", "t2", "bob"),
        _table("other", "t3"), _table("my_schema", "x"), _table("other", "t4")]


def kept(**opts) -> list[tuple[str, str | None]]:
    return [(t.statements[0] if t.statements else "", t.filtered)
            for t in ddlc.translate_many([json.dumps(d) for d in DOCS], target="postgres", **opts)]


def test_white_table_list_as_gaussdb():
    got = kept(white_table_list="public.t1,*.t3,my_schema.*")
    assert [s for s, f in got if f is None] == [
        "CREATE SCHEMA my_schema",  # no table: kept, as the server decodes it
        "CREATE TABLE public.t1 (a integer)", "CREATE TABLE other.t3 (a integer)",
        "CREATE TABLE my_schema.x (a integer)"]
    assert [f for _, f in got if f] == ["white-table-list: public.t2 is not listed",
                                       "white-table-list: other.t4 is not listed"]


def test_schema_regex_and_exclude_users():
    assert [s for s, f in kept(schema_regex="my_.*|public") if f is None] == [
        "CREATE SCHEMA my_schema", "CREATE TABLE public.t1 (a integer)", "CREATE TABLE public.t2 (a integer)",
        "CREATE TABLE my_schema.x (a integer)"]
    got = kept(exclude_users="bob,carol")
    assert [f for _, f in got] == [None, None, "exclude-users: run by bob", None, None, None]


@pytest.mark.parametrize("opts,message", [
    (dict(white_table_list="public.t1, public.t2"), "no blank"),
    (dict(white_table_list="t1"), "expected schema.table"),
    (dict(schema_regex="("), "not a regular expression"),
    (dict(exclude_users=",x"), "bad user name"),
])
def test_filters_are_checked_up_front(opts, message):
    with pytest.raises(ValueError, match=message):
        ddlc.translate_many([], target="postgres", **opts)
    with pytest.raises(ValueError, match=message):
        Options.of(**opts)


def test_cli_counts_filtered(tmp_path):
    p = tmp_path / "in.jsonl"
    p.write_text("".join(json.dumps(d) + "\n" for d in DOCS))
    r = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--to", "postgres", "--white-table-list",
                        "public.*", "--exclude-user", "bob", str(p)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "CREATE SCHEMA my_schema;\nCREATE TABLE public.t1 (a integer);\n"
    assert r.stderr.splitlines()[-1] == ("ddlc: 6 documents, 2 statements written, 0 clauses dropped, "
                                         "0 statements not translated, 0 errors, 0 lines not recognised, 4 filtered")
    r = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--format", "json", "--schema-regex", "other",
                        str(p)], capture_output=True, text=True)
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 6 and [x.get("filtered") is None for x in lines] == [False, False, False, True, False, True]
    r = subprocess.run([sys.executable, "-m", "ddlc", "translate", "--white-table-list", "a b", str(p)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "no blank" in r.stderr
