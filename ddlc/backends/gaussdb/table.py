"""GaussDB emitters: table statements."""

from __future__ import annotations
