"""What a pipeline run leaves under its output directory, written so that it is whole or absent.

``<target>.sql`` per target (the statements in log order, exactly what ``ddlc translate`` prints),
``results.parquet`` (one row per document and target), ``quarantine.parquet`` (every record that
failed, with its original payload and position, and every line of no known kind) and
``summary.json`` (counts, and the check that every record is accounted for).

Everything is first written to a fresh ``.ddlc-tmp-*`` directory inside the output directory; the
commit then removes the old ``summary.json``, moves each file into place (``os.replace``, atomic
per file) and writes ``summary.json`` last. A run killed at any point leaves either no
``summary.json`` (an unfinished run: run it again) or a complete set; since the outputs depend only
on the inputs (and the state given), running again gives the same bytes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

import orjson

__all__ = ["write_outputs", "commit", "staging", "SUMMARY"]

SUMMARY = "summary.json"
RESULTS = "results.parquet"
QUARANTINE = "quarantine.parquet"


def staging(output: str) -> str:
    """A fresh staging directory inside ``output`` (left-overs of killed runs removed first)."""
    os.makedirs(output, exist_ok=True)
    for name in os.listdir(output):
        if name.startswith(".ddlc-tmp-"):
            shutil.rmtree(os.path.join(output, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=".ddlc-tmp-", dir=output)


def _diagnostics(text: str | None) -> list[dict[str, Any]]:
    if not text:
        return []
    return [{"code": d.get("code"), "severity": d.get("severity"), "message": d.get("message"),
             "path": d.get("path")} for d in orjson.loads(text)]


def write_outputs(tmp: str, targets: list[str], results: list[dict[str, Any]], side: list[dict[str, Any]],
                  summary: dict[str, Any]) -> list[str]:
    """Write every output file into ``tmp``; returns their names, ``summary.json`` last."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = []
    for t in targets:
        with open(os.path.join(tmp, f"{t}.sql"), "w", encoding="utf-8", newline="") as fh:
            for r in results:
                if r["target"] == t and r["status"] in ("translated", "failed"):
                    fh.write(r["sql"] or "")
        names.append(f"{t}.sql")
    diag = pa.struct([("code", pa.string()), ("severity", pa.string()), ("message", pa.string()),
                      ("path", pa.string())])
    schema = pa.schema([("lsn", pa.string()), ("xid", pa.int64()), ("source", pa.string()), ("line", pa.int64()),
                        ("document", pa.string()), ("target", pa.string()), ("status", pa.string()),
                        ("object", pa.string()), ("kind", pa.string()), ("owner", pa.string()),
                        ("sql", pa.string()), ("statements", pa.list_(pa.string())),
                        ("diagnostics", pa.list_(diag)), ("error_code", pa.string()), ("error", pa.string()),
                        ("filtered", pa.string())])
    rows = [{"lsn": r["lsn"], "xid": r["xid"], "source": r["source"], "line": r["line"], "document": r["label"],
             "target": r["target"], "status": r["status"], "object": r.get("object"), "kind": r.get("kind"),
             "owner": r.get("owner"), "sql": r.get("sql"), "statements": r.get("statements"),
             "diagnostics": _diagnostics(r.get("diagnostics")), "error_code": r.get("error_code"),
             "error": r.get("error"), "filtered": r.get("filtered")} for r in results if r["status"] != "state"]
    _parquet(pq, pa.Table.from_pylist(rows, schema=schema), os.path.join(tmp, RESULTS))
    names.append(RESULTS)
    qschema = pa.schema([("reason", pa.string()), ("target", pa.string()), ("source", pa.string()),
                         ("line", pa.int64()), ("offset", pa.int64()), ("document", pa.string()), ("lsn", pa.string()),
                         ("xid", pa.int64()), ("code", pa.string()), ("error", pa.string()), ("payload", pa.binary())])
    quarantine = []
    seen_input_errors: set[tuple[int, int]] = set()
    for r in results:
        if r["status"] != "failed":
            continue
        if r["input_error"]:  # the document itself is bad: one row, whatever the targets
            if (r["piece"], r["seq"]) in seen_input_errors:
                continue
            seen_input_errors.add((r["piece"], r["seq"]))
        quarantine.append({"reason": "error", "target": None if r["input_error"] else r["target"],
                           "source": r["source"], "line": r["line"], "offset": None, "document": r["label"],
                           "lsn": r["lsn"], "xid": r["xid"], "code": r.get("error_code"), "error": r.get("error"),
                           "payload": r.get("payload")})
    for s in side:
        if s["kind"] == "unrecognised":
            quarantine.append({"reason": "unrecognised", "target": None, "source": s["source"], "line": s["line"],
                               "offset": s["offset"], "document": s["label"], "lsn": None, "xid": None,
                               "code": None, "error": "line not recognised", "payload": s["payload"]})
    _parquet(pq, pa.Table.from_pylist(quarantine, schema=qschema), os.path.join(tmp, QUARANTINE))
    names.append(QUARANTINE)
    with open(os.path.join(tmp, SUMMARY), "wb") as fh:
        fh.write(orjson.dumps(summary, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    names.append(SUMMARY)
    return names


def _parquet(pq: Any, table: Any, path: str) -> None:
    # one file, no statistics that depend on anything but the rows: the same rows give the same bytes
    pq.write_table(table, path, compression="zstd", write_statistics=False, use_dictionary=False)


def commit(tmp: str, output: str, names: list[str]) -> None:
    """Move the staged files into ``output``: the old summary goes first, the new one comes last."""
    try:
        os.unlink(os.path.join(output, SUMMARY))
    except FileNotFoundError:
        pass
    crash = os.environ.get("DDLC_PIPELINE_CRASH_AFTER")  # fault injection for the crash tests: die half way
    for n, name in enumerate(names):
        if crash is not None and n == int(crash):
            os.kill(os.getpid(), 9)
        src = os.path.join(tmp, name)
        with open(src, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(src, os.path.join(output, name))
    shutil.rmtree(tmp, ignore_errors=True)
