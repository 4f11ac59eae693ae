"""How Spark SQL spells names and strings (the Spark target's :class:`~ddlc.backends.base.Dialect`).

* An identifier is written bare when it is ``[A-Za-z_][A-Za-z0-9_]*`` and not one of
  :data:`QUOTED_WORDS`; otherwise in backticks, a backtick inside doubled. Spark folds nothing:
  names keep their case either way (Spark compares them case-insensitively by default).
* A string literal is single-quoted with backslash escapes: ``\\`` for a backslash and ``\'`` for
  a quote (Spark reads ``'it''s'`` as two adjacent literals, ``its``). Every other character,
  newlines included, stands for itself, except the ``$`` of ``${``, written ``\u0024``: Spark
  substitutes ``${name}`` in the text of every statement before parsing it
  (``spark.sql.variable.substitute``, on by default). A name holding ``${`` cannot be protected
  that way (backticks have no escapes) and is refused (DDLC-E007).

:data:`QUOTED_WORDS` are the keywords Spark 4's parser refuses as bare names in some position a
statement of this target uses (probed against Spark's own ``sql_keywords()``:
``tests/test_spark_quoting.py`` keeps the list true), plus the words that would be read as a
value or a function instead of a column (``null``, ``true``, ``current_date``...).
"""

from __future__ import annotations

import re

from ...errors import DdlcError

# keywords Spark 4's parser refuses as bare identifiers (ANSI defaults; reproduced by the tests)
STRICT_KEYWORDS = frozenset({
    "anti", "cross", "except", "full", "identifier", "inner", "intersect", "join", "lateral", "left", "minus",
    "natural", "on", "right", "semi", "union", "using",
})
# bare words an expression reads as a value or a niladic function, not as a column
VALUE_WORDS = frozenset({
    "null", "true", "false", "default", "current_date", "current_time", "current_timestamp", "current_user",
    "current_catalog", "current_schema", "current_database", "session_user", "user", "localtimestamp",
    "localtime",
})
QUOTED_WORDS = STRICT_KEYWORDS | VALUE_WORDS

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def needs_quotes(name: str) -> bool:
    return _BARE.match(name) is None or name.lower() in QUOTED_WORDS


def spark_ident(name: str) -> str:
    """A Spark identifier: bare when Spark reads it back as the same name, else in backticks."""
    if not name or "\x00" in name or "${" in name:
        raise DdlcError(f"the name {name!r} cannot be written as a Spark identifier", code="DDLC-E007")
    if not needs_quotes(name):
        return name
    return "`" + name.replace("`", "``") + "`"


def spark_literal(value: str) -> str:
    """A Spark string literal: backslashes and quotes escaped with a backslash."""
    if "\x00" in value:
        raise DdlcError("a string with a NUL character cannot be written as a Spark literal", code="DDLC-E007")
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("${", "\\u0024{") + "'"


__all__ = ["QUOTED_WORDS", "needs_quotes", "spark_ident", "spark_literal"]
