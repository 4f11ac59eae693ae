"""Every string the fixtures' JSON files hold (the texts the equivalence tests of issue 26 read old and new)."""

from __future__ import annotations

import glob
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]


def json_strings(max_len: int = 4000) -> set[str]:
    """The non-empty strings (at most ``max_len`` characters) of every JSON file under fixtures/."""
    out: set[str] = set()
    for f in sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.json"), recursive=True)):
        try:
            stack = [orjson.loads(Path(f).read_bytes())]
        except orjson.JSONDecodeError:
            continue
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
            elif isinstance(v, str) and 0 < len(v) <= max_len:
                out.add(v)
    return out
