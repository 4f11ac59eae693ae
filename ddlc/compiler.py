"""The one translation path: read → build (frontend) → passes → ``backend.emit``.

Every entry point goes through here: :func:`ddlc.translate`, :func:`ddlc.translate_many`, the CLI's
``translate`` and ``explain``. :func:`front` is the front half (a document to a typed IR statement,
the server's own errors first); :func:`normalize` runs the passes with the target's capability
tables as data; :func:`compile_document` adds the backend and the stream's history, and applies
the run-wide rules: nothing unsupported passes silently, and nothing in one document can cost another.
"""

from __future__ import annotations

import functools

import msgspec.structs

from typing import TYPE_CHECKING, Any

from .records import Struct, sealed
from .backends import get_backend
from .backends.base import Backend, EmitContext
from .dropped import dropped_text
from .diagnostics import E_INTERNAL, E_NOT_TRANSLATED, I_TDDL, I_VIA_TEXT, W_TDDL_ROLES, W_TDDL_UNMAPPED, Diagnostic, Severity
from .errors import DdlcError
from .frontend.build import build, build_source
from .frontend.documents import Document
from .ir.alter import AlterRelation
from .ir.names import Expr
from . import passes as _passes
from .ir import base as _ir_base
from .passes import SHARED, PassContext, Plans, run_pipeline
from .ir.reach import Reach
from .ir.statement import Opaque, OpaqueReason, Statement
from .jddl.expand import owner_of
from .compiler_checks import may_read_as as _may_read_as, one_statement_as_written as _one_statement_as_written
from .compiler_checks import one_tddl_statement as _one_tddl_statement

if TYPE_CHECKING:
    from .options import Options


@sealed
class Front(Struct, frozen=True):
    """A document read and built: the typed statement and what the frontend found (made in C, once per document:
    :class:`ddlc.records.Struct`)."""

    stmt: Statement
    diagnostics: tuple[Diagnostic, ...]
    owner: str | None
    source: str | None = None  # the document's own GaussDB text (raw expansion), when it was expanded


def front(doc: Document, options: Options | None, *, source: bool = True) -> Front:
    """Read one document into the IR. Raises :class:`DdlcError` (with its JSON path) when it is wrong.
    ``options`` None: the defaults (no grammar check). ``source`` False: a tree's expansion is checked, as
    the server would expand it, but not written (``Front.source`` None: no target of the run prints it)."""
    if doc.error is not None:
        raise doc.error
    if options is not None and options.validate and doc.tree is not None:
        from .frontend.schema import validate

        problems = validate(doc.tree, document=doc.label)
        if problems:
            first = problems[0]
            if len(problems) > 1:
                first.message += f" (and {len(problems) - 1} more violation(s); see ddlc validate)"
            raise first
    if doc.tddl is not None:
        stmt, diags = (_read_tddl or _load_read_tddl())(doc.tddl, document=doc.label)
        return Front(stmt, tuple(diags), None)
    assert doc.tree is not None
    if source:  # the expansion (the server's own errors first, with their paths), the slot check in its walk
        text, stmt, diags = build_source(doc.tree, document=doc.label)
    else:  # the expansion checked (its errors first) in the slot check's walk
        text = None
        stmt, diags = build(doc.tree, document=doc.label, expansion=True)
    return Front(stmt, tuple(diags), owner_of(doc.tree), text)


def _via_text(stmt: Opaque, diags: list[Diagnostic], document: str) -> tuple[Statement, list[Diagnostic]]:
    """A tree no builder takes, before it is given up: its expansion read by the text frontend
    (issue 12: trees of other versions), for the targets that translate (the GaussDB target prints
    the expansion as it is). Kept as it was when the text does not read either."""
    again, more = (_read_tddl or _load_read_tddl())(stmt.text, document=document)
    if isinstance(again, Opaque):
        return stmt, diags
    import dataclasses

    kept = [dataclasses.replace(d, message=d.message.removesuffix("; kept as text") + "; read from its text")
            if d.message.endswith("; kept as text") else d
            for d in diags if d.code != "DDLC-N001"]  # "no IR shape; kept as text" no longer holds
    note = Diagnostic(I_VIA_TEXT, "tree of an unknown form read back from its expansion by the text frontend", (),
                      document=document)
    return again, [*kept, note, *more]


