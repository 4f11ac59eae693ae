"""A diagnostic keeps its severity in a process that never imported the module registering its code
(a Spark worker unpickling stage 1's build: the pipeline's batch test failed with KeyError 'DDLC-N404')."""

from __future__ import annotations

import pickle
import subprocess
import sys

from ddlc.diagnostics import Diagnostic, Severity


def test_severity_from_the_code_family_when_not_registered_here():
    data = pickle.dumps(Diagnostic("DDLC-N404", "TDDL statement not parsed", ()))
    code = ("import pickle, sys\nd = pickle.loads(sys.stdin.buffer.read())\n"
            "assert 'ddlc.frontend.recover' not in sys.modules\nprint(d.severity.value)")
    p = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, check=True)
    assert p.stdout.decode().strip() == "note"
    assert Diagnostic("DDLC-W999", "m", ()).severity is Severity.WARNING
