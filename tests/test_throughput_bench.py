"""bench/bench_ratio.py --vs TREE (issue 26.2): the A/B of two ddlc trees in two worker processes runs and
reports per chunk; this very tree against itself here. No timing is asserted (speed is measured in bench/)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT


def test_ab_of_this_tree_against_itself():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_ratio.py"), "--vs", str(ROOT), "--chunks", "2",
                        "--chunk", "3", "--repeat", "2", "--targets", "gaussdb", "--corpora", "varied,unique",
                        "--json", "--quiet"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["info"]["roots"]["old"] == res["info"]["roots"]["new"] == str(ROOT)
    assert set(res["figures"]) == {"varied/gaussdb", "unique/gaussdb"}
    for rows in res["chunks"].values():
        assert len(rows) == 2
        for row in rows:
            assert row["speedup_ratio"] > 0 and row["speedup_cpu"] > 0 and row["ratio_old"] > 0
    shown = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_ratio.py"), "--show", "/dev/stdin"],
                           input=r.stdout, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert shown.returncode == 0 and "speed-up" in shown.stdout, shown.stderr
