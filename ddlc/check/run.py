"""``ddlc check``: will these documents replay on the targets? Every finding as data.

Each file is read with the frontend's readers, each document validated against ``grammars/`` and,
when valid, translated to every target (a file is one stream: its documents share a history per
target). What comes out is a list of :class:`Finding` (file, line, document, JSON path, code,
severity, message, target) and whether each fails the check under the configuration: an error
fails; a warning fails under ``strict``; a code in ``deny`` always fails; a code in ``allow`` never.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import field
from typing import Any

from ..records import record
from .config import CheckConfig
from .. import lazyre

__all__ = ["Finding", "CheckReport", "check_paths", "expand_paths", "error_at", "listed_files", "looks_jddl"]

SEVERITY_RANK = {"error": 0, "warning": 1, "note": 2, "info": 3}


@record(frozen=True, slots=True)
class Finding:
    file: str  # the path as given (or "<stdin>")
    line: int  # 1-based line of the value the finding is about (the document's start when unknown)
    document: str  # the document's label: "file.jsonl:3", "file.json[2]", "file.json"
    path: str  # JSON path inside the document ("$.table_elements.elements[4]")
    code: str
    severity: str  # error | warning | note | info
    message: str
    target: str | None = None  # None: about the input itself (reading, grammars/)
    fails: bool = False  # does it fail the check (configuration applied)
    allowed: bool = False  # its code is in ``allow``
    column: int | None = None  # 1-based column, when known (a JSON syntax error)

    def to_dict(self) -> dict[str, Any]:
        out = {"file": self.file, "line": self.line, "document": self.document, "path": self.path,
               "code": self.code, "severity": self.severity, "message": self.message, "target": self.target,
               "fails": self.fails, "allowed": self.allowed}
        if self.column is not None:  # (only when known: a JSON syntax error)
            out["column"] = self.column
        return out


_AT = lazyre.compile(r"line (\d+) column (\d+)")


def error_at(e: Any, line: int, data: bytes | None = None) -> tuple[int, int | None]:
    """The line and column of error ``e`` of a document whose text starts at line ``line``: a JSON syntax
    error's own (its message says where, relative to the text parsed; invalid UTF-8 says its byte offset in
    ``data``), else ``(line, None)``."""
    if getattr(e, "code", None) != "DDLC-E001":
        return line, None
    m = _AT.search(e.message)
    if m is not None:
        return line + int(m[1]) - 1, int(m[2])
    pos = getattr(e, "position", None)
    if data is not None and line == 1 and isinstance(pos, int) and 0 <= pos <= len(data):
        return data.count(b"\n", 0, pos) + 1, pos - data.rfind(b"\n", 0, pos)
    return line, None


@record(slots=True)
class CheckReport:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    documents: int = 0
    targets: tuple[str, ...] = ()
    empty: list[str] = field(default_factory=list)  # inputs with no document at all
    not_jddl: list[str] = field(default_factory=list)  # files left alone: no JDDL key anywhere (looks_jddl)

    @property
    def failed(self) -> bool:
        return any(f.fails for f in self.findings)

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity and not f.allowed)


def expand_paths(paths: Iterable[str], config: CheckConfig, *, explicit_files: bool = False,
                 git: bool = False) -> Iterator[str]:
    """The files to check: a directory stands for the files under it that the include/exclude globs
    select (sorted; listed as git lists them with ``git``: see :func:`listed_files`); a file named
    explicitly is checked when the globs select it too, as pre-commit names them (``explicit_files``: when
    only the exclude globs leave it out). Missing paths come out as they are (reading them is the finding).
    A glob that is not one raises :class:`~ddlc.check.config.ConfigError`."""
    for p in paths:
        if p != "-" and os.path.isdir(p):
            yield from sorted(f for f in listed_files(p, git=git) if config.wanted(f))
        elif p == "-" or not os.path.exists(p):
            yield p
        elif (explicit_files and not config.excluded(p)) or config.wanted(p):
            yield p


def listed_files(d: str, *, git: bool = False) -> list[str]:
    """The files under directory ``d``: with ``git``, inside a git work tree, the files git knows (tracked,
    and untracked but not ignored: ``git ls-files --cached --others --exclude-standard``, so .gitignore'd
    directories such as node_modules are never walked); otherwise (or when git cannot say) every file
    under it, hidden directories skipped."""
    if git:
        got = _git_files(d)
        if got is not None:
            return got
    found = []
    for base, dirs, files in os.walk(d):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        found.extend(os.path.join(base, f) for f in files)
    return found


def _git_files(d: str) -> list[str] | None:
    import subprocess

    try:
        p = subprocess.run(["git", "-C", d, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if p.returncode != 0:  # not a repository (or no git): the walk
        return None
    out = []
    for rel in dict.fromkeys(p.stdout.decode("utf-8", "surrogateescape").split("\0")):
        if rel:
            path = os.path.join(d, rel)
            if os.path.isfile(path):  # (a tracked file deleted in the work tree is not there)
                out.append(path)
    return out


_JDDL_KEY = lazyre.compile(rb'\\?"{1,2}(?:fmt|JDDL|TDDL)\\?"{1,2}\s*:')


def looks_jddl(data: bytes) -> bool:
    """Does ``data`` hold a ``fmt``, ``JDDL`` or ``TDDL`` key anywhere (also inside a string, as a rows file
    of the decoding functions quotes its documents)? A JSON file without one (package.json, tsconfig.json,
    even with comments) cannot be a JDDL document at any level."""
    return _JDDL_KEY.search(data) is not None


def check_paths(paths: Iterable[str], config: CheckConfig, *, stdin: Any = None,
                on_file: Callable[[str], None] | None = None) -> CheckReport:
    """Check every file; never raises on input (a file that cannot be read is a finding). A
    configuration without targets is refused (ValueError): it would check nothing and pass."""
    if not config.targets:
        raise ValueError("no target to check against: a check without targets would pass anything")
    report = CheckReport(targets=tuple(config.targets))
    for path in paths:
        left_alone = len(report.not_jddl)
        _check_file(path, config, report, stdin)
        report.files += len(report.not_jddl) == left_alone
        if on_file is not None:
            on_file(path)
    return report


def _check_file(path: str, config: CheckConfig, report: CheckReport, stdin: Any) -> None:
    from ..api import Options
    from ..frontend.documents import read_documents
    from ..frontend.schema import validate
    from ..session import Session
    from .positions import Locator

    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            stream = stdin.buffer if hasattr(stdin, "buffer") else stdin
            data = stream.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        why = "is a directory" if isinstance(exc, IsADirectoryError) else (exc.strerror or str(exc)).lower()
        _add(report, config, Finding(name, 1, name, "$", "DDLC-E006", "error", f"cannot read {name}: {why}"))
        return
    if not data.strip():
        report.empty.append(name)
        _add(report, config, Finding(name, 1, name, "$", "DDLC-E014", "error",
                                     "no documents: the input is empty"))
        return
    if path != "-" and not config.require_jddl and not looks_jddl(data):
        report.not_jddl.append(name)  # package.json: not ours to check (require-jddl: it is)
        return
    options = Options.of(default_schema=config.default_schema, schema_map=config.schema_map,
                         **dict(config.target_options))
    session = Session(config.targets, options)  # each document read and built once for every target
    backends = session.backends
    locator: Locator | None = None
    for doc in read_documents(data, source=name):
        report.documents += 1
        if locator is None:
            locator = Locator(data.decode("utf-8", errors="replace"))

        def line(p: tuple[Any, ...], doc: Any = doc) -> int:
            """The line of the value at path ``p`` of ``doc`` (its first line when not found)."""
            if doc.label.endswith("]"):  # an element of the file's one JSON array
                i: int | None = doc.index
            elif len(locator) > 1:  # JSON lines: the document starting on its line
                i = locator.document_at_line(doc.line)
            else:
                i = 0
            got = locator.line(i, p) if i is not None else None
            return got if got is not None else doc.line

        if doc.error is not None:
            e = doc.error
            at, column = (line(e.path), None) if e.path else error_at(e, doc.line, data)
            _add(report, config, Finding(name, at, doc.label, e.jsonpath, e.code, "error", _text(e), column=column))
            continue
        if doc.tree is not None:
            problems = validate(doc.tree, document=doc.label)
            for e in problems:
                _add(report, config, Finding(name, line(e.path), doc.label, e.jsonpath, e.code, "error", _text(e)))
            if problems:
                continue
        errors: dict[tuple[str, str, str], tuple[tuple[Any, ...], list[str]]] = {}
        for backend, t in zip(backends, session.translate(doc) or (), strict=True):
            for d in t.diagnostics:
                _add(report, config, Finding(name, line(d.path), doc.label, d.jsonpath, d.code, d.severity.value,
                                             d.message, backend.name))
            if t.error is not None:
                e = t.error
                errors.setdefault((e.code, e.jsonpath, _text(e)), (e.path, []))[1].append(backend.name)
        for (code, jpath, message), (path_, names) in errors.items():
            # the same error on every target is the document's own (it cannot be read): said once
            once = len(backends) > 1 and len(names) == len(backends) and code != "DDLC-E010"
            for tname in ([None] if once else names):
                _add(report, config, Finding(name, line(path_), doc.label, jpath, code, "error", message, tname))


def _text(e: Any) -> str:
    hint = getattr(e, "hint", None)
    return e.message + (f" ({hint})" if hint else "")


def _add(report: CheckReport, config: CheckConfig, f: Finding) -> None:
    allowed = f.code in config.allow
    fails = not allowed and (f.code in config.deny or f.severity == "error"
                             or (config.strict and f.severity == "warning"))
    report.findings.append(Finding(f.file, f.line, f.document, f.path, f.code, f.severity, f.message, f.target,
                                   fails, allowed, f.column))
