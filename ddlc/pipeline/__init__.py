"""The PySpark pipeline over logical-decoding logs: ``ddlc pipeline run`` and :func:`run`.

It calls the same library code as ``ddlc translate`` (readers, :func:`ddlc.api.translate_document`);
Spark only spreads the reading over cores or machines and keeps the order. See
:mod:`.plan` (pieces), :mod:`.work` (what the workers run), :mod:`.run` (the driver) and
:mod:`.outputs` (what is written, atomically). Spark is imported only when a run starts.
"""

from __future__ import annotations

from typing import Any

__all__ = ["run"]


def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """See :func:`ddlc.pipeline.run.run`."""
    from .run import run as _run

    return _run(*args, **kwargs)
