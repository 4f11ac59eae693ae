"""``ddlc explain``: the IR and the diagnostics of a document, for people and for machines."""

from __future__ import annotations

from typing import Any

from .api import Options
from .options import DEFAULT_TARGET
from .diagnostics import Diagnostic
from .frontend.documents import Document
from .ir.base import to_json


def explain_document(doc: Document, options: Options, target: str = DEFAULT_TARGET) -> dict[str, Any]:
    """Build and normalize one document; return a JSON-ready report (never raises DdlcError)."""
    from .errors import DdlcError

    out: dict[str, Any] = {"index": doc.index, "document": doc.label, "ir": None, "diagnostics": [], "error": None}
    if doc.error is not None:
        out["error"] = doc.error.to_dict()
        return out
    try:
        from .backends import get_backend
        from .compiler import Built, normalize, shape

        backend = get_backend(target)
        built = Built(doc, options)  # the front half translate runs, for this target
        f = built.for_target(backend)
        out["shape"] = shape(doc)
        if options.filtering:
            from .filters import filter_reason

            first = built.front()
            owner = first.owner if first.owner is not None else doc.meta.get("owner")
            reason = filter_reason(first.stmt, owner if isinstance(owner, str) else None, options)
            if reason is not None:
                out["filtered"] = reason
        if doc.tddl is not None and backend.passes_source_text:
            out["passed_through"] = True  # translate writes the text as it came (the IR is what it reads as)
        stmt, more = normalize(f.stmt, backend, options, document=doc.label)
        out["ir"] = to_json(stmt, with_origin=True)
        out["diagnostics"] = [d.to_dict() for d in (*f.diagnostics, *more)]
    except DdlcError as exc:
        exc.with_document(doc.label)
        out["error"] = exc.to_dict()
    return out


def render_text(report: dict[str, Any]) -> str:
    lines = [f"# {report['document']}" + (f"  (shape: {report['shape']})" if report.get("shape") else "")]
    if report["ir"] is not None:
        _walk(report["ir"], 1, lines, None)
    for d in report["diagnostics"]:
        lines.append(f"  {d['severity']}: {d['path']}: {d['message']} [{d['code']}]")
    if report["error"] is not None:
        e = report["error"]
        lines.append(f"  error: {e['path']}: {e['message']} [{e['code']}]")
    return "\n".join(lines) + "\n"


def _walk(v: Any, depth: int, lines: list[str], key: str | None) -> None:
    pad = "  " * depth
    head = f"{key}: " if key is not None else ""
    if isinstance(v, dict) and "@" in v:
        origin = v.get("origin")
        where = f"  @ {_path(origin)}" if origin else ""
        lines.append(f"{pad}{head}{v['@']}{where}")
        for k, x in v.items():
            if k in ("@", "origin") or x in (None, False, "", [], ()):
                continue
            _walk(x, depth + 1, lines, k)
    elif isinstance(v, list):
        lines.append(f"{pad}{head}[{len(v)}]")
        for x in v:
            _walk(x, depth + 1, lines, "-")
    else:
        lines.append(f"{pad}{head}{v!r}")


def _path(origin: list[Any]) -> str:
    from .errors import jsonpath

    return jsonpath(origin)


__all__ = ["explain_document", "render_text", "Diagnostic"]
