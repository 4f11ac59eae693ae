"""GaussDB emitters: alter statements."""

from __future__ import annotations
