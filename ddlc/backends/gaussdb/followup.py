"""GaussDB emitters: followup statements."""

from __future__ import annotations
