#!/usr/bin/env python3
"""Write the reference golden cases (fixtures/cases/<family>/<case>/) from jddl-shapes.md.

Run once by hand; its output is checked in:

    python tools/extract_reference_cases.py [--reference PATH/jddl-shapes.md] [--out fixtures/cases]

What becomes a case:

* every ```json block of section 5 that is followed by an "Expands to:" block holding one JSON
  string literal: input.json = the JSON block, verbatim; expected.gaussdb-raw.sql = the decoded
  string literal; expected.gaussdb.sql = its canonical form (below);
* the section 5 block followed by "Expansion fails: `...`" (SET STATISTICS PERCENT): an error
  case, expected.error.json;
* the section 9 GaussDB example (``{"JDDL": ...}`` envelope, ``object_name``/``schema_name``
  keys): raw and canonical texts are the two backticked renderings that follow it.

Each case directory also gets meta.json: {"source": ..., "owner": <top-level "myowner" or null>}.

Canonical text (canonical-form.md) is computed here, on purpose without importing ddlc: outside
single-quoted literals ('' escapes), double-quoted identifiers ("" escapes) and dollar-quoted
bodies ($tag$...$tag$, where the opening $ does not follow an identifier character), every run of
spaces, tabs, CRs and LFs becomes one space; the ends are trimmed.

Statement terminator (what ``ddlc translate`` prints): the statement text, then ``;`` and a newline.
A text that already ends with ``;`` (view queries, CREATE FUNCTION texts), possibly followed by
whitespace, keeps that one ``;`` instead of getting a second: trailing whitespace after it is
dropped and only the newline is added.

The script is deterministic: names come from the table CASE_NAMES below, keyed by section and the
ordinal of the JSON block inside that section; a block without a name, or a name without a block,
is an error, so a changed reference cannot silently produce a different set of cases.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REFERENCE = Path("/work/shared/reference/jddl-shapes.md")
DEFAULT_OUT = ROOT / "fixtures" / "cases"

# (section, ordinal of the ```json block inside the section, 1-based) -> (family, case name)
CASE_NAMES: dict[tuple[str, int], tuple[str, str]] = {
    ("5.1", 1): ("create_table", "plain-a-mode"),
    ("5.1", 2): ("create_table", "if-not-exists-range-list-subpartitions"),
    ("5.1", 3): ("create_table", "b-compat-auto-increment-comment"),
    ("5.1", 4): ("create_table", "typed-unlogged"),
    ("5.2", 1): ("alter_table", "mixed-subcommands"),
    ("5.2", 2): ("alter_table", "options-replica-identity-add-after"),
    ("5.2", 3): ("alter_table", "b-compat-modify-change"),
    ("5.2", 4): ("alter_table", "add-partition-subpartitions"),
    ("5.2", 5): ("alter_table", "partition-drop-truncate-exchange-merge"),
    ("5.2", 6): ("alter_table", "split-partition"),
    ("5.2", 7): ("alter_table", "alter-index-rebuild-partition"),
    ("5.2", 8): ("alter_table", "alter-type-add-attribute-cascade"),
    ("5.2", 9): ("alter_table", "dolphin-drop-index-rebuild-partition"),
    ("5.2", 10): ("alter_table", "owner-to-defect"),
    ("5.2", 11): ("alter_table", "set-statistics-percent-fails"),
    ("5.3", 1): ("alter_table_followup", "main-add-column-nonconstant-default"),
    ("5.3", 2): ("alter_table_followup", "update-backfill"),
    ("5.3", 3): ("alter_table_followup", "set-default-nonconstant"),
    ("5.3", 4): ("alter_table_followup", "set-default-constant"),
    ("5.3", 5): ("alter_table_followup", "set-not-null"),
    ("5.3", 6): ("alter_table_followup", "modify-column-auto-increment"),
    ("5.3", 7): ("alter_table_followup", "auto-increment-backfill-block"),
    ("5.4", 1): ("drop", "table-if-exists-cascade"),
    ("5.4", 2): ("drop", "index-concurrently"),
    ("5.4", 3): ("drop", "function"),
    ("5.4", 4): ("drop", "trigger"),
    ("5.4", 5): ("drop", "schema-quoted-cascade"),
    ("5.4", 6): ("drop", "type"),
    ("5.5", 1): ("create_index", "unique-opts-tablespace-where"),
    ("5.5", 2): ("create_index", "local-partitioned"),
    ("5.5", 3): ("create_index", "global-invisible"),
    ("5.6", 1): ("sequence", "create"),
    ("5.6", 2): ("sequence", "create-large-cycle"),
    ("5.6", 3): ("sequence", "alter-increment-owned-by"),
    ("5.6", 4): ("sequence", "alter-owned-by-none"),
    ("5.7", 1): ("view", "create-or-replace"),
    ("5.8", 1): ("function", "create-function"),
    ("5.9", 1): ("function", "alter-function"),
    ("5.9", 2): ("function", "alter-procedure-no-arguments"),
    ("5.10", 1): ("trigger", "row-update-of-with-args"),
    ("5.10", 2): ("trigger", "constraint-trigger"),
    ("5.10", 3): ("trigger", "b-compat-inline-body"),
    ("5.11", 1): ("schema", "create-if-not-exists-quoted"),
    ("5.11", 2): ("schema", "create-authorization-blockchain"),
    ("5.11", 3): ("schema", "alter-without-blockchain"),
    ("5.11", 4): ("schema", "alter-charset-collate"),
    ("5.12", 1): ("comment", "table-dollar-quoted"),
    ("5.12", 2): ("comment", "column-is-null"),
    ("5.12", 3): ("comment", "constraint"),
    ("5.13", 1): ("rename", "table-to-quoted-name"),
    ("5.13", 2): ("rename", "column"),
    ("5.13", 3): ("rename", "type-attribute-cascade"),
    ("5.13", 4): ("rename", "constraint"),
    ("5.13", 5): ("rename", "schema"),
    ("5.13", 6): ("rename", "type"),
    ("5.13", 7): ("rename", "b-compat-rename-table-list"),
    ("5.14", 1): ("set_schema", "function"),
    ("5.15", 1): ("type", "composite"),
    ("5.15", 2): ("type", "enum"),
    ("5.16", 1): ("event", "create"),
    ("5.16", 2): ("event", "alter"),
    ("5.16", 3): ("event", "drop"),
    ("5.17", 1): ("newpub", "table"),
}

# Error cases: the reference gives the message without the ", got N" tail of section 1.3; the
# tail and the JSONPath of the offending value are stated here and checked against the tree.
ERROR_DETAILS: dict[tuple[str, int], dict[str, str]] = {
    # "column": "id" is a JSON string, jsonb type code 1
    ("5.2", 11): {"suffix": ", got 1", "path": "$.subcmds[0].column"},
}

SECTION9_CASE = ("create_table", "gaussdb-doc-jddl-envelope")

# --------------------------------------------------------------------------------------------
# canonical text

_WS = " \t\r\n"
_DOLLAR_TAG = re.compile(r"\$(?:[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_\u0080-\U0010ffff]*)?\$")


def _ident_char(c: str) -> bool:
    return c in "_$" or c.isascii() and c.isalnum() or ord(c) >= 0x80


def canonical(text: str) -> str:
    """Collapse whitespace runs outside quotes and dollar bodies to one space; trim the ends."""
    out: list[str] = []
    i, n = 0, len(text)
    blank = False
    while i < n:
        c = text[i]
        if c in _WS:
            blank = True
            i += 1
            continue
        if blank:
            if out:
                out.append(" ")
            blank = False
        if c in "'\"":
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:  # doubled quote: escaped
                        j += 2
                        continue
                    j += 1
                    break
                j += 1
            else:
                j = n  # unterminated: the rest is kept as it is
            out.append(text[i:j])
            i = j
            continue
        if c == "$" and (i == 0 or not _ident_char(text[i - 1])):
            m = _DOLLAR_TAG.match(text, i)
            if m:
                close = text.find(m.group(0), m.end())
                j = n if close < 0 else close + len(m.group(0))
                out.append(text[i:j])
                i = j
                continue
        out.append(c)
        i += 1
    return "".join(out).strip(_WS)


def terminated(statement: str) -> str:
    """The statement as ddlc prints it: one terminating ';' and a newline."""
    stripped = statement.rstrip()
    if stripped.endswith(";"):
        return stripped + "\n"
    return statement + ";\n"


# --------------------------------------------------------------------------------------------
# reading the reference


def _fence(lines: list[str], start: int) -> tuple[list[str], int]:
    """Lines of the fenced block opening at lines[start]; returns (body, index after closing fence)."""
    body = []
    i = start + 1
    while i < len(lines) and lines[i].rstrip() != "```":
        body.append(lines[i])
        i += 1
    if i >= len(lines):
        raise SystemExit(f"unterminated code fence at line {start + 1}")
    return body, i + 1


def _next_nonblank(lines: list[str], i: int) -> int:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def section5_cases(lines: list[str]) -> list[dict]:
    cases = []
    section = None
    ordinal = 0
    in5 = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            in5 = line.startswith("## 5.")
            section = None
        elif in5 and line.startswith("### "):
            m = re.match(r"### (5\.\d+) ", line)
            section = m.group(1) if m else None
            ordinal = 0
        if not (in5 and section and line.rstrip() == "```json"):
            i += 1
            continue
        ordinal += 1
        body, after = _fence(lines, i)
        block_line = i + 1
        j = _next_nonblank(lines, after)
        case = {"section": section, "ordinal": ordinal, "line": block_line, "input": "\n".join(body)}
        if j < len(lines) and lines[j].strip() == "Expands to:":
            k = _next_nonblank(lines, j + 1)
            if lines[k].rstrip() != "```":
                raise SystemExit(f"line {k + 1}: expected a fence after 'Expands to:'")
            lit, after = _fence(lines, k)
            raw = json.loads("\n".join(lit))
            if not isinstance(raw, str):
                raise SystemExit(f"line {k + 1}: 'Expands to' block is not a JSON string literal")
            case["raw"] = raw
        elif j < len(lines) and lines[j].startswith("Expansion fails:"):
            m = re.match(r"Expansion fails: `(.*)`\s*$", lines[j])
            if not m:
                raise SystemExit(f"line {j + 1}: cannot read the failure message")
            case["error"] = m.group(1)
        else:
            # a JSON block with neither an expansion nor a failure is not a case
            i = after
            continue
        cases.append(case)
        i = after
    return cases


def section9_case(lines: list[str]) -> dict:
    start = next(i for i, l in enumerate(lines) if l.startswith("## 9."))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("## "))
    fence = next(i for i in range(start, end) if lines[i].rstrip() == "```json")
    body, after = _fence(lines, fence)
    prose = " ".join(l.strip() for l in lines[after:end])
    canon = re.search(r"GaussDB documents its rendering as `([^`]*)`", prose)
    raw = re.search(r"openGauss's expander would give `([^`]*)`", prose)
    if not (canon and raw):
        raise SystemExit("section 9: cannot find the documented renderings")
    return {"line": fence + 1, "input": "\n".join(body), "raw": raw.group(1), "canonical": canon.group(1)}


# --------------------------------------------------------------------------------------------
# writing


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def _json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def _owner(tree: dict) -> str | None:
    owner = tree.get("myowner")
    return owner if isinstance(owner, str) else None


def write_case(out: Path, family: str, name: str, input_text: str, source: str, owner: str | None,
               raw: str | None = None, canon: str | None = None, error: dict | None = None) -> Path:
    d = out / family / name
    for stale in ("expected.gaussdb.sql", "expected.gaussdb-raw.sql", "expected.error.json"):
        if (d / stale).exists():
            (d / stale).unlink()
    _write(d / "input.json", input_text + "\n")
    _write(d / "meta.json", _json_text({"source": source, "owner": owner}))
    if error is not None:
        _write(d / "expected.error.json", _json_text(error))
    else:
        assert raw is not None and canon is not None
        _write(d / "expected.gaussdb-raw.sql", terminated(raw))
        _write(d / "expected.gaussdb.sql", terminated(canon))
    return d


def _resolve(tree: object, path: str) -> object:
    """Follow a simple JSONPath ($.a.b[1].c) into tree; raises if it does not exist."""
    node = tree
    for key, idx in re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]", path[1:]):
        node = node[key] if key else node[int(idx)]  # type: ignore[index]
    return node


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)

    lines = args.reference.read_text("utf-8").splitlines()
    ref = args.reference.name
    written = []
    seen = set()
    for case in section5_cases(lines):
        key = (case["section"], case["ordinal"])
        if key not in CASE_NAMES:
            raise SystemExit(f"{ref} line {case['line']}: no case name for §{key[0]} block {key[1]}")
        seen.add(key)
        family, name = CASE_NAMES[key]
        tree = json.loads(case["input"])
        source = f"{ref} §{key[0]} example {key[1]} (JSON block at line {case['line']})"
        if "error" in case:
            detail = ERROR_DETAILS.get(key)
            if detail is None:
                raise SystemExit(f"{ref} line {case['line']}: failing example without ERROR_DETAILS")
            _resolve(tree, detail["path"])  # the offending value must exist
            error = {"message": case["error"] + detail["suffix"], "path": detail["path"]}
            d = write_case(args.out, family, name, case["input"], source, _owner(tree), error=error)
        else:
            d = write_case(args.out, family, name, case["input"], source, _owner(tree),
                           raw=case["raw"], canon=canonical(case["raw"]))
        written.append(d)
    missing = set(CASE_NAMES) - seen
    if missing:
        raise SystemExit(f"case names without a reference block: {sorted(missing)}")

    s9 = section9_case(lines)
    tree = json.loads(s9["input"])
    if canonical(s9["raw"]) != s9["canonical"]:
        raise SystemExit("section 9: the documented canonical text is not the collapse of the raw text")
    inner = tree.get("JDDL", tree)
    d = write_case(args.out, *SECTION9_CASE, s9["input"],
                   f"{ref} §9 GaussDB documentation example (JSON block at line {s9['line']}); raw and "
                   "canonical texts from the two renderings quoted after it",
                   _owner(inner), raw=s9["raw"], canon=s9["canonical"])
    written.append(d)

    for d in written:
        print(d.relative_to(args.out))
    print(f"{len(written)} reference cases written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
