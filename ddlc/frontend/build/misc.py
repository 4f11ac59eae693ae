"""Builders: misc statements (in progress)."""

from __future__ import annotations
