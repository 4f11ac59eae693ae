"""Library entry points: ``translate`` one document, ``translate_many`` a stream of them.

No I/O happens here beyond what the caller hands in; nothing heavy is imported at module load.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .records import Struct, sealed
from .backends import get_backend
from .diagnostics import Diagnostic
from .errors import DdlcError
from .frontend.documents import Document, as_document, read_documents

from .options import (  # noqa: F401  (the library's names for them)
    DEFAULT_TARGET, MODES, ON_UNSUPPORTED, Mode, OnUnsupported, Options, SchemaMap, Target,
)


def __getattr__(name: str) -> Any:
    """``SPARK_PARTITIONING`` and the like (the spark target's declared choices), as ``ddlc.options`` gives them."""
    from . import options

    return getattr(options, name)


@sealed
class Translation(Struct, frozen=True):
    """The result for one input document (a record made in C, :class:`ddlc.records.Struct`: one per document)."""

    index: int
    document: str  # label: "file.jsonl:3", "file.json[2]", "<input>"
    target: str
    statements: tuple[str, ...] = ()  # without their terminating ";"
    owner: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    error: DdlcError | None = None
    source: str = "<input>"
    line: int = 1
    comments: tuple[str, ...] = ()  # "-- ..." lines for --on-unsupported comment
    untranslated: int = 0  # statements with no target form, kept as comments or skipped
    blocks: frozenset[int] = frozenset()  # statements closed by gsql's "/" line, not ";"
    filtered: str | None = None  # why the filters left this document out (nothing written for it)
    replayed: bool = False  # the state given to the run had already seen this document: skipped
    kind: str | None = None  # the statement's IR class name (CreateTable, Drop, ...), once read
    object: str | None = None  # the object it creates or changes (schema.name), when it names one

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def sql(self) -> str:
        """The statements as a script: each ends with ``;`` and a newline."""
        parts = [c + "\n" for c in self.comments]
        # a block closed by gsql's "/" line (GaussDB packages, anonymous blocks; decided by the target,
        # never by how a text happens to end) takes no ";"
        parts.extend(s + ("\n" if i in self.blocks else ";\n") for i, s in enumerate(self.statements))
        return "".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "document": self.document,
            "source": self.source,
            "line": self.line,
            "target": self.target,
            "sql": list(self.statements),
            "owner": self.owner,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "error": None if self.error is None else self.error.to_dict(),
            "comments": list(self.comments),
        } | ({"filtered": self.filtered} if self.filtered is not None else {}) \
          | ({"replayed": True} if self.replayed else {})


def translate_document(doc: Document, target: str | Any, options: Options, catalog: Any = None) -> Translation:
    """Translate one already-read document; errors are captured in the result.

    ``target`` is a target name or a backend instance; ``catalog`` (:class:`ddlc.history.Catalog`)
    is the state of the stream so far, which translations that need history consult.
    """
    from .compiler import compile_document

    backend = get_backend(target) if isinstance(target, str) else target
    return translation(doc, backend, compile_document(doc, backend, options, catalog))


def translation(doc: Document, backend: Any, r: Any) -> Translation:
    """The :class:`Translation` of ``doc`` for ``backend`` from the compiler's result ``r``."""
    # (positional, in the fields' order: index, document, target, statements, owner, diagnostics, error, source,
    # line, comments, untranslated, blocks, filtered, replayed, kind, object)
    return Translation(doc.index, doc.label, backend.name, r.statements, r.owner, r.diagnostics, r.error, doc.source,
                       doc.line, r.comments, r.untranslated, r.blocks, r.filtered, False, r.kind, r.object)


def unwritable(result: Translation, exc: Exception) -> Translation:
    """``result`` as a failed document: its output could not be rendered (an internal error, kept to itself)."""
    import dataclasses

    from .diagnostics import E_INTERNAL

    err = DdlcError(f"internal error while writing the result: {type(exc).__name__}", code=E_INTERNAL,
                    document=result.document)
    return dataclasses.replace(result, statements=(), comments=(), diagnostics=(), error=err, blocks=frozenset())


