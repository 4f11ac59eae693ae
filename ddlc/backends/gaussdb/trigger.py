"""GaussDB emitters: trigger statements."""

from __future__ import annotations
