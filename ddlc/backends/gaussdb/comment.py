"""GaussDB emitters: comment statements."""

from __future__ import annotations
