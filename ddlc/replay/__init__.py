"""``ddlc replay``: the schema a log leaves behind, as JSON or as one clean CREATE script per target.

Each document goes the one path's front half (:func:`ddlc.compiler.front`, then the passes with the
GaussDB target's (empty) rules: START/END/EVERY expanded, names qualified, ``--schema-map`` applied)
and the statement is folded into a :class:`~ddlc.replay.schema_model.SchemaModel`
(:mod:`ddlc.replay.fold`). The model is written as JSON (:meth:`SchemaModel.to_json`) or turned back
into IR statements (:mod:`ddlc.replay.rebuild`) that go the back half of the path
(:func:`ddlc.compiler.compile_statement`) for the chosen target.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..records import record
from ..diagnostics import Diagnostic
from ..errors import DdlcError

if TYPE_CHECKING:
    from ..options import Options


@record(slots=True)
class Replay:
    """The fold of a log: the model, what the fold said, the documents that failed to read."""

    folder: Any
    documents: int = 0
    filtered: int = 0
    errors: list[DdlcError] = field(default_factory=list)

    @property
    def model(self) -> Any:
        return self.folder.model

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.folder.diagnostics

    def to_json(self) -> dict[str, Any]:
        return self.model.to_json() | {
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "errors": [e.to_dict() for e in self.errors],
        }


def fold_log(docs: Iterable[Any], options: Options) -> Replay:
    """Fold every document of ``docs`` (``ddlc.frontend.documents`` documents), in order: each is read,
    filtered, normalized and recorded by the run's :class:`~ddlc.session.Session` (target ``gaussdb``: no
    rules, the statement as the source meant it, names qualified and mapped), then folded."""
    from ..session import Session
    from .fold import Folder

    session = Session(["gaussdb"], options)
    out = Replay(Folder())
    for doc in docs:
        out.documents += 1
        stmt, filtered, error = session.normalized(doc)
        if error is not None:
            out.errors.append(error)
        elif filtered is not None:
            out.filtered += 1
        else:
            try:
                out.folder.fold(stmt, doc.label)
            except Exception as exc:  # noqa: BLE001 - captured as data; the fold goes on
                from ..compiler import failure

                out.errors.append(failure(exc, doc.label))
    return out


@record(slots=True)
class ScriptPart:
    """One statement of the model on the target: its label (``table public.t``) and the compiler's result."""

    label: str
    result: Any


def script(replay: Replay, target: str, options: Options) -> list[ScriptPart]:
    """The CREATE script of the replayed schema on ``target``: one result per IR statement."""
    from dataclasses import replace as dc_replace

    from ..backends import get_backend
    from ..compiler import Result, compile_statement, failure
    from ..history import Catalog
    from .rebuild import statements

    backend = get_backend(target)
    opts = dc_replace(options, schema_map=(), role_map=())  # names were mapped when the log was folded
    catalog = Catalog()
    parts: list[ScriptPart] = []
    notes: list[Diagnostic] = []
    for label, stmt in statements(replay.model, notes):
        try:
            r = compile_statement(stmt, backend, opts, catalog, document=f"replay: {label}")
        except Exception as exc:  # noqa: BLE001 - captured as data: this statement fails, the others go on
            r = Result(error=failure(exc, f"replay: {label}"))
        parts.append(ScriptPart(label, r))
    replay.folder.diagnostics.extend(notes)
    return parts


__all__ = ["Replay", "ScriptPart", "fold_log", "script"]
