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

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, NamedTuple, Protocol

import msgspec

from .. import lazyre
from ..records import Struct, record, sealed
from ..diagnostics import E_UNSUPPORTED, Diagnostic, Severity, refusal_message
from ..errors import DdlcError
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


class OptionKind(enum.Enum):
    """What values a target option takes (a closed vocabulary)."""

    CHOICE = "choice"  # one word of ``choices``
    NAME = "name"  # a name (an identifier the target's writer quotes), or None
    FLAG = "flag"  # True or False


@record(frozen=True, slots=True)
class TargetOption:
    """One option of one target, declared on its :class:`Backend` (``options``).

    Its library keyword is ``<target>_<name>`` (``spark_varchar``) and its command-line flag
    ``--<target>-<name>`` (``--spark-varchar``); both are made from this declaration, and the value the
    backend's emitters read is the field ``name`` of the target's settings (:meth:`Backend.settings_of`)."""

    name: str
    kind: OptionKind
    default: Any = None
    choices: tuple[str, ...] = ()
    help: str = ""
    metavar: str | None = None

    def check(self, keyword: str, value: Any) -> None:
        """TypeError/ValueError when ``value`` is not one this option takes (``keyword`` names it)."""
        if self.kind is OptionKind.FLAG:
            if not isinstance(value, bool):
                raise TypeError(f"{keyword} must be True or False, not {value!r}")
            return
        if self.kind is OptionKind.NAME and value is None:
            return
        if not isinstance(value, str):
            raise TypeError(f"{keyword} must be a string, not {type(value).__name__}")
        if self.kind is OptionKind.CHOICE and value not in self.choices:
            raise ValueError(f"{keyword} must be one of {', '.join(self.choices)}, not {value!r}")
        if self.kind is OptionKind.NAME:
            if not value:
                raise ValueError(f"{keyword} must not be empty")
            if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
                raise ValueError(f"{keyword} {value!r} holds a NUL or a lone surrogate")


_SETTINGS_TYPES: dict[tuple[str, tuple[TargetOption, ...]], type] = {}


def settings_of(target: str, declared: tuple[TargetOption, ...], options: Any) -> Any:
    """The settings of ``target`` (a NamedTuple with one field per option ``declared``) from ``options``:
    each field the value of the library keyword ``<target>_<name>``, or the option's default. None when
    ``declared`` is empty."""
    if not declared:
        return None
    t = _SETTINGS_TYPES.get((target, declared))
    if t is None:
        t = NamedTuple(f"{target.title()}Settings", [(o.name, Any) for o in declared])  # type: ignore[misc]
        t.__new__.__defaults__ = tuple(o.default for o in declared)
        _SETTINGS_TYPES[(target, declared)] = t
    return t(*(getattr(options, f"{target}_{o.name}", o.default) for o in declared))


class Emitted(msgspec.Struct):
    """What a backend produced for one statement (a ``msgspec.Struct``: made in C, once per statement)."""

    statements: list[str] = msgspec.field(default_factory=list)
    diagnostics: list[Diagnostic] = msgspec.field(default_factory=list)
    # texts to keep as comments before the statements (plain text: the orchestration writes each
    # through the target's Dialect.comment, never as it is)
    comments: list[str] = msgspec.field(default_factory=list)


class EmitOptions(Protocol):
    """What backends read of the run's options besides their own (``ddlc.api.Options`` has these, typed)."""

    mode: str  # gaussdb: canonical | raw
    owners: bool  # --owners: ALTER ... OWNER TO after each CREATE


@sealed
class EmitContext(Struct, frozen=True):
    """What the orchestration hands a backend with each statement (made in C, once per statement and target:
    :class:`ddlc.records.Struct`; the emitters of a statement translated again may ``dataclasses.replace`` it)."""

    document: str | None = None
    options: EmitOptions | None = None  # ddlc.api.Options
    schema_map: Mapping[str, str] = msgspec.field(default_factory=dict)
    on_unsupported: str = "warn"
    catalog: Any = None  # ddlc.history.Catalog: the stream's history (read-only for emitters)
    # The document's own GaussDB text when no pass changed the statement (the GaussDB target reuses it).
    source: str | None = None
    # --owners: the role the objects this statement creates are to belong to (the document's myowner,
    # through --role-map); None when owners are not written or the document names no owner
    owner: str | None = None
    # the target's own options, typed: the backend's Settings (a NamedTuple made from its declared
    # TargetOptions; Backend.settings_of), None when the target declares none
    settings: Any = None


