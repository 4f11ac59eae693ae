"""GaussDB emitters: CREATE TYPE statements."""

from __future__ import annotations
