"""Generated documents stay true: docs/diagnostics.md and the README support matrix."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_generated_docs_are_up_to_date():
    p = subprocess.run([sys.executable, "-m", "tools.gen_docs", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_every_code_is_documented():
    from tools.gen_docs import load_all

    load_all()
    from ddlc.diagnostics import CODES

    text = (ROOT / "docs" / "diagnostics.md").read_text("utf-8")
    for code in CODES:
        assert f"### {code} " in text


def test_startup_does_not_import_heavy_libraries():
    code = "import sys, ddlc.cli; print(','.join(m for m in ('pglast','jsonschema','sqlglot','pyspark','rich') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
