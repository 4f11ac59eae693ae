"""The run driver: one stream of documents through every target, with the stream's history.

A :class:`Session` owns what a run shares across its documents: the targets (each with its own
catalog: the stream's history as that target has it), the position and the transaction a ``--state``
continues (:mod:`ddlc.state_file`, positions from :mod:`ddlc.frontend.txns`), and the one decision
per document of whether it was already seen. Each document is read and built once and emitted for
every target (:func:`ddlc.compiler.compile_many`); every failure is captured in that document's
result. ``ddlc translate``, :func:`ddlc.translate_many`, ``ddlc check``, ``ddlc replay`` (its fold:
:meth:`Session.normalized`) and the pipeline's stage 2 (one session per target or bucket, with the
build stage 1 made and the driver's "seen") drive their documents through it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .options import Options

__all__ = ["Session"]

_compile_many: Any = None  # ddlc.compiler.compile_many, imported on first use (not at start-up), then kept


def _load_compile_many() -> Any:
    global _compile_many
    from .compiler import compile_many

    _compile_many = compile_many
    return compile_many


# What a session calls, imported at the first session (not at start-up), then kept: an import statement runs
# importlib's Python code at every call (a translate_many call makes a session).
_DEPS: Any = None


def _load_deps() -> Any:
    global _DEPS
    from .backends import get_backend
    from .compiler import Result, _compile, _target, compile_one, failure
    from .history import Catalog

    _DEPS = (get_backend, Catalog, Result, _compile, _target, compile_one, failure)
    return _DEPS


class Session:
    """``Session(targets, options, state=PATH)``: translate documents for every target in turn.

    ``state``: a path (the history is loaded now, :class:`~ddlc.state_file.StateError` when it cannot
    be used, and saved by :meth:`close`) or a loaded :class:`~ddlc.state_file.History`."""

    __slots__ = ("backends", "options", "history", "catalogs", "path", "replayed", "_first_replay")

    def __init__(self, targets: Sequence[Any], options: Options, state: Any = None,
                 catalogs: Sequence[Any] | None = None) -> None:
        get_backend, Catalog = (_DEPS or _load_deps())[:2]
        self.backends = [get_backend(t) if isinstance(t, str) else t for t in targets]
        self.options = options
        self.history: Any = None
        self.path: str | None = None
        self.replayed = 0
        self._first_replay: Any = None
        if state is not None:
            from .state_file import History

            if isinstance(state, History):
                self.history = state
            else:
                self.path = os.fspath(state)
                self.history = History.load(self.path, self.backends[0].name)
        if catalogs is not None:  # the caller's (the pipeline's buckets: each its own history)
            self.catalogs = list(catalogs)
        elif self.history is None:
            self.catalogs = [Catalog() for _ in self.backends]
        elif len(self.backends) == 1:
            self.catalogs = [self.history.catalog]
        else:  # one catalog per target (a state of several targets keeps each one's)
            from .state_file import History

            self.catalogs = [self.history.catalog] + [
                History.load(self.path, b.name).catalog if self.path else Catalog() for b in self.backends[1:]]

    # -- reading --
    def txns(self) -> Any:
        """The run's transactions (None without a state: each input's own are folded by its reader)."""
        return self.history.txns() if self.history is not None else None

    # -- the run --
    def translate(self, doc: Any, fronted: Any = None, seen: bool | None = None) -> list[Any] | None:
        """One :class:`~ddlc.compiler.Result` per target (:func:`ddlc.api.translation` makes it the
        library's Translation), or None when the state had already seen ``doc``.

        ``fronted``: the document's build, when it was made already (the pipeline's stage 1);
        ``seen``: the decision made already for the whole log (the pipeline's driver, for a bucket of
        documents translated apart: the history is then neither asked nor advanced)."""
        compile_many = _compile_many or _load_compile_many()
        history = self.history
        if seen is None:
            seen = history is not None and history.seen(doc)
            advance = history is not None
        else:
            advance = False
        if seen:
            self.replayed += 1
            if self._first_replay is None and history is not None:
                self._first_replay = history.replay_note(doc)
            return None
        results = compile_many(doc, self.backends, self.options, self.catalogs, fronted)
        if advance:
            history.advance(doc)
        return results

    def first_target(self) -> Callable[[Any], Any]:
        """:meth:`translate` for the run's first target alone, as one function of a document: its
        :class:`~ddlc.compiler.Result`, or None when the state had already seen it (what
        :func:`ddlc.translate_many` asks of a one-target session, made once for the run: no list per
        document, the target's constants looked up once)."""
        Result, _compile, _target, compile_one, failure = (_DEPS or _load_deps())[2:]
        backend, options, catalog, history = self.backends[0], self.options, self.catalogs[0], self.history
        t = _target(options, backend)
        if history is None:
            def compiled(doc: Any) -> Any:  # (compile_one, one frame less)
                try:
                    return _compile(doc, backend, options, catalog, None, t)
                except Exception as exc:  # noqa: BLE001 - captured as data; the run goes on
                    return Result(error=failure(exc, doc.label))

            return compiled

        def translate(doc: Any) -> Any:
            if history.seen(doc):
                self.replayed += 1
                if self._first_replay is None:
                    self._first_replay = history.replay_note(doc)
                return None
            result = compile_one(doc, backend, options, catalog, t)
            history.advance(doc)
            return result

        return translate

    def direct(self) -> tuple[Any, ...] | None:
        """For a run of one target without a state, what :meth:`first_target`'s function does a document with, so
        that :func:`ddlc.api.translate_many` calls it in its own loop (one frame a document less): ``(compile,
        failure, Result, backend, options, catalog, t)``, where a document's :class:`~ddlc.compiler.Result` is
        ``compile(doc, backend, options, catalog, None, t)``, or ``Result(error=failure(exc, doc.label))`` when that
        raises ``exc``. None for any other run."""
        if self.history is not None or len(self.backends) != 1:
            return None
        Result, _compile, _target, _compile_one, failure = (_DEPS or _load_deps())[2:]
        backend, options = self.backends[0], self.options
        return _compile, failure, Result, backend, options, self.catalogs[0], _target(options, backend)

    def normalized(self, doc: Any) -> tuple[Any, Any, Any]:
        """``(statement, filtered, error)`` for ``doc`` on the first target: the statement after the passes
        (recorded in that target's catalog), or why the filters left it out, or its failure; what
        ``ddlc replay`` folds (its target, ``gaussdb``, has no rules: the statement as the source meant it,
        names qualified and mapped)."""
        from .compiler import failure, filtered_out, front, normalize

        backend, catalog = self.backends[0], self.catalogs[0]
        try:
            f = front(doc, self.options)
            if self.options.filtering:
                reason = filtered_out(f, doc, self.options)
                if reason is not None:
                    return None, reason, None
            stmt, _ = normalize(f.stmt, backend, self.options, document=doc.label, catalog=catalog)
            catalog.record(stmt)
            return stmt, None, None
        except Exception as exc:  # noqa: BLE001 - captured as data; the run goes on
            return None, None, failure(exc, doc.label)

    def run(self, docs: Iterable[Any]) -> Iterator[tuple[Any, list[Any] | None]]:
        """``(document, results or None when already seen)`` for each document, in order."""
        for doc in docs:
            yield doc, self.translate(doc)

    def replay_note(self) -> str | None:
        """What the run says once when it skipped documents the state had already seen."""
        return self._first_replay

    def close(self, stream: Any = None) -> str | None:
        """The end of the run: the transaction it ended inside of kept (``stream``: the documents'
        :class:`~ddlc.frontend.documents.DocumentStream`), the history saved; a note when a transaction
        is kept for the next batch."""
        if self.history is None:
            return None
        note = self.history.keep_open(stream.txns) if stream is not None else None
        if self.path is not None:
            catalogs = ({b.name: c for b, c in zip(self.backends, self.catalogs, strict=True)}
                        if len(self.backends) > 1 else None)
            self.history.save(self.path, catalogs)
        return note
