"""GaussDB emitters: drop statements."""

from __future__ import annotations
