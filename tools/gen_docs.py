"""Generate docs/diagnostics.md (from the CODES registry) and the README support matrix.

    .venv/bin/python -m tools.gen_docs          # rewrite
    .venv/bin/python -m tools.gen_docs --check  # exit 1 when out of date (used by the tests)
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- support-matrix:begin -->", "<!-- support-matrix:end -->"


def load_all() -> None:
    import ddlc

    for mod in pkgutil.walk_packages(ddlc.__path__, "ddlc."):
        if mod.name.startswith("ddlc.pipeline") or mod.name.endswith("__main__"):
            continue  # pyspark is optional
        importlib.import_module(mod.name)


def diagnostics_md() -> str:
    from ddlc.diagnostics import CODES

    fam = {"E": "Input errors (the document fails; the others go on)",
           "W": "Target cannot express it, or a source defect that is not replayed (documented loss)",
           "N": "Not done yet by ddlc (ours to fix)",
           "I": "Information"}
    out = ["# Diagnostic codes", "",
           "Generated from `ddlc.diagnostics.CODES` by `python -m tools.gen_docs`; do not edit by hand.", "",
           "Every diagnostic carries its code, severity, the JSON path of the clause in the input "
           "document, the target and the pass that raised it (`ddlc translate --format json`, "
           "`ddlc explain`). Codes are never reused.", ""]
    for letter, title in fam.items():
        codes = sorted((c for c in CODES.values() if c.code.split("-")[1][0] == letter), key=lambda c: c.code)
        if not codes:
            continue
        out += [f"## {title}", ""]
        for c in codes:
            out += [f"### {c.code} — {c.title}", "", f"Severity: {c.severity.value}.", "", c.explanation, ""]
            if c.example:
                out += ["Example:", "", "```", c.example, "```", ""]
    return "\n".join(out).rstrip() + "\n"


def support_matrix() -> str:
    from ddlc.support import matrix_rows, targets

    ts = targets()
    head = "| statement | " + " | ".join(ts) + " |"
    sep = "|---|" + "---|" * len(ts)
    rows = [f"| {name} | " + " | ".join(cells[t] for t in ts) + " |" for name, cells in matrix_rows()]
    legend = ("Legend: ✅ translated; ⚠️ translated with documented losses (W diagnostics); "
              "📝 kept as text with a diagnostic; ❌ refused: the target has no such object (the document fails "
              "unless `--on-unsupported comment` or `skip`); 🚧 not implemented yet.")
    return "\n".join([head, sep, *rows, "", legend])


def main() -> int:
    check = "--check" in sys.argv
    load_all()
    stale = []
    diag_path = ROOT / "docs" / "diagnostics.md"
    text = diagnostics_md()
    if not diag_path.exists() or diag_path.read_text("utf-8") != text:
        stale.append(diag_path)
        if not check:
            diag_path.write_text(text, "utf-8")
    readme = ROOT / "README.md"
    if readme.exists():
        body = readme.read_text("utf-8")
        if BEGIN in body and END in body:
            pre, rest = body.split(BEGIN, 1)
            _, post = rest.split(END, 1)
            new = pre + BEGIN + "\n" + support_matrix() + "\n" + END + post
            if new != body:
                stale.append(readme)
                if not check:
                    readme.write_text(new, "utf-8")
    if check and stale:
        print("out of date (run `python -m tools.gen_docs`):", ", ".join(str(p) for p in stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
