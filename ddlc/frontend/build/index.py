"""Builders: index statements (in progress)."""

from __future__ import annotations
