"""How Spark SQL spells names and strings (the Spark target's :class:`~ddlc.backends.base.Dialect`).

ddlc's Spark scripts are run by ``spark-sql -f``, by appliers that cut them at ``;`` and by
``spark.sql``. spark-sql reads a file line by line (a line ends at LF, CR or CR LF), drops every line
that starts with ``--`` (Spark 4.3: once trimmed), joins the rest and cuts it into statements: with
``SparkSQLCLIDriver.splitSemiColon`` before Spark 4.3, which knows ``'...'``, ``"..."``, ``--`` and
``/* */`` comments and backslash escapes but not backticks, and with the parser's lexer since. So
every statement ddlc writes for Spark is one line, and what is inside its names and strings means
nothing to either splitter:

* An identifier is written bare when it is ``[A-Za-z_][A-Za-z0-9_]*`` and not one of
  :data:`QUOTED_WORDS`; otherwise in backticks, a backtick inside doubled. Spark folds nothing:
  names keep their case either way (Spark compares them case-insensitively by default).
  Backticks have no escapes and the older splitter ignores them, so a name holding a character that
  splitter or the line reader treats specially (``'``, ``"``, ``;``, ``\\``, ``--``, ``/*``, a line
  break or any other control character, U+2028/U+2029) cannot be written safely: :func:`spark_ident`
  raises :class:`UnsafeName` and the backend refuses the whole statement (DDLC-W804: the document
  fails with DDLC-E010 unless ``--on-unsupported comment`` or ``skip``). A name holding ``${``
  (Spark's variable substitution, below) or NUL is refused too (DDLC-E007).
* A string literal is single-quoted with backslash escapes (:func:`spark_literal`): ``\\\\`` for a
  backslash, ``\\'`` for a quote (Spark reads ``'it''s'`` as two adjacent literals, ``its``), ``\\n``,
  ``\\r`` and ``\\t`` for LF, CR and TAB, and ``\\uXXXX`` for every other C0/C1 control, DEL, NEL,
  U+2028/U+2029, the bidirectional controls (what a reader sees is what Spark reads) and lone
  surrogates: no literal spans a line. The ``$`` of ``${`` is written ``\\u0024``: Spark substitutes
  ``${name}`` in the text of every statement before parsing it (``spark.sql.variable.substitute``, on
  by default). Spark's lexer decodes all of these (``spark.sql.parser.escapedStringLiterals`` off,
  the default); ``tests/test_spark_script_safety.py`` checks the round trip with Spark itself.

:data:`QUOTED_WORDS` are the keywords Spark 4's parser refuses as bare names in some position a
statement of this target uses (probed against Spark's own ``sql_keywords()``:
``tests/test_spark_properties.py`` keeps the list true), plus the words that would be read as a
value or a function instead of a column (``null``, ``true``, ``current_date``...).
"""

from __future__ import annotations

import re

from ...diagnostics import Severity, register
from ...errors import DdlcError
from ... import lazyre

W_UNSAFE_NAME = register(
    "DDLC-W804", Severity.WARNING, "Name spark-sql cannot read safely",
    "spark-sql reads a script line by line, drops the lines that start with `--` and, before Spark 4.3, "
    "cuts statements with a splitter that knows quotes, comments and backslashes but not backticks. A name "
    "holding a quote (`'` or `\"`), a semicolon, a backslash, `--`, `/*`, a line break or another control "
    "character (or U+2028/U+2029) would be read there as the end of a statement, a string or a comment, "
    "although Spark's parser reads it as a name: the script would run other statements than the ones "
    "ddlc reports. Such a name is never written: the whole statement is refused (the document fails with "
    "DDLC-E010 unless --on-unsupported comment or skip). Rename the object, or map its schema "
    "(--schema-map).",
    "CREATE TABLE public.\"x'; DROP TABLE victim; --\" (a int)",
)

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

_BARE = lazyre.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# what spark-sql's file reader or its (pre-4.3) splitter reads specially even inside backticks
_SCRIPT_UNSAFE = lazyre.compile(r"['\";\\]|--|/\*|[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # str.splitlines's set
_WHY = {
    "'": "a quote ('), which spark-sql's statement splitter reads as the start or end of a string even inside "
         "backticks",
    '"': 'a double quote ("), which spark-sql\'s statement splitter reads as the start or end of a string even '
         "inside backticks",
    ";": "a semicolon, which spark-sql's statement splitter reads as the end of a statement even inside backticks",
    "\\": "a backslash, which spark-sql's statement splitter reads as an escape even inside backticks",
    "--": "'--', which spark-sql's statement splitter reads as the start of a comment even inside backticks",
    "/*": "'/*', which spark-sql's statement splitter reads as the start of a comment even inside backticks",
}


class UnsafeName(DdlcError):
    """A name no Spark script can hold safely (see :func:`script_unsafe`); the Spark backend turns it
    into the refusal of the whole statement (DDLC-W804)."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"the name {name!r} cannot be written in a Spark script: it holds {why}", code=W_UNSAFE_NAME)
        self.name = name


def script_unsafe(name: str) -> str | None:
    """Why ``name`` cannot be written in a Spark script (in words), or None when it can."""
    m = _SCRIPT_UNSAFE.search(name)
    if m is None:
        return None
    found = m.group()
    if found in _WHY:
        return _WHY[found]
    if found in "\n\r":
        return (f"a line break (U+{ord(found):04X}): spark-sql's file reader cuts lines there even inside "
                "backticks, and drops a line that starts with --")
    if found in _LINE_BREAKS:
        return (f"a line break (U+{ord(found):04X}) for editors and other readers of the script (every Spark "
                "statement ddlc writes is one line)")
    return f"the control character U+{ord(found):04X} (no name in a Spark script holds a control character)"


def needs_quotes(name: str) -> bool:
    return _BARE.match(name) is None or name.lower() in QUOTED_WORDS


def spark_ident(name: str) -> str:
    """A Spark identifier: bare when Spark reads it back as the same name, else in backticks.
    Raises :class:`UnsafeName` for a name no script can hold safely (see :func:`script_unsafe`)."""
    if not name or "\x00" in name or "${" in name:
        raise DdlcError(f"the name {name!r} cannot be written as a Spark identifier", code="DDLC-E007")
    if not needs_quotes(name):
        return name
    why = script_unsafe(name)
    if why is not None:
        raise UnsafeName(name, why)
    return "`" + name.replace("`", "``") + "`"


# written escaped in a literal: backslash, quote, the $ of ${, every control and line break (C0, DEL, C1
# with NEL, U+2028/9), the bidirectional controls and lone surrogates
_LITERAL_SPECIAL = lazyre.compile(r"[\\'\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                              r"\u2066-\u2069\ud800-\udfff]|\$(?=\{)")
_SHORT = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _literal_escape(m: re.Match[str]) -> str:
    c = m.group()
    return _SHORT.get(c) or f"\\u{ord(c):04x}"


def spark_literal(value: str) -> str:
    """A Spark string literal on one line: see the module's description for the escapes."""
    if "\x00" in value:
        raise DdlcError("a string with a NUL character cannot be written as a Spark literal", code="DDLC-E007")
    return "'" + _LITERAL_SPECIAL.sub(_literal_escape, value) + "'"


__all__ = ["QUOTED_WORDS", "UnsafeName", "W_UNSAFE_NAME", "needs_quotes", "script_unsafe", "spark_ident",
           "spark_literal"]