_SqlWriter: Any = None  # ddlc.backends.writer.SqlWriter, imported on first use (not at start-up), then kept


def _load_writer() -> Any:
    global _SqlWriter
    from .writer import SqlWriter

    _SqlWriter = SqlWriter
    return SqlWriter


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
        return (_SqlWriter or _load_writer())(self.DIALECT)

    def diag(self, code: str, message: str, path: Any, dropped_text: str | None = None,
             dropped_node: Any = None, dropped_prefix: str = "", dropped_after: Any = None,
             dropped_within: tuple[Any, ...] = ()) -> None:
        """Report a diagnostic; with ``--on-unsupported error`` a warning fails the document. What a comment
        shows for what was dropped: ``dropped_node`` (and the node after, the nodes enclosing it), as for a
        rule (:func:`ddlc.dropped.dropped_text`)."""
        d = Diagnostic(code, message, path, target=self.TARGET, document=self.ctx.document,
                       dropped_text=dropped_text, dropped_node=dropped_node, dropped_prefix=dropped_prefix,
                       dropped_after=dropped_after, dropped_within=dropped_within)
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
    # A {"TDDL": ...} document's own text is this target's exact output (GaussDB): it passes through
    # unparsed, except for the statement classes in source_text_unless (written from the IR instead).
    passes_source_text: ClassVar[bool] = False
    source_text_unless: ClassVar[tuple[type, ...]] = ()
    # what --pretty does on this target: a function from one statement to its pretty form (None: nothing)
    prettify: ClassVar[Callable[[str], str] | None] = None
    # the target's own options (library keyword <name>_<option>, flag --<name>-<option>); the emitters
    # read them typed from EmitContext.settings
    options: ClassVar[tuple[TargetOption, ...]] = ()

    @classmethod
    def option_keywords(cls) -> dict[str, TargetOption]:
        """``{library keyword: option}`` of this target's options (``spark_varchar``...)."""
        return {f"{cls.name}_{o.name}": o for o in cls.options}

    @classmethod
    def settings_of(cls, options: Any) -> Any:
        """This target's settings (a NamedTuple of its declared options) from ``options``
        (:class:`ddlc.api.Options`, or anything with the library keywords as attributes); None when the
        target declares no option."""
        return settings_of(cls.name, cls.options, options)

    @classmethod
    def is_block(cls, text: str) -> bool:
        """Whether ``text`` (one emitted statement) is closed by ``/`` rather than ``;``."""
        return cls.gsql_blocks and "\n" in text and text.rsplit("\n", 1)[-1].strip() == "/"

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
    """Every IR statement class is emitted or refused by ``cls``, never both, never neither; every
    subcommand an emitted ALTER can hold is in the emitter's table or dropped by an unconditional rule
    (:func:`.coverage.check_nodes`); the options are well declared."""
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
    names = [o.name for o in cls.options]
    if len(set(names)) != len(names) or not all(n.isidentifier() and n.islower() for n in names):
        raise TypeError(f"backend {cls.name}: option names must be distinct lower-case identifiers: {names}")
    for o in cls.options:
        if o.kind is OptionKind.CHOICE and o.default not in o.choices:
            raise TypeError(f"backend {cls.name}: option {o.name}: default {o.default!r} is not a choice")
    if not cls.name.isidentifier() or cls.name != cls.name.lower():
        raise TypeError(f"backend name {cls.name!r}: a lower-case identifier (it makes the options' keywords)")
    from .coverage import check_nodes

    check_nodes(cls)  # and every ALTER subcommand each statement can hold, at node level
