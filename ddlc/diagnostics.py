"""Diagnostics: data, never logs.

Every diagnostic carries a stable code from :data:`CODES`. Families:

* ``DDLC-E###`` — the input is wrong (the document fails; other documents go on);
* ``DDLC-W###`` — the target cannot express something (a documented loss);
* ``DDLC-N###`` — ddlc does not do it yet (ours to fix);
* ``DDLC-I###`` — information (a clause was rewritten without loss, a follow-up classified).

``docs/diagnostics.md`` is generated from :data:`CODES` (``python -m tools.gen_docs``).
"""

from __future__ import annotations

import re

import enum

from .records import Struct, keyed, record, sealed
from .errors import PathPart, jsonpath
from . import lazyre


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"
    INFO = "info"


@record(frozen=True, slots=True)
class Code:
    code: str
    severity: Severity
    title: str
    explanation: str
    example: str = ""


CODES: dict[str, Code] = {}
_FAMILY_SEVERITY = {"E": Severity.ERROR, "W": Severity.WARNING, "N": Severity.NOTE, "I": Severity.INFO}


def register(code: str, severity: Severity, title: str, explanation: str, example: str = "") -> str:
    if code in CODES:
        raise ValueError(f"diagnostic code {code} registered twice")
    family = code.split("-")[1][0]
    expected = {"E": Severity.ERROR, "W": Severity.WARNING, "N": Severity.NOTE, "I": Severity.INFO}
    if expected[family] is not severity:
        raise ValueError(f"{code}: family {family} needs severity {expected[family].value}")
    CODES[code] = Code(code, severity, title, explanation, example)
    return code


@keyed(uncompared=("dropped_text", "dropped_node", "dropped_prefix", "dropped_after", "dropped_within"),
       unshown=("dropped_node", "dropped_prefix", "dropped_after", "dropped_within"))
@sealed
class Diagnostic(Struct, frozen=True):
    """One finding (a record made in C, :class:`ddlc.records.Struct`: a CREATE TABLE makes a few; equality,
    hashing and ``repr`` leave out the ``dropped_*`` fields, as ``field(compare=False)``/``field(repr=False)``
    of a record would: :func:`ddlc.records.keyed`)."""

    code: str
    message: str
    path: tuple[PathPart, ...] = ()
    target: str | None = None
    pass_name: str | None = None
    document: str | None = None
    # Source text of a dropped clause, for ``--on-unsupported comment``.
    dropped_text: str | None = None
    # Or the dropped node itself: the library renders its GaussDB text only when a comment is asked for.
    dropped_node: object = None
    dropped_prefix: str = ""
    # A clause removed from a node (a field set to its absent value, or a rewrite): ``dropped_node`` is the
    # node before, ``dropped_after`` the node after, and the comment shows what the GaussDB text of the one
    # has that the other's has not. ``dropped_within``: the nodes enclosing it (the statement first), then
    # the node as it sits in its parent, to render it in its statement when it has no text of its own.
    dropped_after: object = None
    dropped_within: tuple[object, ...] = ()

    @property
    def severity(self) -> Severity:
        """The code's severity: its registration, or its family letter (registration checks they agree),
        so a diagnostic unpickled where its registering module was never imported (a Spark worker
        that takes stage 1's build) still has one."""
        c = CODES.get(self.code)
        return c.severity if c is not None else _FAMILY_SEVERITY[self.code.split("-")[1][0]]

    @property
    def jsonpath(self) -> str:
        return jsonpath(self.path)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "path": self.jsonpath,
        }
        if self.target is not None:
            out["target"] = self.target
        if self.pass_name is not None:
            out["pass"] = self.pass_name
        if self.document is not None:
            out["document"] = self.document
        return out

    def __str__(self) -> str:
        where = f"{self.document}: " if self.document else ""
        return f"{where}{self.jsonpath}: {self.severity.value}: {self.message} [{self.code}]"


S = Severity

