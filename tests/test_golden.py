"""Golden cases: fixtures/cases/<family>/<case>/ (input.json + expected.<target>.sql).

Expected files are written from the reference (see each case's meta.json), never from ddlc.
"""

from __future__ import annotations

import json

import pytest

import ddlc
from conftest import case_dirs, case_id

CASES = case_dirs()
TARGET_FILES = {"expected.gaussdb.sql": dict(target="gaussdb", mode="canonical"),
                "expected.gaussdb-raw.sql": dict(target="gaussdb", mode="raw")}


def test_cases_exist():
    assert len(CASES) >= 50


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gaussdb(case):
    data = (case / "input.json").read_bytes()
    meta = json.loads((case / "meta.json").read_text("utf-8")) if (case / "meta.json").exists() else {}
    error_file = case / "expected.error.json"
    if error_file.exists():
        expect = json.loads(error_file.read_text("utf-8"))
        with pytest.raises(ddlc.DdlcError) as info:
            ddlc.translate(data, target="gaussdb")
        assert info.value.message == expect["message"]
        if "path" in expect:
            assert info.value.jsonpath == expect["path"]
        return
    checked = 0
    for name, opts in TARGET_FILES.items():
        f = case / name
        if not f.exists():
            continue
        result = ddlc.translate(data, **opts)
        assert result.sql.encode("utf-8") == f.read_bytes()
        if "owner" in meta:
            assert result.owner == meta["owner"]
        checked += 1
    assert checked, f"{case} has no expected.*.sql file"
