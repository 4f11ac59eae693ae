"""Builders: schema statements (in progress)."""

from __future__ import annotations