# ---- input errors (the document fails) -------------------------------------------------
E_JSON = register(
    "DDLC-E001", S.ERROR, "Malformed JSON",
    "The document is not valid JSON (or not valid UTF-8: the message gives the byte offset; `NaN` and "
    "`Infinity` are not JSON either). The other documents of the input are still translated.",
    '{"fmt": "CREATE TABLE',
)
E_SHAPE = register(
    "DDLC-E002", S.ERROR, "Not a JDDL document",
    "The JSON value is not a JDDL tree (an object with a string `fmt`), a `{\"JDDL\": tree}` envelope "
    "or a `{\"TDDL\": \"text\"}` envelope.",
    '[1, 2, 3]',
)
E_EXPAND = register(
    "DDLC-E003", S.ERROR, "Template expansion failed",
    "Expanding a `fmt` template failed exactly where openGauss's `deparse_ddl_json_to_string` raises an "
    "error: a missing element, a value of the wrong JSON type for its conversion, an unterminated or "
    "invalid conversion specifier, or a non-array value for `%{name:sep}s`. The message is the server's, "
    "the path points at the offending value and the fmt being expanded is quoted.",
    '{"fmt": "CREATE TABLE %{identity}D"}  ->  element "identity" not found',
)
E_DEPTH = register(
    "DDLC-E004", S.ERROR, "Tree nested too deeply",
    "The tree is nested deeper than ddlc's bound (256 levels); real deparser trees are at most ~8 deep.",
)
E_SCHEMA = register(
    "DDLC-E005", S.ERROR, "Schema violation",
    "The document does not match the JSON Schema in `grammars/` (reported by `ddlc validate`, "
    "`ddlc check` and `translate --validate`).",
    '{"fmt": 42}',
)
E_INPUT = register(
    "DDLC-E006", S.ERROR, "Unreadable input",
    "An input file could not be opened or decoded; a decoding-output line or frame is damaged (a truncated "
    "frame, a DDL message line whose head is damaged, a row whose quoted value never ends); or a string of "
    "the document holds NUL or a lone surrogate, which no target can write (the path names it).",
)
E_BUILD = register(
    "DDLC-E007", S.ERROR, "Malformed statement tree",
    "The tree expands, but a value the statement needs is missing or has the wrong form for its kind "
    "(for example a partition clause that does not parse).",
)
E_PARTITION = register(
    "DDLC-E008", S.ERROR, "Invalid START/END/EVERY partition list",
    "Expanding START/END/EVERY range partitions failed with the same error the database raises "
    "(gap or overlap, step too big or too small, MAXVALUE in an EVERY clause, unsupported key type...).",
    "PARTITION p1 START(1) END(100) EVERY(101)  ->  partition step is too big for partition \"p1\".",
)
E_UNSUPPORTED = register(
    "DDLC-E009", S.ERROR, "Unsupported clause refused",
    "With `--on-unsupported error`, a clause the target cannot take fails the document instead of being "
    "dropped with a warning.",
)
E_NOT_TRANSLATED = register(
    "DDLC-E010", S.ERROR, "Statement not translated",
    "The target has no form for the statement (or for everything it does), so nothing would be written "
    "for it. By default the document fails, naming the warning that says why: no statement may be missing "
    "from the output of a run that exits 0. `--on-unsupported comment` keeps the statement as an SQL "
    "comment instead, and `--on-unsupported skip` leaves it out with the warning only.",
    "CREATE PACKAGE ... (to PostgreSQL)",
)
E_FRAGMENT = register(
    "DDLC-E011", S.ERROR, "Fragment is not one part of its kind",
    "An SQL fragment the server renders into the statement (a type modifier, a type's keyword spelling, an "
    "expression, an index definition...) is not exactly one part of its kind: it would end the statement, "
    "start another, open a quote or comment, or carry a psql meta-command. Every raw `%{x}s` slot of a tree "
    "has a class (ddlc/frontend/slots.py: a keyword of a closed set, a number, one name, or a fragment) and a "
    "value outside it, or a `fmt` writing more than words, is refused the same way. The document is refused "
    "on every target; the server never writes such a value, so the stream was altered. A fragment holding an "
    "SQL comment (which the server never renders inside one) is refused by the GaussDB target only, which "
    "writes fragments as they came; the other targets print it from its parse.",
    '{"typmod": "(10)); DROP TABLE victim; --"}',
)
E_EMPTY = register(
    "DDLC-E014", S.ERROR, "No documents in the input",
    "An input holds nothing but blanks. `ddlc check` and `ddlc validate` fail on it (a schema-change file "
    "that is empty is a mistake: an empty file in a repository of DDL documents checks nothing). "
    "`ddlc translate` and `ddlc explain` only say so in a note and exit 0: an empty batch of a decoding "
    "log is normal.",
    "ddlc check empty.json",
)
I_VIA_TEXT = register(
    "DDLC-I004", S.INFO, "Tree of an unknown form read back from its text",
    "No builder takes this JDDL tree, not even as a variant of a known form (another GaussDB/openGauss "
    "version's `fmt`). Before giving up, ddlc expands the tree into the text the database would print "
    "and reads that text with the TDDL text frontend; this note says the statement was recovered that "
    "way. The other notes of the tree (an unknown key, DDLC-N003) are kept.",
    '{"fmt": "CREATE TABLE %{identity}D (%{table_elements:, }s) %{extra_clause}s", ...}',
)
E_STATE = register(
    "DDLC-E013", S.ERROR, "State file cannot be used",
    "The file given to `--state` (or `state=`) is not a ddlc state, is damaged, or was written by a newer "
    "ddlc or state format version than this one reads. Nothing is translated: a stream's history is never "
    "half understood. Upgrade ddlc, or start the stream again from a full log without the state.",
    '{"format": "ddlc-state", "version": 2, "ddlc": "9.0.0"}',
)
E_UNCOMMITTED = register(
    "DDLC-E015", S.ERROR, "Transaction without COMMIT",
    "A DDL message belongs to a transaction whose COMMIT is not in the input (the batch was cut inside "
    "the transaction, or another transaction begins first). Decoding emits a transaction only once it "
    "has committed, so its statements are not translated from a part of it. With `--state` the "
    "transaction is not an error: it is kept in the state and translated by the batch that holds its "
    "COMMIT (a note says so).",
    "BEGIN 1234 / {\"JDDL\": ...} / (end of input)",
)
E_INTERNAL = register(
    "DDLC-E900", S.ERROR, "Internal error",
    "A bug in ddlc. Please report it with the document that triggered it.",
)