_OPTIONS_DOC = """
    Targets: ``gaussdb`` (GaussDB's canonical text), ``postgres`` (PostgreSQL 15+, the default:
    ``ddlc.DEFAULT_TARGET``, as on the command line), ``spark`` (Spark SQL with Delta Lake). The library
    reads no environment variable or configuration file: a call says what it wants. Options (the flags
    of ``ddlc translate``; or pass ``options=Options.of(...)``):

    - ``mode``: gaussdb target: ``"canonical"`` text or ``"raw"``, the byte-exact openGauss expansion.
    - ``validate``: check each tree against grammars/ first.
    - ``default_schema``: the schema of names the input left unqualified (``"public"``).
    - ``schema_map``: rename schemas everywhere: ``{"sales": "sales_v2"}`` or (source, target) pairs.
    - ``on_unsupported``: what the target cannot take: ``"warn"`` (drop a clause with a warning; a
      statement with no target form fails), ``"error"`` (fail both), ``"comment"`` (keep both as SQL
      comments), ``"skip"`` (leave such a statement out, with its warning).
    - ``pretty``: pretty-print each statement, on the targets that can (postgres).
    - A target's own options, as ``<target>_<option>`` keywords, declared on its backend class
      (``ddlc targets`` lists them): ``spark_catalog``, ``spark_partitioning`` (``"auto"``,
      ``"cluster"``, ``"partition"``, ``"none"``), ``spark_column_mapping`` (``"name"``, ``"id"``,
      ``"none"``), ``spark_varchar`` (``"keep"``, ``"string"``), ``spark_constraints``
      (``"informational"``, ``"drop"``): docs/targets.md, Spark SQL / Delta Lake.
    - ``white_table_list`` (``"public.t1,*.t3"``), ``schema_regex``, ``exclude_users``: filters, as
      GaussDB's decoding options of those names.
    - ``owners``: also write ``ALTER ... OWNER TO`` the tree's owner after each CREATE (postgres);
      ``no_owner``: write no ownership at all; ``role_map``: rename roles, like ``schema_map``.

    A wrong name or value raises TypeError/ValueError before any work.
"""


def translate(doc: Any, target: Target = DEFAULT_TARGET, *, options: Options | None = None,
              mode: Mode = "canonical", validate: bool = False, default_schema: str = "public",
              schema_map: SchemaMap = (), on_unsupported: OnUnsupported = "warn", pretty: bool = False,
              white_table_list: str | Iterable[str] | None = None, schema_regex: str | None = None,
              exclude_users: str | Iterable[str] = (), owners: bool = False, no_owner: bool = False,
              role_map: SchemaMap = (), **target_options: Any) -> Translation:
    opts = _options(options, _given(locals()))
    backend = get_backend(target)  # unknown target -> ValueError before any work
    result = translate_document(as_document(doc), backend, opts)
    if result.error is not None:
        raise result.error
    return result


translate.__doc__ = """Translate one document (str, bytes, or a parsed mapping) into ``target``'s DDL.
    Raises :class:`DdlcError` when it fails; ``.sql`` is the script, ``.diagnostics`` what was dropped.
    """ + _OPTIONS_DOC


def translate_many(docs: Iterable[Any] | str | bytes, target: Target = DEFAULT_TARGET, *, state: Any = None,
                   options: Options | None = None, mode: Mode = "canonical", validate: bool = False,
                   default_schema: str = "public", schema_map: SchemaMap = (),
                   on_unsupported: OnUnsupported = "warn", pretty: bool = False,
                   white_table_list: str | Iterable[str] | None = None,
                   schema_regex: str | None = None, exclude_users: str | Iterable[str] = (), owners: bool = False,
                   no_owner: bool = False, role_map: SchemaMap = (), **target_options: Any) -> Iterator[Translation]:
    opts = _options(options, _given(locals()))
    backend = get_backend(target)
    docs = _as_path(docs)
    if not isinstance(docs, str | bytes | Iterable | _Path):
        raise TypeError(f"docs must be an iterable of documents, one str/bytes or a path, not {type(docs).__name__}")
    session = (_Session or _load_session())([backend], opts, state)  # (a state that cannot be used is refused now: StateError)
    return _translate_many(docs, session)


translate_many.__doc__ = """Translate a stream of documents lazily; a failing document yields a result with
    ``error`` (the others go on).

    ``docs`` is an iterable of documents (str/bytes/mappings, one document each), one str/bytes
    holding any multi-document input form (JSON lines, a JSON array, decoding output or rows), or a file:
    an ``os.PathLike`` (``pathlib.Path``), or a one-line str naming an existing file (a str that starts
    with ``{``, ``[`` or ``"`` is always a document), read as ``ddlc translate`` reads it.
    ``options=`` and keyword options together: the keywords set over ``options=`` (checked again).
    The target and options are checked at the call (TypeError/ValueError), before any document.

    ``state``: a path (``--state``): the stream's history is loaded from it now (``StateError`` when it
    cannot be used) and saved there atomically when the iteration ends. A document the state had
    already seen (by commit position: :mod:`ddlc.frontend.txns`) yields a result with ``replayed=True``
    and no statements; a transaction whose COMMIT is not in ``docs`` is kept in the state and
    translated by the call that reads its COMMIT.
    """ + _OPTIONS_DOC

_NOT_OPTIONS = frozenset({"doc", "docs", "target", "state", "options"})


def _options(options: Options | None, given: dict[str, Any]) -> Options:
    """The run's options: ``options=`` with the keyword arguments the caller set (those that differ from
    their defaults, target options included) put over it, or the keywords alone. Checked either way."""
    if options is None:
        if _all_defaults(given):  # (the commonest call: the one Options of the defaults, checked once)
            return _DEFAULTS[0] or _default_options(given)
        return Options.of(**given)
    if not isinstance(options, Options):
        raise TypeError(f"options must be an Options (Options.of(...)), not {type(options).__name__}")
    defaults = translate.__kwdefaults__ or {}
    changed = {k: v for k, v in given.items() if k not in defaults or v != defaults[k]}
    return options.merged(**changed) if changed else options


