"""Issue 26.2: the GaussDB target passes a TDDL text through without reading it when its statement kind
cannot give a class it writes from the IR instead (``source_text_unless``): ``recover.MADE_FROM`` must say
every kind a text read as such a class can have."""

from __future__ import annotations

import glob
from pathlib import Path

import orjson

from ddlc.backends import get_backend
from ddlc.frontend.recover import MADE_FROM, may_read_as, statement_kind
from ddlc.frontend.text import read_tddl

ROOT = Path(__file__).resolve().parents[1]


def _texts() -> list[str]:
    out = []
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.json"), recursive=True)):
        try:
            doc = orjson.loads(Path(f).read_bytes())
        except orjson.JSONDecodeError:
            continue
        stack = [doc]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                if isinstance(v.get("TDDL"), str):
                    out.append(v["TDDL"])
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.jsonl"), recursive=True)):
        for line in Path(f).read_bytes().splitlines():
            try:
                v = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(v, dict) and isinstance(v.get("TDDL"), str):
                out.append(v["TDDL"])
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "**" / "expected.*.sql"), recursive=True)):
        out.extend(t.strip() + ";" for t in Path(f).read_text("utf-8").split(";\n") if t.strip())  # any text will do
    more = ["CREATE TABLE s.t AS SELECT 1 AS a", "create unlogged table t (a) as select 1 with no data",
            "SELECT a INTO s.t2 FROM s.t", "SELECT 1", "CREATE TABLE t (a int)", "CREATE TABLE IF NOT EXISTS t AS TABLE u",
            "CREATE TEMP TABLE t AS EXECUTE p", "WITH x AS (SELECT 1) SELECT * INTO t FROM x",
            "(SELECT 1) ", "  select * into temporary t from u;", "CREATE GLOBAL TEMPORARY TABLE t AS SELECT 1"]
    return sorted(set(out)) + more


TEXTS = _texts()


def test_there_are_texts():
    assert len(TEXTS) > 400


def test_every_class_written_from_the_ir_comes_from_the_kinds_declared():
    unless = get_backend("gaussdb").source_text_unless
    assert unless and all(cls in MADE_FROM for cls in unless)
    seen = set()
    for text in TEXTS:
        stmt, _ = read_tddl(text)
        for cls in unless:
            if isinstance(stmt, cls):
                seen.add(cls)
                assert statement_kind(text) in MADE_FROM[cls], text
                assert may_read_as(text, unless), text
    assert seen == set(unless)  # the texts hold some (else this test proves nothing)


def test_an_unknown_class_is_always_read():
    class Other:
        pass

    assert may_read_as("DROP TABLE t", (Other,))
    assert not may_read_as("DROP TABLE t", tuple(MADE_FROM))