def shape(doc: Document) -> str | None:
    """The name of the tree shape a document was built as (``tddl`` for text), for ``explain``."""
    if doc.tddl is not None:
        return "tddl"
    from .frontend.build import shape_of

    return shape_of(doc.tree) if doc.tree is not None else None


def normalize(stmt: Statement, backend: type[Backend] | Backend, options: Options, *, document: str | None = None,
              catalog: Any = None, shared: dict[int, Any] | None = None) -> tuple[Statement, list[Diagnostic]]:
    """Run the passes (``PIPELINE``) with the target's rules and refusals as data. ``shared``: what the
    passes that read nothing of the target (``PIPELINE[:SHARED]``) made of each statement, kept for the
    document's other targets (:class:`Built`). For a target that prints fragments from their parse (all but
    GaussDB's), every fragment's parse deferred by the SQL layer (:meth:`ParsedSql.later`) is made here, so
    that no emitter parses (tests/test_emit_parses_nothing.py)."""
    return _normalize(_target(options, backend), stmt, backend, document, catalog, shared)


def _normalize(t: _Target, stmt: Statement, backend: Any, document: str | None, catalog: Any,
               shared: dict[int, Any] | None) -> tuple[Statement, list[Diagnostic]]:
    plans = t.plans
    ctx = _replace(t.ctx, document=document, catalog=catalog)
    if shared is None:
        out, diags = run_pipeline(stmt, ctx, plans=plans)
    else:
        hit = shared.get(id(stmt))
        if hit is None or hit[0] is not stmt:
            common, first = run_pipeline(stmt, ctx, stop=SHARED, plans=plans)
            hit = shared[id(stmt)] = (stmt, common, tuple(first))
        out, more = run_pipeline(hit[1], ctx, start=SHARED, plans=plans)
        diags = [*hit[2], *more]
    if not backend.passes_source_text:
        parse_pending(out)
    return out, diags


_UNSET: Any = object()
_replace = msgspec.structs.replace


class _Target:
    """What the back half reads of one run's options and one target, made once per (options, target): the options
    are frozen and a target's tables are class data. The passes' context without a document or catalog (the passes
    only read its mappings) and the passes planned per statement class with it (:class:`~ddlc.passes.Plans`);
    what every document's emit context and result take from the run."""

    __slots__ = ("options", "kind", "rules", "refused", "ctx", "plans", "filtering", "settings", "validate", "owners",
                 "on_unsupported", "pretty")

    def __init__(self, options: Options, backend: Any) -> None:
        self.options, self.kind, self.rules, self.refused = options, type(backend), backend.rules, backend.refused
        self.ctx = PassContext.of(options, target=backend.name, rules=self.rules, refused=self.refused)
        self.plans = Plans(self.ctx)
        self.filtering = options.filtering
        self.settings = _UNSET  # the target's typed settings, made when a statement is first emitted
        # The options every document reads, read once: Options defines __getattr__ (a target's option by its
        # keyword), so each attribute read of one goes through CPython's slot_tp_getattr_hook and is never
        # specialized (~300 instructions more a read)
        self.validate, self.owners = options.validate, options.owners
        self.on_unsupported, self.pretty = options.on_unsupported, options.pretty


_TARGETS: dict[tuple[int, str], _Target] = {}


def _target(options: Options, backend: Any) -> _Target:
    hit = _TARGETS.get((id(options), backend.name))
    if (hit is not None and hit.options is options and hit.kind is type(backend) and hit.rules is backend.rules
            and hit.refused is backend.refused):
        return hit
    t = _Target(options, backend)
    if len(_TARGETS) > 64:
        _TARGETS.clear()
    _TARGETS[(id(options), backend.name)] = t  # (options held: its id stays its)
    return t


