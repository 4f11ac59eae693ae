"""Builders: comment statements (in progress)."""

from __future__ import annotations
