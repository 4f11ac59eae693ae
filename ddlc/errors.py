"""Errors that stop one document (never the whole run).

Every error names *what* went wrong, *where* (a JSON path into the document, such as
``$.table_elements.elements[1].coltype``) and *which document* (source and index).
"""

from __future__ import annotations

from collections.abc import Sequence

PathPart = str | int
Path = tuple[PathPart, ...]


def _is_simple_key(key: str) -> bool:
    return key.isidentifier() and key.isascii()


def jsonpath(path: Sequence[PathPart]) -> str:
    """Render a path as JSONPath: ``("a", 1, "b")`` -> ``$.a[1].b``."""
    out = ["$"]
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _is_simple_key(part):
            out.append("." + part)
        else:
            out.append('["' + part.replace("\\", "\\\\").replace('"', '\\"') + '"]')
    return "".join(out)


class DdlcError(Exception):
    """A document could not be read, validated or translated.

    ``code`` is a stable ``DDLC-E###`` code, ``path`` the JSON path inside the document,
    ``document`` a human label (``input.json#3``), ``fmt`` the template being expanded.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str = "DDLC-E100",
        path: Sequence[PathPart] = (),
        document: str | None = None,
        fmt: str | None = None,
        position: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.path: Path = tuple(path)
        self.document = document
        self.fmt = fmt
        self.position = position
        self.hint = hint  # said after the message, in plain words (the message may be the server's own)

    @property
    def jsonpath(self) -> str:
        return jsonpath(self.path)

    def with_document(self, document: str) -> DdlcError:
        if self.document is None:
            self.document = document
        return self

    def __str__(self) -> str:
        parts = []
        if self.document:
            parts.append(self.document)
        parts.append(self.jsonpath)
        head = ": ".join(parts)
        text = f"{head}: {self.message}" + (f" ({self.hint})" if self.hint else "") + f" [{self.code}]"
        if self.fmt is not None:
            text += f' (while expanding format string "{self.fmt}")'
        return text

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": self.message,
            "path": self.jsonpath,
            "document": self.document,
            "fmt": self.fmt,
            "position": self.position,
        } | ({"hint": self.hint} if self.hint else {})

    def __reduce__(self):  # picklable across process boundaries (Spark workers)
        return (
            _rebuild,
            (self.message, self.code, self.path, self.document, self.fmt, self.position, self.hint),
        )


def _rebuild(message, code, path, document, fmt, position, hint=None):  # pragma: no cover - pickling
    return DdlcError(
        message, code=code, path=path, document=document, fmt=fmt, position=position, hint=hint
    )


class InternalError(DdlcError):
    """A bug in ddlc (for example an unsupported node reaching an emitter)."""

    def __init__(self, message: str, **kw) -> None:
        kw.setdefault("code", "DDLC-E900")
        super().__init__(message, **kw)