# Options are frozen and checked when made: the keywords' defaults give the same Options at every call. Kept once,
# the run's per-target tables keyed on the Options (the passes' plans, the target's settings: ddlc.compiler._target)
# are made once too, not at every translate/translate_many call.
_DEFAULTS: list[Options | None] = [None]


def _all_defaults(given: dict[str, Any]) -> bool:
    """Whether every option keyword ``given`` holds is its default object itself (identity: a value equal to a
    default but of another type, ``1`` for ``True``, is checked by ``Options.of`` as given)."""
    defaults = _KWDEFAULTS
    for k, v in given.items():
        if defaults.get(k, _MISSING) is not v:
            return False
    return True


def _default_options(given: dict[str, Any]) -> Options:
    _DEFAULTS[0] = made = Options.of(**given)
    return made


_MISSING: Any = object()


def _given(args: dict[str, Any]) -> dict[str, Any]:
    """The option arguments a caller gave (those differing from the defaults are enough: Options.of
    applies the same defaults)."""
    out = {k: v for k, v in args.items() if k not in _NOT_OPTIONS}
    out.update(out.pop("target_options", {}))
    if out.get("white_table_list") is None:
        out.pop("white_table_list", None)
    return out


_KWDEFAULTS: dict[str, Any] = {k: v for k, v in (translate_many.__kwdefaults__ or {}).items() if k not in _NOT_OPTIONS}


class _Path(str):
    """A file ``translate_many`` was given by its path (read as ``ddlc translate`` reads a file)."""


def _as_path(docs: Any) -> Any:
    """``docs`` as a :class:`_Path` when it names a file: an ``os.PathLike``, or a one-line str naming an
    existing file that does not start like a document (``{``, ``[``, ``"``); otherwise as it came. A
    PathLike that names no file is FileNotFoundError."""
    import os

    if isinstance(docs, os.PathLike):
        path = os.fspath(docs)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no such file: {path}")
        return _Path(path)
    if (isinstance(docs, str) and docs and "\n" not in docs and len(docs) < 4096
            and docs.lstrip()[:1] not in ("{", "[", '"') and os.path.isfile(docs)):
        return _Path(docs)
    return docs


def _translate_many(docs: Iterable[Any] | str | bytes, session: Any) -> Iterator[Translation]:
    stream = None
    direct = None if isinstance(docs, str | bytes) else session.direct()
    if direct is not None:  # the commonest run: documents one by one, one target, no state (_read_each and
        # Session.first_target's function written out here: two frames a document less)
        compile_, failure, result, backend, options, catalog, t = direct
        name = backend.name
        for i, item in enumerate(docs):
            doc = as_document(item, index=i, source=f"<input {i}>")
            try:
                r = compile_(doc, backend, options, catalog, None, t)
            except Exception as exc:  # noqa: BLE001 - captured as data; the run goes on
                r = result(error=failure(exc, doc.label))
            yield Translation(doc.index, doc.label, name, r.statements, r.owner, r.diagnostics, r.error, doc.source,
                              doc.line, r.comments, r.untranslated, r.blocks, r.filtered, False, r.kind, r.object)
        session.close(None)
        return
    if isinstance(docs, _Path):
        from .frontend.documents import read_inputs

        stream = read_inputs([str(docs)], txns=session.txns())
        items: Iterable[Document] = stream
    elif isinstance(docs, str | bytes):
        stream = read_documents(docs, txns=session.txns())
        items = stream
    else:
        items = _read_each(docs)
    name = session.backends[0].name
    translate = session.first_target() if len(session.backends) == 1 else lambda doc: _first(session.translate(doc))
    for doc in items:
        r = translate(doc)
        if r is None:  # the state had already seen it
            yield Translation(index=doc.index, document=doc.label, target=name, source=doc.source, line=doc.line,
                              replayed=True)
        else:  # (translation(), written out: one call less per document)
            yield Translation(doc.index, doc.label, name, r.statements, r.owner, r.diagnostics, r.error, doc.source,
                              doc.line, r.comments, r.untranslated, r.blocks, r.filtered, False, r.kind, r.object)
    session.close(stream)


_Session: Any = None  # ddlc.session.Session, imported at the first translate_many (not at start-up), then kept


def _load_session() -> Any:
    global _Session
    from .session import Session

    _Session = Session
    return Session


def _read_each(docs: Iterable[Any]) -> Iterator[Document]:
    """The documents of an iterable of documents (each str/bytes/mapping one document), numbered."""
    for i, item in enumerate(docs):
        yield as_document(item, index=i, source=f"<input {i}>")


def _first(results: list[Any] | None) -> Any:
    return None if results is None else results[0]
