"""ddlc.console: the console script's collector settings stay in the console script."""

from __future__ import annotations

import subprocess
import sys

PROBE = r"""
import gc, sys
usual = gc.get_threshold()
import ddlc, ddlc.cli, ddlc.api
assert gc.get_threshold() == usual, "importing ddlc changed the collector"
from ddlc import console
sys.argv = ["ddlc", "--version"]
try:
    console.main()
except SystemExit as e:
    assert e.code in (0, None), e.code
assert gc.get_threshold()[0] == console._START_UP  # no pass yet in so short a run
gc.collect()
assert gc.get_threshold() == usual, gc.get_threshold()  # after the first pass: the usual thresholds
assert not gc.callbacks
print("ok")
"""


def test_console_script_collector_settings():
    p = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "ok" and "ddlc" in p.stdout


def test_python_m_ddlc_runs_the_console_script():
    p = subprocess.run([sys.executable, "-m", "ddlc", "--version"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith("ddlc"), p.stderr