def _pass_context(options: Options, backend: Any) -> PassContext:
    """The run's :class:`PassContext` for ``backend`` without a document or catalog (:class:`_Target`)."""
    return _target(options, backend).ctx


_EXPRS = Reach.shared({Expr})  # (the PostgreSQL rules' plan too: its last walk serves both)


# Whether a statement of a class can hold a fragment (parse_pending's first test), per class, for the node classes
# defined so far (_ENTERS_AT: ddlc.ir.base.generation when the answers were found): read in _compile_statement's frame
# without calling Reach.current at every document.
_ENTERS: dict[type, bool] = {}
_ENTERS_AT = [-1]


def _enters(cls: type) -> bool:
    reach = _EXPRS.current()
    if _ENTERS_AT[0] != _ir_base.generation:
        _ENTERS.clear()
        _ENTERS_AT[0] = _ir_base.generation
    out = _ENTERS[cls] = reach.enters(cls)
    return out


def parse_pending(stmt: Statement) -> None:
    """Make the deferred parse of every fragment (:class:`~ddlc.ir.names.Expr`) of ``stmt`` (a walk of the
    fields that can lead to one, or the walk a target's rules made of the same statement)."""
    reach = _EXPRS.current()
    cls = type(stmt)
    enters = reach.enter.get(cls)  # (decided once per class: no fragment can be in it; the answers found so far)
    if not (enters if enters is not None else reach.enters(cls)):
        return
    for e, _holder, _field in reach.found(stmt):
        s = e.sql
        if s is not None:
            s.resolve()


class Result(msgspec.Struct):
    """What one document became on one target (``ddlc.api.Translation`` wraps it): a ``msgspec.Struct``, made in
    C once per document and target."""

    statements: tuple[str, ...] = ()
    owner: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    comments: tuple[str, ...] = ()
    error: DdlcError | None = None
    untranslated: int = 0  # statements with no form on the target (kept as comments or skipped)
    blocks: frozenset[int] = frozenset()  # indexes of statements closed by gsql's "/" line, not ";"
    filtered: str | None = None  # why the run's filters left the document out
    kind: str | None = None  # the statement's IR class (CreateTable, AlterRelation, ...), once built
    object: str | None = None  # the name of the object it creates or changes (schema.name), when it has one


def compile_document(doc: Document, backend: Backend, options: Options, catalog: Any = None) -> Result:
    """Translate one document; every failure is captured in the result, never raised."""
    return compile_one(doc, backend, options, catalog)  # (compile_many's one-target case)


def compile_many(doc: Document, backends: Any, options: Options, catalogs: Any, fronted: Front | None = None
                 ) -> list[Result]:
    """Translate one document for several targets (one catalog each), read and built once; every failure
    is captured in its target's result, never raised. ``fronted``: the document already built (by
    :func:`front` with the same options: the pipeline's stage 1 hands its build to stage 2)."""
    if len(backends) == 1:  # (nothing to share the target-free passes' results with)
        if fronted is None:
            return [compile_one(doc, backends[0], options, catalogs[0])]
        built = Built(doc, options, fronted, source=backends[0].passes_source_text)
        built.passes = None
    else:
        built = Built(doc, options, fronted, source=any(b.passes_source_text for b in backends))
    out = []
    for backend, catalog in zip(backends, catalogs, strict=True):
        try:
            out.append(_compile(doc, backend, options, catalog, built))
        except Exception as exc:  # noqa: BLE001 - captured as data; the run goes on
            out.append(Result(error=failure(exc, doc.label)))
    return out


