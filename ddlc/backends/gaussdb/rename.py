"""GaussDB emitters: rename statements."""

from __future__ import annotations
