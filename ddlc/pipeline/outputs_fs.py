"""Outputs at a URI (``--output hdfs://...``, ``s3a://...``): written through Spark's filesystem layer,
with a commit that needs no atomic rename.

The rules of :mod:`.outputs` hold as they are (which directory a run may write into, what it never
removes); only the commit differs, because an object store has no atomic rename (S3's "rename" is a
copy and a delete, file by file) and ddlc renames nothing there. The ``summary.json`` is the manifest,
as in Spark's own committers: **written last and read first.** The commit

1. checks the directory again (another run may have committed there meanwhile);
2. removes the old ``summary.json``: from here on the directory is an unfinished run's;
3. writes each new file in place (``<target>.sql``, ``results.parquet``, ``quarantine.parquet``: each
   one ``create`` and ``close``, whole once closed);
4. removes the ddlc files this run does not write;
5. writes the new ``summary.json``, which names every file of the run.

A run killed at any point leaves the earlier committed set whole (before step 2) or no ``summary.json``:
an unfinished run, which the same command completes (same bytes). A reader that finds a
``summary.json`` finds every file it lists complete. A checksum file a filesystem keeps beside a file
of ddlc's (Hadoop's local filesystem writes ``.postgres.sql.crc``) is taken as part of it.
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import orjson

from .errors import SUMMARY_FORMAT
from .fs import join, name_of
from .outputs import SUMMARY, TMP_PREFIX, OutputRefused, _after_step, ddlc_files, refuse

__all__ = ["check_output_fs", "commit_uri", "stage_uri", "commit_steps_uri"]


def _sidecar_of(name: str) -> str | None:
    """The ddlc file a checksum sidecar (``.x.crc``) belongs to, if any."""
    if name.startswith(".") and name.endswith(".crc") and name[1:-4] in ddlc_files():
        return name[1:-4]
    return None


def _is_summary(hfs: Any, uri: str) -> bool:
    try:
        doc = orjson.loads(hfs.read(uri))
    except Exception:  # noqa: BLE001 - unreadable, or not JSON: not ours
        return False
    return isinstance(doc, dict) and doc.get("format") == SUMMARY_FORMAT


def check_output_fs(hfs: Any, output: str, overwrite: bool = False) -> None:
    """:func:`.outputs.check_output` for a directory at a URI."""
    try:
        st = hfs.stat(output)
    except Exception as exc:  # noqa: BLE001 - py4j: no filesystem for the scheme, refused access, ...
        from .plan import _java_message

        raise OutputRefused(f"output directory {output}: cannot be reached: {_java_message(exc)}") from None
    if st is None:
        return
    if not st.is_dir:
        raise OutputRefused(f"output directory {output}: exists and is not a directory; choose another --output")
    ours = ddlc_files()
    committed, foreign = [], []
    for e in hfs.listdir(output):
        name = name_of(e.path)
        if e.is_dir and name.startswith(TMP_PREFIX):
            continue
        if not e.is_dir and (name in ours or _sidecar_of(name)):
            if name == SUMMARY and not _is_summary(hfs, e.path):
                foreign.append(f"{SUMMARY} (not a ddlc pipeline summary)")
            elif name in ours:
                committed.append(name)
        else:
            foreign.append(name + ("/" if e.is_dir else ""))
    refuse(output, foreign, committed, overwrite)


def commit_steps_uri(hfs: Any, output: str, names: list[str]) -> list[tuple[str, str]]:
    """The steps in order: ``("delete", name)`` or ``("write", name)``; the summary written last."""
    if not names or names[-1] != SUMMARY:
        raise ValueError(f"the files must end with {SUMMARY}: {names}")
    present = {name_of(e.path) for e in hfs.listdir(output) if not e.is_dir} if hfs.stat(output) else set()
    steps = [("delete", SUMMARY)] if SUMMARY in present else []
    steps += [("write", n) for n in names[:-1]]
    steps += [("delete", n) for n in sorted(ddlc_files() - set(names)) if n in present]
    steps.append(("write", SUMMARY))
    return steps


def commit_uri(hfs: Any, output: str, files: list[tuple[str, bytes]], overwrite: bool = False) -> None:
    """Write ``files`` (``summary.json`` last) into ``output`` by the steps of the module's text."""
    check_output_fs(hfs, output, overwrite)
    hfs.mkdirs(output)
    data = dict(files)
    steps = commit_steps_uri(hfs, output, [n for n, _ in files])
    _after_step(0)
    for n, (op, name) in enumerate(steps, 1):
        if op == "delete":
            hfs.delete(join(output, name))
        else:
            hfs.write(join(output, name), data[name])
        _after_step(n)
    for e in hfs.listdir(output):  # staging directories of earlier failed checks: this run is committed
        if e.is_dir and name_of(e.path).startswith(TMP_PREFIX):
            hfs.delete(e.path, recursive=True)


def stage_uri(hfs: Any, output: str, files: list[tuple[str, bytes]]) -> str:
    """The files of a run whose counts do not add up, for inspection, in a ``.ddlc-tmp-*`` directory
    inside ``output`` (nothing committed)."""
    tmp = join(output, f"{TMP_PREFIX}{uuid.uuid4().hex[:12]}-{os.getpid()}")
    hfs.mkdirs(tmp)
    for name, data in files:
        hfs.write(join(tmp, name), data)
    return tmp
