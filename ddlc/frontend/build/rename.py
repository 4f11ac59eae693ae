"""Builders: rename statements (in progress)."""

from __future__ import annotations
