"""Builders: drop statements (in progress)."""

from __future__ import annotations
