"""Builders: set_schema statements (in progress)."""

from __future__ import annotations