def compile_one(doc: Document, backend: Any, options: Options, catalog: Any, t: _Target | None = None) -> Result:
    """:func:`compile_many` for one target, the document built for it alone (no :class:`Built` to share); ``t``:
    what the run reads of its options and target, when the caller holds it (a :class:`~ddlc.session.Session`)."""
    try:
        return _compile(doc, backend, options, catalog, None, t)
    except Exception as exc:  # noqa: BLE001 - captured as data; the run goes on
        return Result(error=failure(exc, doc.label))


def failure(exc: Exception, document: str) -> DdlcError:
    """What a failure while compiling one document (or one replayed statement) is, as data: the one place
    that turns exceptions into results. An input error keeps its code and path (and gets the document);
    a tree too deep for the recursion limit is DDLC-E004; anything else is a bug: DDLC-E900."""
    if isinstance(exc, DdlcError):
        exc.with_document(document)
        return exc
    if isinstance(exc, RecursionError):
        return DdlcError("tree nested too deeply", code="DDLC-E004", document=document)
    return DdlcError(f"internal error: {type(exc).__name__}: {exc}", code=E_INTERNAL, document=document)


def filtered_out(f: Front, doc: Document, options: Options) -> str | None:
    """Why the run's filters (white-table-list, schema regex, exclude-users) leave the document out, decided
    on the statement as the source spelled it and the role that ran it; None when it is kept."""
    from .filters import filter_reason

    owner = f.owner if f.owner is not None else doc.meta.get("owner")
    return filter_reason(f.stmt, owner if isinstance(owner, str) else None, options)


class Built:
    """What the front half made of a document, computed once for every target (a failure too: each
    target gets the same error)."""

    __slots__ = ("doc", "options", "_front", "_text", "passes", "source")

    def __init__(self, doc: Document, options: Options, fronted: Front | None = None, *, source: bool = True) -> None:
        self.doc, self.options = doc, options
        self.source = source  # whether a target of the run prints a tree's own expansion (GaussDB's)
        self._front: Front | BaseException | None = fronted
        self._text: Front | None = None
        self.passes: dict[int, Any] | None = {}  # normalize's shared part, per statement, for every target

    def front(self) -> Front:
        if self._front is None:
            try:
                self._front = front(self.doc, self.options, source=self.source)
            except (DdlcError, RecursionError) as exc:
                self._front = exc
        if isinstance(self._front, BaseException):
            raise self._front
        return self._front

    def for_target(self, backend: Any) -> Front:
        """The front ``backend`` is given: GaussDB prints a tree of no known shape from its expansion
        itself; the other targets need it read back from its text into the IR."""
        return self.front() if backend.passes_source_text else self.via_text()

    def via_text(self) -> Front:
        """The front, a tree of no known shape read back from its text (for targets that need the IR)."""
        if self._text is None:
            self._text = _read_back(self.front(), self.doc.label)
        return self._text


def _read_back(f: Front, document: str) -> Front:
    """``f``, a tree of no known shape read back from its text (:func:`_via_text`)."""
    stmt = f.stmt
    if isinstance(stmt, Opaque) and stmt.reason is OpaqueReason.NO_SHAPE:
        stmt, diags = _via_text(stmt, list(f.diagnostics), document)
        return Front(stmt, tuple(diags), f.owner, f.source)
    return f


