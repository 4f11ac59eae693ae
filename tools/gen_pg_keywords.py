"""Regenerate ddlc/backends/pg_keywords.py from the installed pglast (``python -m tools.gen_pg_keywords``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

TARGET = Path(__file__).resolve().parents[1] / "ddlc" / "backends" / "pg_keywords.py"


def render() -> str:
    import pglast
    from pglast import keywords

    forced = sorted(keywords.RESERVED_KEYWORDS | keywords.COL_NAME_KEYWORDS | keywords.TYPE_FUNC_NAME_KEYWORDS)
    body = textwrap.fill(" ".join(forced), 100)
    return (
        '"""PostgreSQL keywords that force an identifier to be quoted (every category but unreserved).\n\n'
        f"Generated from pglast {pglast.__version__} (``pglast.keywords``: reserved, column-name and type/function-name\n"
        "keywords) so that quoting a name does not import the parser; ``tests/test_quoting_data.py`` checks it\n"
        'against the installed pglast. Regenerate with ``python -m tools.gen_pg_keywords``.\n"""\n\n'
        f'FORCED = frozenset("""\n{body}\n""".split())\n'
    )


if __name__ == "__main__":
    TARGET.write_text(render(), "utf-8")
