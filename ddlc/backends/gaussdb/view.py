"""GaussDB emitters: view statements."""

from __future__ import annotations
