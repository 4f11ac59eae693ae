"""The ``Backend`` class: what a target is, declared as data.

A backend is one subclass holding its ``name``, its node → emitter table (``emitters``), its
``rules`` (clauses it cannot take, applied by the ``drop_unsupported`` pass), its ``refused``
statements (no form on the target) and its SQL ``dialect`` (quoting and literals). Building the
class checks that every IR statement class is either emitted or refused, and that no class is
both, so a target can never silently lack a statement kind (ibis's rule, pglast's duplicate check).

A backend never reads documents, never builds IR and never calls another backend: the library's
one orchestration (:mod:`ddlc.compiler`) hands it a normalized statement and an :class:`EmitContext`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from typing import Any, ClassVar

from .. import lazyre
from ..records import record
from ..diagnostics import Diagnostic
from ..ir.rules import Refusal, Rule

Emitter = Callable[..., Any]


def emits(*classes: type) -> Callable[[Emitter], Emitter]:
    """Mark a function as the emitter of ``classes`` (a tag only: nothing is registered)."""

    def deco(fn: Emitter) -> Emitter:
        fn.__emits__ = getattr(fn, "__emits__", ()) + classes  # type: ignore[attr-defined]
        return fn

    return deco


def table_of(*modules: Any, what: str = "emitter", attr: str = "__emits__") -> dict[type, Emitter]:
    """The node → function table of the functions tagged in ``modules``; a class twice is refused."""
    out: dict[type, Emitter] = {}
    for mod in modules:
        for fn in vars(mod).values():
            if not callable(fn) or getattr(fn, "__module__", None) != mod.__name__:
                continue
            for cls in getattr(fn, attr, ()):
                if cls in out:
                    raise TypeError(f"a second {what} for {cls.__name__} ({mod.__name__}.{fn.__name__})")
                out[cls] = fn
    return out


def gather(*modules: Any, name: str) -> tuple:
    """Concatenate a tuple attribute (``UNSUPPORTED``) of several family modules."""
    out: list = []
    for mod in modules:
        out.extend(getattr(mod, name, ()))
    return tuple(out)


def merge(*tables: Mapping[type, Any], what: str) -> dict[type, Any]:
    out: dict[type, Any] = {}
    for t in tables:
        for cls, v in t.items():
            if cls in out:
                raise TypeError(f"{cls.__name__} {what} twice")
            out[cls] = v
    return out


# What ends a line for some reader of a script (str.splitlines's set: LF, CR, CR LF, VT, FF, FS, GS, RS,
# NEL, U+2028, U+2029): each starts a new comment line, so no editor, viewer or lexer sees a line that
# lacks the "-- ".
# Characters a comment line shows escaped instead (\xNN, \uNNNN, as Python's repr does): the other C0/C1
# controls and DEL (a terminal's escape sequences), the bidirectional controls (a reader would see the
# text reordered: "Trojan Source", CVE-2021-42574) and lone surrogates (not UTF-8 at all). TAB stays.
_UNSAFE_IN_COMMENT = lazyre.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                                    r"\u2066-\u2069\ud800-\udfff]")


def _escaped(m: Any) -> str:
    o = ord(m.group())
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def line_comment(text: str) -> str:
    r"""``text`` as SQL line comments that end where they seem to, on every target's readers.

    One ``-- `` line per line of ``text`` (every line break :data:`str.splitlines` knows starts a new
    one), joined by LF and without a final line break. What would let a line comment end early or
    run on into the next line is never written:

    * PostgreSQL's and GaussDB's lexers (and psql's/gsql's, whose backslash meta-commands are only
      read outside comments) end a ``--`` comment at LF or CR: both only ever end a comment line here.
    * Spark's lexer (``SIMPLE_COMMENT: '--' ('\\\n' | ~[\r\n])*``) goes on past an LF that follows a
      backslash, and so does spark-sql's splitter (``splitSemiColon``'s ``escape``): a comment line
      never ends with a backslash. When the line's last non-blank character is one, that backslash is
      written ``\x5c`` (so an editor that trims trailing blanks cannot make it the last character).
    * spark-sql's file reader (Hive's ``processReader``) splits lines at LF, CR and CR LF and drops
      those starting with ``--``: every line this writes starts with ``--``.
    * Other controls, bidirectional controls and lone surrogates are written escaped (see
      ``_UNSAFE_IN_COMMENT``), so what a reader sees is what the lexer reads.

    ``*/`` and ``/*`` need nothing: no target's lexer reads them inside a ``--`` comment
    (``tests/test_comments_safe.py`` checks all of this against Spark's lexer and spark-sql's splitting
    rule, and against pglast's scanner and ``psql -f``).
    """
    out = []
    for line in text.splitlines() or [""]:
        line = _UNSAFE_IN_COMMENT.sub(_escaped, line)
        body = line.rstrip()
        if body.endswith("\\"):
            line = body[:-1] + "\\x5c" + line[len(body):]
        out.append("-- " + line)
    return "\n".join(out)


@record(frozen=True, slots=True)
class Dialect:
    """How a target spells names, strings and comments (the writer and the orchestration take it).

    ``comment`` turns a text into the target's comment lines (no final line break): every comment ddlc
    writes into a script goes through it, never through a hand-made ``"-- " + text``."""

    name: str
    ident: Callable[[str], str]
    literal: Callable[[str], str]
    comment: Callable[[str], str]


@record(slots=True)
class Emitted:
    """What a backend produced for one statement."""

    statements: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # texts to keep as comments before the statements (plain text: the orchestration writes each
    # through the target's Dialect.comment, never as it is)
    comments: list[str] = field(default_factory=list)


@record(frozen=True, slots=True)
class EmitContext:
    """What the orchestration hands a backend with each statement."""

    document: str | None = None
    options: Any = None  # ddlc.api.Options
    schema_map: Mapping[str, str] = field(default_factory=dict)
    on_unsupported: str = "warn"
    catalog: Any = None  # ddlc.history.Catalog: the stream's history (read-only for emitters)
    # The document's own GaussDB text when no pass changed the statement (the GaussDB target reuses it).
    source: str | None = None
    # --owners: the role the objects this statement creates are to belong to (the document's myowner,
    # through --role-map); None when owners are not written or the document names no owner
    owner: str | None = None


class EmitBase:
    """What every target's emit context shares: the statement's diagnostics and comments, the stream's
    history (``catalog``, read-only), the node → emitter table, a writer in the target's dialect, and
    dispatch. Subclasses set ``TARGET`` and ``DIALECT`` and add their names/types/expressions helpers."""

    __slots__ = ("ctx", "diagnostics", "catalog", "comments", "emitters", "owned")
    TARGET: ClassVar[str] = ""
    DIALECT: ClassVar[Dialect | None] = None

    def __init__(self, ctx: Any, catalog: Any = None, emitters: Any = None) -> None:
        self.ctx = ctx
        self.catalog = catalog if catalog is not None else getattr(ctx, "catalog", None)
        self.diagnostics: list[Diagnostic] = []
        self.comments: list[str] = []  # plain texts; written through Dialect.comment (see Emitted)
        self.emitters = emitters if emitters is not None else {}  # the backend hands in its table
        self.owned: list[tuple[tuple[str, ...], str]] = []  # objects created, with an owner (see own)

    def own(self, kind: tuple[str, ...], name: str) -> None:
        """Say that the statement creates ``name`` (written, quoted), an object of ``kind`` (the ALTER
        keywords: ``("TABLE",)``, ``("MATERIALIZED", "VIEW")``...) that has an owner (``--owners``)."""
        self.owned.append((kind, name))

    def w(self) -> Any:
        from .writer import SqlWriter

        return SqlWriter(self.DIALECT)

    def diag(self, code: str, message: str, path: Any, dropped_text: str | None = None,
             dropped_node: Any = None, dropped_prefix: str = "") -> None:
        """Report a diagnostic; with ``--on-unsupported error`` a warning fails the document."""
        from ..diagnostics import E_UNSUPPORTED, Severity, refusal_message
        from ..errors import DdlcError

        d = Diagnostic(code, message, path, target=self.TARGET, document=self.ctx.document,
                       dropped_text=dropped_text, dropped_node=dropped_node, dropped_prefix=dropped_prefix)
        self.diagnostics.append(d)
        if self.ctx.on_unsupported == "error" and d.severity is Severity.WARNING:
            raise DdlcError(refusal_message(message, code), code=E_UNSUPPORTED, path=path, document=self.ctx.document)

    def statements(self, n: Any) -> list[str]:
        """The target's statements for ``n``, from the emitter table."""
        try:
            fn = self.emitters[type(n)]
        except KeyError:
            from ..errors import InternalError

            raise InternalError(f"{self.TARGET}: no emitter for {type(n).__name__}", path=n.origin) from None
        return fn(n, self)


class Backend:
    """Base of every target. Subclasses declare; :meth:`emit` writes one normalized statement."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    emitters: ClassVar[Mapping[type, Emitter]] = {}
    rules: ClassVar[tuple[Rule, ...]] = ()
    refused: ClassVar[Mapping[type, Refusal]] = {}
    dialect: ClassVar[Dialect | None] = None
    # whether the target's scripts have gsql blocks (a statement closed by a line holding only "/"
    # instead of ";"); on every other target each statement ends with ";", whatever its text
    gsql_blocks: ClassVar[bool] = False

    @classmethod
    def is_block(cls, text: str) -> bool:
        """Whether ``text`` (one emitted statement) is closed by ``/`` rather than ``;``."""
        return cls.gsql_blocks and text.rsplit("\n", 1)[-1].strip() == "/" and "\n" in text

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.name:
            check_coverage(cls)

    def emit(self, stmt: Any, ctx: EmitContext) -> Emitted:  # pragma: no cover - abstract
        raise NotImplementedError

    # what the support matrix and the coverage test read -----------------------------------
    @classmethod
    def status(cls, stmt_cls: type) -> str:
        """``emitted``, ``refused`` (the target has no such object) or ``not-implemented``."""
        r = cls.refused.get(stmt_cls)
        if r is not None:
            return "refused" if r.absent else "not-implemented"
        return "emitted" if stmt_cls in cls.emitters else "missing"


def check_coverage(cls: type[Backend], statements: Iterable[type] | None = None) -> None:
    """Every IR statement class is emitted or refused by ``cls``, never both, never neither."""
    from ..ir import statement_classes

    both = set(cls.emitters) & set(cls.refused)
    if both:
        raise TypeError(f"backend {cls.name}: both emitted and refused: "
                        + ", ".join(sorted(c.__name__ for c in both)))
    missing = [c.__name__ for c in (statements or statement_classes())
               if c not in cls.emitters and c not in cls.refused]
    if missing:
        raise TypeError(f"backend {cls.name}: no emitter and no refusal for " + ", ".join(missing))
    if cls.dialect is None:
        raise TypeError(f"backend {cls.name}: no SQL dialect")
