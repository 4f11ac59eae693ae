"""``ddlc apply`` and :func:`ddlc.apply`: exactly-once replay of a decoding log into a live PostgreSQL.

See docs/apply.md. :mod:`.source` groups the run driver's documents by source transaction, :mod:`.runner`
applies them (one target transaction per source transaction, with the progress row), :mod:`.tables` holds
every statement ddlc writes to its own tables, :mod:`.alone` the statements that run outside a transaction
block, :mod:`.plan` ``--plan``. psycopg 3 is needed (``pip install 'ddlc[apply]'``); it is imported only
when a run starts.

``ddlc.apply`` is both this package and the function: the module is callable (``ddlc.apply(log, dsn=...)``).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable
from typing import Any

__all__ = ["apply", "ApplyResult", "ApplyError"]


class ApplyResult:
    """What :func:`apply` did: counts (``applied`` source transactions, ``statements``, lock timeouts
    ``retried``, ``failed``, ``held``, ``skipped`` as already applied, ``resolved`` by ``skip=``), the
    ``position`` now applied, and why it ``stopped`` early (None: the whole log). ``ok``: nothing failed
    or was held. A plan (``plan=True``) is in ``plan`` (:class:`ddlc.apply.plan.PlanReport`)."""

    def __init__(self, tally: Any = None, plan: Any = None) -> None:
        self.plan = plan
        data = tally.to_dict() if tally is not None else {}
        for k in ("applied", "statements", "retried", "failed", "held", "skipped", "state_seen", "resolved"):
            setattr(self, k, data.get(k, 0))
        self.position: str | None = data.get("position") if tally is not None else (plan.position if plan else None)
        self.stopped: str | None = data.get("stopped")

    @property
    def ok(self) -> bool:
        if self.plan is not None:
            return bool(self.plan.ok)
        return not (self.failed or self.held or self.stopped and "COMMIT" not in self.stopped)

    def to_dict(self) -> dict[str, Any]:
        if self.plan is not None:
            return self.plan.to_dict()
        return {k: getattr(self, k) for k in ("applied", "statements", "retried", "failed", "held", "skipped",
                                              "state_seen", "resolved", "position", "stopped")}

    def __repr__(self) -> str:
        return f"ApplyResult({self.to_dict()!r})"


def __getattr__(name: str) -> Any:
    if name == "ApplyError":
        from .run import ApplyError

        return ApplyError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def apply(docs: Any = None, dsn: str = "", target: str = "postgres", *, state: Any = None, source: str = "default",
          progress_table: str = "ddlc.progress", lock_timeout: str = "5s", statement_timeout: str = "0",
          retries: int = 5, backoff: float = 0.1, on_error: str = "stop", retry: bool = False,
          skip: Iterable[int] = (), plan: bool = False, options: Any = None, **translate_options: Any) -> ApplyResult:
    """Translate ``docs`` (as :func:`ddlc.translate_many` takes them: a path, bytes or a str holding a log,
    or an iterable of documents; None: no log, for ``retry``/``skip``) for ``target`` and apply them to the
    PostgreSQL server at ``dsn``, each source transaction in one target transaction with the progress row
    of ``source`` (docs/apply.md). ``translate_options``: those of :func:`ddlc.translate_many`.

    Raises :class:`ApplyError` (a ValueError) when the run cannot start (a bad setting, no server), and
    TypeError/ValueError for a bad translate option; a failed statement is in the result (and the failed
    table), never raised."""
    from ..api import Options
    from ..backends import get_backend
    from .run import ApplySettings, ApplyError, documents, run

    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise ModuleNotFoundError("ddlc.apply needs the Python library psycopg, which is not installed; install "
                                  "ddlc with the extra: pip install 'ddlc[apply]'", name="psycopg") from None

    if target != "postgres":
        raise ApplyError(f"ddlc apply applies to PostgreSQL only (--to postgres), not {target!r}")
    settings = ApplySettings(dsn, source=source, progress_table=progress_table, lock_timeout=lock_timeout,
                             statement_timeout=statement_timeout, retries=retries, backoff=backoff,
                             on_error=on_error, retry=retry, skip=skip, plan=plan)
    opts = options.merged(**translate_options) if options is not None and translate_options else (
        options if options is not None else Options.of(**translate_options))
    backend = get_backend(target)
    if docs is not None and isinstance(docs, str) and "\n" not in docs and not docs.lstrip().startswith(("{", "[")):
        import os

        if os.path.isfile(docs):
            import pathlib

            docs = pathlib.Path(docs)
    read = None if docs is None else (lambda txns: documents(docs, txns))
    out = run(settings, backend, opts, state, read)
    return ApplyResult(plan=out) if plan else ApplyResult(out)


class _CallableModule(types.ModuleType):
    """``ddlc.apply(...)`` calls :func:`apply` once the package ``ddlc.apply`` is imported (the name is both)."""

    def __call__(self, *args: Any, **kwargs: Any) -> ApplyResult:
        return apply(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