# ---- information ---------------------------------------------------------------------
I_OWNER = register(
    "DDLC-I001", S.INFO, "Statement owner",
    "The `myowner` key names the role that ran the statement. It is reported as the statement's owner "
    "and not printed in the DDL, exactly as the server does, unless `--owners` asks for `ALTER ... OWNER TO` "
    "after each CREATE (DDLC-I746).",
)
W_TDDL_UNMAPPED = register(
    "DDLC-W003", S.WARNING, "TDDL text passed through without the schema map",
    "On the GaussDB target a `{\"TDDL\": ...}` document is GaussDB's own text and is printed exactly as it "
    "came; `--schema-map` and `--default-schema` are not applied to it. Review such statements by hand or "
    "translate them to another target.",
    '{"TDDL": "TRUNCATE TABLE public.t;"} with --schema-map public=x',
)
W_TDDL_ROLES = register(
    "DDLC-W004", S.WARNING, "TDDL text passed through without the role map",
    "On the GaussDB target a `{\"TDDL\": ...}` document is GaussDB's own text and is printed exactly as it "
    "came; `--role-map` and `--no-owner` are not applied to the roles it names (a GRANT's grantees, an "
    "AUTHORIZATION, an OWNER TO). Review such statements by hand or translate them to another target.",
    '{"TDDL": "GRANT SELECT ON public.t TO alice;"} with --role-map alice=bob',
)
I_TDDL = register(
    "DDLC-I002", S.INFO, "TDDL text passed through",
    "A `{\"TDDL\": ...}` document carries DDL text that GaussDB already rendered, not a tree; it is "
    "passed through to the GaussDB target exactly as it came, in both modes.",
)

