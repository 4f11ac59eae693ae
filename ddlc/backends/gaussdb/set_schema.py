"""GaussDB emitters: set_schema statements."""

from __future__ import annotations