def _compile(doc: Document, backend: Backend, options: Options, catalog: Any, built: Built | None = None,
             t: _Target | None = None) -> Result:
    """One document on one target. ``built``: the document's front half shared with the run's other targets;
    None: made here for this target alone (the run has one)."""
    if t is None:
        t = _target(options, backend)
    f = None
    if t.filtering:  # decided on the statement as the source spelled it
        f = built.front() if built is not None else front(doc, options, source=backend.passes_source_text)
        reason = filtered_out(f, doc, options)
        if reason is not None:
            return Result(owner=f.owner, filtered=reason, **_what(f.stmt))
    if doc.tddl is not None and backend.passes_source_text:
        unless = backend.source_text_unless  # statement classes written from the IR instead
        if unless and f is None and _may_read_as(doc.tddl, unless):
            # then the recovered statement decides (recovery never fails on text)
            f = built.front() if built is not None else front(doc, options)
        if not (unless and f is not None and isinstance(f.stmt, unless)):  # (a kind that gives none: not read)
            # GaussDB's own TDDL text: its exact output on the GaussDB target, in both modes
            notes = [Diagnostic(I_TDDL, "TDDL text passed through", (), target=backend.name, document=doc.label)]
            if options.schema_map:  # said, never silently unmapped
                notes.append(Diagnostic(W_TDDL_UNMAPPED, "TDDL text passed through without --schema-map", (),
                                        target=backend.name, document=doc.label))
            if options.role_map or options.no_owner:
                notes.append(Diagnostic(W_TDDL_ROLES, "TDDL text passed through without --role-map / --no-owner",
                                        (), target=backend.name, document=doc.label))
            text = _strip_terminator(doc.tddl)
            _one_tddl_statement(doc.tddl, doc.label)
            return Result((text,), diagnostics=tuple(notes), blocks=_blocks(backend, (text,)))
    if built is not None:
        f = built.for_target(backend)
        passes = built.passes
    else:
        passes = None
        if f is None:
            tree = doc.tree
            if tree is not None and doc.tddl is None and doc.error is None and not t.validate:
                # (front's tree path, without its frame)
                if backend.passes_source_text:
                    text, stmt, diags = build_source(tree, document=doc.label)
                    cls = type(stmt)
                    written = _WRITTEN.get(cls)
                    later = written if written is not None else _classed(_WRITTEN, cls, _AS_WRITTEN)
                else:
                    text = None
                    stmt, diags = build(tree, document=doc.label, expansion=True)
                    cls = type(stmt)
                    opaque = _OPAQUE.get(cls)
                    later = opaque if opaque is not None else _classed(_OPAQUE, cls, Opaque)
                found, role = tuple(diags), owner_of(tree)
                if not later:  # (the commonest document: the tests below pass, no Front made; its parts handed on)
                    owner = role
                    if role is None:
                        role = doc.meta.get("owner")  # myowner, or a decoding row's owner
                        if not isinstance(role, str):
                            role = None
                    return _back(t, stmt, backend, options, catalog, doc.label, found, owner, text, stmt, role, None)
                f = Front(stmt, found, role, text)
            else:
                f = front(doc, options, source=backend.passes_source_text)
        if not backend.passes_source_text:
            opaque = _OPAQUE.get(type(f.stmt))
            if opaque if opaque is not None else _classed(_OPAQUE, type(f.stmt), Opaque):
                f = _read_back(f, doc.label)
    if backend.passes_source_text:
        written = _WRITTEN.get(type(f.stmt))
        if written if written is not None else _classed(_WRITTEN, type(f.stmt), _AS_WRITTEN):
            _one_statement_as_written(f, doc.label)
    role = f.owner
    if role is None:
        role = doc.meta.get("owner")  # myowner, or a decoding row's owner
        if not isinstance(role, str):
            role = None
    return _back(t, f.stmt, backend, options, catalog, doc.label, f.diagnostics, f.owner, f.source, f.stmt, role,
                 passes)


# The frontend's text reader, imported on first use (not at start-up), then kept: an import statement in a
# function runs importlib's Python code at every call (~11k instructions), once per TDDL document here.
_read_tddl: Any = None  # ddlc.frontend.text.read_tddl


def _load_read_tddl() -> Any:
    global _read_tddl
    from .frontend.text import read_tddl

    _read_tddl = read_tddl
    return read_tddl


_AS_WRITTEN = (Opaque, AlterRelation)  # the statements _one_statement_as_written reads texts of

# Whether a statement's class is one of those classes, judged once per class (_compile's tests of every
# document): on Python 3.11 ``isinstance`` of an object that is not of the class itself against a msgspec Struct
# class (its metaclass is StructMeta, not ``type``) looks up and calls ``__instancecheck__``, ~750 instructions.
_OPAQUE: dict[type, bool] = {}
_WRITTEN: dict[type, bool] = {}


