"""Backends: one module per target. Each exposes ``translate(doc, options) -> Output``."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class Output:
    statements: tuple[str, ...]
    owner: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    comments: tuple[str, ...] = ()
