"""GaussDB emitters: schema statements."""

from __future__ import annotations