def _classed(memo: dict[type, bool], cls: type, of: type | tuple[type, ...]) -> bool:
    out = memo[cls] = issubclass(cls, of)
    return out


def compile_statement(stmt0: Statement, backend: Backend, options: Options, catalog: Any = None, *,
                      document: str | None = None, fronted: Front | None = None, role: str | None = None,
                      shared: dict[int, Any] | None = None) -> Result:
    """The back half of the path for one IR statement: passes, ``backend.emit``, the history, and the
    run-wide rules (``shared``: the target-free passes' results for the document's other targets). ``fronted`` is what the frontend made of the document (None for a statement built
    otherwise, e.g. by ``ddlc replay`` from its schema model); ``role``, the role that ran it (the
    owner ``--owners`` gives what it creates). Raises :class:`DdlcError`."""
    return _compile_statement(_target(options, backend), stmt0, backend, options, catalog, document, fronted, role,
                              shared)


def _compile_statement(t: _Target, stmt0: Statement, backend: Backend, options: Options, catalog: Any,
                       document: str | None, fronted: Front | None, role: str | None,
                       shared: dict[int, Any] | None) -> Result:
    f = fronted if fronted is not None else Front(stmt0, (), None)
    return _back(t, stmt0, backend, options, catalog, document, f.diagnostics, f.owner, f.source, f.stmt, role, shared)


def _back(t: _Target, stmt0: Statement, backend: Backend, options: Options, catalog: Any, document: str | None,
          found: tuple[Diagnostic, ...], fowner: str | None, source: str | None, fstmt: Statement, role: str | None,
          shared: dict[int, Any] | None) -> Result:
    """:func:`_compile_statement` with the document's :class:`Front` in parts (``found``, ``fowner``, ``source``,
    ``fstmt``: its diagnostics, owner, text and statement), so that :func:`_compile` makes no Front for the
    commonest document."""
    if shared is None:  # _normalize written out here (one frame a document less; run_pipeline's loop in this one)
        plans = t.plans
        pctx = _replace(t.ctx, document=document, catalog=catalog)
        todo = plans.by_class.get(type(stmt0)) if plans.generation == _ir_base.generation else None
        if todo is None:
            todo = plans.of(type(stmt0))
        more: list[Diagnostic] = []
        stmt = stmt0
        pipeline = _passes.PIPELINE
        for i in todo:
            cls = type(stmt)
            stmt, said = pipeline[i](stmt, pctx)
            if said:
                more.extend(said)
            if type(stmt) is not cls:  # the passes after this one as planned for its class
                stmt, said = run_pipeline(stmt, pctx, i + 1, None, plans)
                more.extend(said)
                break
        if not backend.passes_source_text:
            cls = type(stmt)
            # (parse_pending's first test, memoized here: most classes can hold no fragment)
            enters = _ENTERS.get(cls) if _ENTERS_AT[0] == _ir_base.generation else None
            if enters if enters is not None else _enters(cls):
                parse_pending(stmt)
    else:
        stmt, more = _normalize(t, stmt0, backend, document, catalog, shared)
    owner = None
    if t.owners and role is not None:
        from .passes.map_roles import map_role

        owner = map_role(role, dict(options.role_map))
    settings = t.settings
    if settings is _UNSET:
        settings = t.settings = _settings(type(backend), options) if backend.options else None
    mode = t.on_unsupported
    ctx = EmitContext(document, options, t.ctx.schema_map, mode, catalog, source if stmt is fstmt else None, owner,
                      settings)
    out = backend.emit(stmt, ctx)
    if catalog is not None:
        catalog.record(stmt)  # every target sees the same history
    if more or out.diagnostics or type(found) is not tuple:
        diags = (*found, *more, *out.diagnostics)
    else:  # (most documents: nothing said after the frontend)
        diags = found
    written = out.statements
    if len(written) == 1:  # (most statements write one: no comprehension)
        s = written[0]
        statements: tuple[str, ...] = (s if s[-1:] not in _ENDS else _strip_terminator(s),)
    elif not written:
        statements = ()
    else:
        statements = tuple([s if s[-1:] not in _ENDS else _strip_terminator(s) for s in written])
    if out.comments or mode == "comment":
        comments = [_comment(backend, c) for c in out.comments]
        if mode == "comment":
            comments.extend(_comment(backend, f"ddlc {d.code}: not translated: {text}")
                            for d in diags if (text := dropped_text(d)))
        commented: tuple[str, ...] = tuple(comments)
    else:  # (most documents: no list made)
        commented = ()
    untranslated = 0
    error = None
    if not statements:
        why = None
        for d in diags:  # (the first loss: a loop, not a generator object and its frame)
            if d.severity in _LOSS:
                why = d
                break
        if why is not None or not diags:
            untranslated = 1
            if mode not in ("comment", "skip"):  # the document fails, its diagnostics and owner kept
                reason = f"{why.message} ({why.code})" if why is not None else "nothing was written for it"
                error = DdlcError(f"statement not translated to {backend.name}: {reason}", code=E_NOT_TRANSLATED,
                                  path=why.path if why is not None else (), document=document)
    if t.pretty and backend.prettify is not None:
        statements = tuple(backend.prettify(s) for s in statements)
    if not backend.gsql_blocks:
        blocks = _NO_BLOCKS
    elif len(statements) == 1:  # (most statements write one: no generator)
        blocks = _FIRST if backend.is_block(statements[0]) else _NO_BLOCKS
    else:
        blocks = _blocks(backend, statements)
    return Result(statements, fowner, diags, commented, error, untranslated, blocks, None, type(fstmt).__name__,
                  (_object_of or _load_object_of())(fstmt))


