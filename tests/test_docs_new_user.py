"""The documents a new user meets (issue 22.10, 22.11): a short README whose links all lead somewhere, the
reference in docs/, a LICENSE and a CHANGELOG, support-matrix rows named as a user looks for them, the
decoding-log samples consistent with each other, the pipeline's output ignored by git."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys

from conftest import ROOT

README = (ROOT / "README.md").read_text("utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but '-' and '_' removed, blanks to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(text: str) -> set[str]:
    out: set[str] = set()
    inside = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = not inside
        elif not inside and line.startswith("#"):
            out.add(_slug(line.lstrip("#")))
    return out


def test_readme_is_short_and_starts_with_a_translation():
    assert len(README.splitlines()) <= 250
    first = re.search(r"```bash\n(.*?)\n```", README, re.S).group(1)
    assert first.endswith("ddlc translate --to postgres fixtures/sample/ddl.jsonl")
    assert "```console\n$ ddlc translate --to postgres fixtures/sample/ddl.jsonl\n" in README
    assert "19.2 s" not in README  # the stale timing


def test_every_relative_link_leads_somewhere():
    for doc in [ROOT / "README.md", ROOT / "CHANGELOG.md", *DOCS]:
        text = doc.read_text("utf-8")
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            assert dest.exists(), f"{doc.relative_to(ROOT)}: link to {target}: no such file"
            if anchor and dest.suffix == ".md":
                assert anchor in _anchors(dest.read_text("utf-8")), f"{doc.relative_to(ROOT)}: no anchor {target}"


def test_the_readme_links_the_reference_it_moved():
    for name in ("cli", "targets", "library", "check", "pipeline", "replay", "state", "decoding-logs",
                 "support", "diagnostics", "development", "security", "architecture"):
        assert f"](docs/{name}.md" in README, name


def test_license_and_changelog():
    license_text = (ROOT / "LICENSE").read_text("utf-8")
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert "END OF TERMS AND CONDITIONS" in license_text
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'license = { text = "Apache-2.0" }' in pyproject
    version = re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert "## [Unreleased]" in changelog and re.search(rf"^## \[{re.escape(version)}\] - \d{{4}}-\d\d-\d\d$",
                                                        changelog, re.M)


def test_pipeline_output_is_ignored_by_git():
    p = subprocess.run(["git", "check-ignore", "-q", "out/postgres.sql"], cwd=ROOT)
    assert p.returncode == 0


def test_support_matrix_rows_are_named_for_users():
    code = ("from tools.gen_docs import load_all, statement_rows; load_all(); "
            "from ddlc.support import label; import json; "
            "print(json.dumps([[label(c), n] for c, n in statement_rows()]))")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    matrix = README[README.index("<!-- support-matrix:begin -->"):README.index("<!-- support-matrix:end -->")]
    names = [line.split(" | ")[0][2:] for line in matrix.splitlines()[3:] if line.startswith("| ")]
    assert names == [name for _, name in rows]
    assert len(set(names)) == len(names)
    for internal in ("NEW PUB", "OPAQUE", "ALTER TABLE FOLLOWUP", "ALTER RELATION", "CREATE MAT VIEW"):
        assert f"`{internal}`" not in README and f"| {internal} |" not in README


def test_decoding_log_samples_agree():
    ex = ROOT / "docs" / "examples"
    with open(ex / "peek_changes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["location", "xid", "data"]
    # the data column alone is the decoding-text sample
    assert (ex / "peek_changes.txt").read_text("utf-8") == "".join(r["data"] + "\n" for r in rows)
    lines = [json.loads(line) for line in (ex / "peek_changes.jsonl").read_text("utf-8").splitlines()]
    assert all(set(r) == {"location", "xid", "data"} for r in lines)
    assert [json.loads(r["data"]).keys() for r in lines if r["data"].startswith("{")] == [{"JDDL": 0}.keys()]
    # every form the guide names is one ddlc tells apart
    guide = (ROOT / "docs" / "decoding-logs.md").read_text("utf-8")
    for form in ("`decoding`", "`rows`", "`batch`"):
        assert form in guide