# ---- ddlc replay: folding a log into the schema it leaves behind (ddlc/replay/fold.py) ----------
I_REPLAY_NO_CHANGE = register(
    "DDLC-I960", S.INFO, "Statement changes no schema object (replay)",
    "`ddlc replay` folds a log's DDL into the schema it leaves behind. This statement changes data or "
    "storage, not the objects the schema model holds (TRUNCATE, a backfill UPDATE, REINDEX, a partition "
    "truncated or exchanged...): it leaves no trace in the replayed schema.",
    "TRUNCATE TABLE public.orders",
)
N_REPLAY_NOT_FOLDED = register(
    "DDLC-N961", S.NOTE, "Statement not folded (replay)",
    "`ddlc replay` does not fold this statement (or this ALTER subcommand) into the schema model: the object "
    "or property it changes (functions, triggers, types, grants, owners, storage options...) is not held by the "
    "model, so the replayed schema does not show it.",
    "CREATE FUNCTION public.f() ...",
)
W_REPLAY_UNKNOWN = register(
    "DDLC-W962", S.WARNING, "Object not in the replayed schema",
    "The statement changes an object the log never created (or already dropped), so `ddlc replay` cannot "
    "apply it: the log starts after the object was made, or it is incomplete. The replayed schema lacks "
    "the change; replay from the log's beginning to get it.",
    "ALTER TABLE public.t ADD COLUMN c int  (public.t never created in the log)",
)
W_REPLAY_INEXACT = register(
    "DDLC-W963", S.WARNING, "Statement folded inexactly (replay)",
    "`ddlc replay` applied the statement, but the schema it keeps may differ from the database's: the message "
    "says what (a view whose query names a renamed column, a constraint whose text is not PostgreSQL syntax "
    "and names a renamed column, a partition bound that was not parsed, a table created from a query...).",
    "ALTER TABLE t RENAME COLUMN a TO b  (view v reads t.a)",
)
I_CTAS_NO_DATA = register(
    "DDLC-I003", S.INFO, "CREATE TABLE AS written without its rows",
    "GaussDB's logical decoding turns `CREATE TABLE ... AS query` and `SELECT ... INTO t` into the plain "
    "CREATE TABLE of the new table: the statement's rows are never part of the DDL. When such a statement "
    "reaches ddlc as text (a TDDL CTAS or SELECT INTO), every target creates only the table, so that a "
    "replica never copies rows from its own copy of the source tables (which may differ) nor doubles rows "
    "that arrive as DML: PostgreSQL and GaussDB get `CREATE TABLE ... AS query WITH NO DATA` (SELECT INTO "
    "written as CREATE TABLE AS), Spark a Delta table created from the query with `LIMIT 0`. The table's "
    "rows are expected as DML rows of the log, if the log carries them.",
    "CREATE TABLE t2 AS SELECT * FROM t1  ->  CREATE TABLE t2 AS SELECT * FROM t1 WITH NO DATA",
)


_DROP_WORDS = lazyre.compile(r"^(.*?)(?:[;,]?\s+(?:dropped|removed|not kept|ignored|not translated|not written))"
                         r"(\s*\([^()]*\))?\.?$", re.S)


def refusal_message(message: str, code: str) -> str:
    """What ``--on-unsupported error`` says (under DDLC-E009) for a warning whose message says what warn
    mode drops: the thing refused, without "dropped", and the warning's code as the cause."""
    m = _DROP_WORDS.match(message)
    what = (m.group(1) + (m.group(2) or "")) if m else message
    return f"refused by --on-unsupported error: {what} (warn mode drops it with {code})"
