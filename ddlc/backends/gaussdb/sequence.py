"""GaussDB emitters: sequence statements."""

from __future__ import annotations
