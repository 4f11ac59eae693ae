"""GaussDB emitters: index statements."""

from __future__ import annotations
