"""GaussDB emitters: routine statements."""

from __future__ import annotations
