"""Builders: sequence statements (in progress)."""

from __future__ import annotations
