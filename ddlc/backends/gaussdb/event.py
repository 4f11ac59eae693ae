"""GaussDB emitters: event statements."""

from __future__ import annotations
