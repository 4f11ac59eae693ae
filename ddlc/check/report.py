"""Findings written for people (text), for programs (JSON) and for code scanning (SARIF 2.1.0)."""

from __future__ import annotations

import os
from typing import Any

from .run import SEVERITY_RANK, CheckReport, Finding

__all__ = ["text_report", "json_report", "sarif_report", "summary_line"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "note": "note", "info": "note"}


def _shown(f: Finding, verbose: bool) -> bool:
    return verbose or f.severity != "info"


def text_report(report: CheckReport, *, colour: bool = False, verbose: bool = False) -> str:
    """One line per finding: ``file:line: severity[code] target: document $.path: message``."""
    import click

    styles = {"error": "red", "warning": "yellow", "note": "cyan", "info": "blue"}
    lines = []
    for f in sorted(report.findings, key=_order):
        if not _shown(f, verbose):
            continue
        sev = f.severity + ("(allowed)" if f.allowed else "")
        if f.fails and f.severity != "error":
            sev += "(fails)"
        head = f"{sev}[{f.code}]"
        if colour:
            head = click.style(head, fg=styles.get(f.severity), bold=f.fails)
        where = f"{f.target}: " if f.target else ""
        # the document when it says more than file:line (a JSON-lines document's label is file:line itself)
        doc = f"{f.document} " if f.document not in (f.file, f"{f.file}:{f.line}") else ""
        at = f"{f.line}:{f.column}" if f.column is not None else f"{f.line}"
        lines.append(f"{f.file}:{at}: {head} {where}{doc}{f.path}: {f.message}")
    return "".join(line + "\n" for line in lines)


def summary_line(report: CheckReport) -> str:
    def _n(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    verdict = "failed" if report.failed else "passed"
    return (f"ddlc check: {verdict}: {_n(report.files, 'file')}, {_n(report.documents, 'document')}, "
            f"targets {', '.join(report.targets) or '-'}: {_n(report.count('error'), 'error')}, "
            f"{_n(report.count('warning'), 'warning')}, {_n(report.count('note'), 'note')}"
            + (f" ({sum(1 for f in report.findings if f.allowed)} allowed)" if any(f.allowed for f in report.findings)
               else "")
            + (f"; {_n(len(report.not_jddl), 'JSON file')} without JDDL left alone" if report.not_jddl else ""))


def _order(f: Finding) -> tuple[Any, ...]:
    return (f.file, f.line, SEVERITY_RANK.get(f.severity, 9), f.code, f.target or "", f.path)


def json_report(report: CheckReport) -> dict[str, Any]:
    return {"passed": not report.failed, "files": report.files, "documents": report.documents,
            "targets": list(report.targets),
            "counts": {s: report.count(s) for s in ("error", "warning", "note", "info")},
            "findings": [f.to_dict() for f in sorted(report.findings, key=_order)],
            **({"not_jddl": list(report.not_jddl)} if report.not_jddl else {})}


def sarif_report(report: CheckReport, *, root: str = ".", verbose: bool = False) -> dict[str, Any]:
    """SARIF 2.1.0: one run of the ``ddlc`` tool; each finding a result at its file and line, its
    rule the diagnostic code (title and explanation from the registry)."""
    from .. import __version__
    from ..diagnostics import CODES

    shown = [f for f in sorted(report.findings, key=_order) if _shown(f, verbose)]
    codes = sorted({f.code for f in shown})
    index = {c: i for i, c in enumerate(codes)}
    rules = []
    for c in codes:
        info = CODES.get(c)
        rule: dict[str, Any] = {"id": c, "name": c.replace("-", "")}
        if info is not None:
            rule["shortDescription"] = {"text": info.title}
            rule["fullDescription"] = {"text": info.explanation}
            rule["defaultConfiguration"] = {"level": _SARIF_LEVEL[info.severity.value]}
        rules.append(rule)
    results = []
    for f in shown:
        uri = f.file if f.file == "<stdin>" else _uri(f.file, root)
        message = f"{f.target}: {f.message}" if f.target else f.message
        result: dict[str, Any] = {
            "ruleId": f.code, "ruleIndex": index[f.code],
            "level": "error" if f.fails else _SARIF_LEVEL[f.severity],
            "message": {"text": f"{message} ({f.document} {f.path})"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                                                "region": _region(f)},
                           "logicalLocations": [{"fullyQualifiedName": f"{f.document}{f.path[1:]}",
                                                 "kind": "member"}]}],
            "properties": {"document": f.document, "jsonPath": f.path, "target": f.target,
                           "severity": f.severity, "fails": f.fails, "allowed": f.allowed},
        }
        if f.allowed:
            result["suppressions"] = [{"kind": "external", "justification": "allowed by the ddlc configuration"}]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "ddlc", "version": __version__, "semanticVersion": __version__,
                                "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": _root_uri(root)}},
            "results": results,
            "invocations": [{"executionSuccessful": True}],
        }],
    }


def _region(f: Finding) -> dict[str, int]:
    region = {"startLine": max(1, f.line)}
    if f.column is not None:
        region["startColumn"] = max(1, f.column)
    return region


def _uri(path: str, root: str) -> str:
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")
    if rel.startswith("../"):
        return _root_uri(os.path.abspath(path)).rstrip("/")
    from urllib.parse import quote

    return quote(rel)


def _root_uri(root: str) -> str:
    from pathlib import Path

    return Path(os.path.abspath(root)).as_uri() + "/"
