"""Builders: event statements (in progress)."""

from __future__ import annotations
