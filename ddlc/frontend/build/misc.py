"""Builders: misc statements."""

from __future__ import annotations