_NO_BLOCKS: frozenset[int] = frozenset()
_FIRST: frozenset[int] = frozenset((0,))


@functools.lru_cache(maxsize=64)
def _settings(backend_cls: type, options: Options) -> Any:
    """The target's typed settings (Backend.settings_of) for ``options`` (frozen: made once per run)."""
    return backend_cls.settings_of(options)


def _what(stmt: Statement) -> dict[str, str | None]:
    return {"kind": type(stmt).__name__, "object": (_object_of or _load_object_of())(stmt)}


_object_of: Any = None  # ddlc.filters.object_of, imported on first use (not at start-up), then kept


def _load_object_of() -> Any:
    global _object_of
    from .filters import object_of

    _object_of = object_of
    return object_of


def _blocks(backend: Backend, statements: tuple[str, ...]) -> frozenset[int]:
    if not backend.gsql_blocks:
        return frozenset()
    return frozenset(i for i, s in enumerate(statements) if backend.is_block(s))


_LOSS = (Severity.WARNING, Severity.NOTE)  # the target cannot / ddlc does not yet: something is lost


_ENDS = frozenset(";\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
                  "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000") | {""}  # ";", what str.rstrip strips, nothing


def _strip_terminator(text: str) -> str:
    """Drop a statement's own terminating ``;`` (views and functions arrive with one)."""
    stripped = text.rstrip()
    if stripped.endswith(";"):
        return stripped[:-1]
    return text


def _comment(backend: Backend, text: str) -> str:
    """``text`` as the target's comment lines: always its dialect's ``comment`` (no line break, CR or
    backslash in ``text`` can end the comment early or carry it into the next statement)."""
    dialect = backend.dialect
    assert dialect is not None  # check_coverage refuses a backend without a dialect
    return dialect.comment(text)


__all__ = ["Built", "Front", "Result", "compile_document", "compile_many", "compile_statement", "failure",
           "filtered_out", "front", "normalize", "get_backend"]
