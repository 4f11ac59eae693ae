"""Reading JDDL objects for the builders: both key dialects, precise JSON paths in errors."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

from ...diagnostics import E_BUILD, Diagnostic
from ...errors import DdlcError, Path
from ...ir.names import Expr, QualifiedName, TypeName

from ...jddl.keys import ALIASES
from ..sql.expr import make_expr, make_query
from ..sql.typmod import TYPMOD_VERDICTS, UNSEEN, check_spelling, check_typmod

_MISSING: Any = object()


class BuildContext(msgspec.Struct, eq=False, weakref=False):
    """Per-document state of a build: where we are, and the diagnostics found on the way. (A ``msgspec.Struct``,
    made in C: one is made per document, and a plain class's ``__init__`` frame cost about twice as much.)"""

    document: str | None = None
    diagnostics: list[Diagnostic] = msgspec.field(default_factory=list)

    def __repr__(self) -> str:
        return f"BuildContext(document={self.document!r}, diagnostics={self.diagnostics!r})"

    def diag(self, code: str, message: str, path: Path, **kw: Any) -> None:
        self.diagnostics.append(Diagnostic(code, message, path, document=self.document, **kw))

    def error(self, message: str, path: Path) -> DdlcError:
        return DdlcError(message, code=E_BUILD, path=path, document=self.document)


class Obj(msgspec.Struct, eq=False, weakref=False):
    """A JDDL object (``dict``) with its path; every accessor reports wrong shapes precisely. (A
    ``msgspec.Struct``, made in C: a builder makes one per object it reads, ~20 for a CREATE TABLE, and a plain
    class's ``__init__`` frame cost twice as much; ``eq=False``: compared and hashed by identity, as before.)"""

    d: Mapping[str, Any]
    path: Path
    ctx: BuildContext

    # -- raw access ---------------------------------------------------------------------
    def key(self, name: str) -> str | None:
        """The spelling of ``name`` present in this object (dialect aware), or None."""
        aliases = ALIASES.get(name)
        if aliases is None:  # the common case: one spelling
            return name if name in self.d else None
        for k in aliases:
            if k in self.d:
                return k
        return None

    def has(self, name: str) -> bool:
        return self.key(name) is not None

    def raw(self, name: str, default: Any = _MISSING) -> Any:
        d = self.d
        v = d.get(name, _MISSING)  # the spelling asked for is the first of its spellings (ALIASES)
        if v is not _MISSING:
            return v
        aliases = ALIASES.get(name)  # (as key(name), without the call: absent members are common)
        if aliases is not None:
            for k in aliases:
                if k in d:
                    return d[k]
        if default is _MISSING:
            raise self.ctx.error(f'element "{name}" not found', self.path + (name,))
        return default

    def at(self, name: str) -> Path:
        return self.path + ((name if name in self.d else self.key(name) or name),)

    @property
    def fmt(self) -> str:
        f = self.d.get("fmt")
        return f if isinstance(f, str) else ""

    @property
    def present(self) -> bool:
        return self.d.get("present", True) is not False

    # -- typed access -------------------------------------------------------------------
    def str(self, name: str, default: Any = _MISSING) -> str:
        v = self.d.get(name, _MISSING)
        if v.__class__ is str:  # the common case: present, a string
            return v
        v = self.raw(name, default)
        if v is default and default is not _MISSING:
            return v
        if isinstance(v, dict) and v.get("present", True) is False:
            return ""  # prints nothing, as "" does (an empty slot of another version's form)
        if not isinstance(v, str):
            raise self.ctx.error(f'element "{name}" must be a string', self.at(name))
        return v

    def opt_str(self, name: str) -> str | None:
        """A string member; None when absent or empty."""
        v = self.d.get(name, _MISSING)
        if v.__class__ is str:  # the common case: present, a string
            return v or None
        v = self.raw(name, None)
        if v is None or v == "" or (isinstance(v, dict) and v.get("present", True) is False):
            return None
        if not isinstance(v, str):
            raise self.ctx.error(f'element "{name}" must be a string', self.at(name))
        return v

    def flag(self, name: str, word: str | None = None) -> bool:
        """A keyword member such as ``if_not_exists`` ("" or "IF NOT EXISTS") as a bool."""
        v = self.d.get(name, _MISSING)
        if v.__class__ is str:  # the common case: present, a string
            return bool(v.strip()) if word is None else v.strip().upper() == word
        v = self.raw(name, "")
        if isinstance(v, dict):
            return v.get("present", True) is not False
        if not isinstance(v, str):
            raise self.ctx.error(f'element "{name}" must be a string', self.at(name))
        return bool(v.strip()) if word is None else v.strip().upper() == word

    def obj(self, name: str) -> Obj:
        v = self.d.get(name)
        if v.__class__ is dict:  # the common case: present under the spelling asked for
            return Obj(v, self.path + (name,), self.ctx)
        v = self.raw(name)
        if not isinstance(v, dict):
            raise self.ctx.error(f'element "{name}" must be an object', self.at(name))
        return Obj(v, self.at(name), self.ctx)

    def opt_obj(self, name: str) -> Obj | None:
        """A nested clause object; None when absent or ``"present": false``."""
        v = self.d.get(name)
        if v.__class__ is dict:  # the common case: present under the spelling asked for
            return None if v.get("present", True) is False else Obj(v, self.path + (name,), self.ctx)
        v = self.raw(name, None)
        if v is None or v == "":  # absent, or empty (a slot of another version's form): not present
            return None
        if not isinstance(v, dict):
            raise self.ctx.error(f'element "{name}" must be an object', self.at(name))
        if v.get("present", True) is False:
            return None
        return Obj(v, self.at(name), self.ctx)

    def items(self, name: str) -> Iterator[Obj | Any]:
        """Elements of an array member (objects wrapped, ``present: false`` ones skipped)."""
        v = self.raw(name, None)
        if v is None:
            return
        if not isinstance(v, list):
            raise self.ctx.error(f'element "{name}" must be an array', self.at(name))
        base = self.at(name)
        for i, e in enumerate(v):
            if isinstance(e, dict):
                if e.get("present", True) is False:
                    continue
                yield Obj(e, base + (i,), self.ctx)
            else:
                yield e

    def strings(self, name: str) -> tuple[str, ...]:
        v = self.d.get(name)
        if v.__class__ is list:  # the common case: an array of strings under the spelling asked for
            for e in v:
                if e.__class__ is not str:
                    break
            else:
                return tuple(v)
        out = []
        for i, e in enumerate(self.items(name)):
            if not isinstance(e, str):
                raise self.ctx.error(f'elements of "{name}" must be strings', self.at(name) + (i,))
            out.append(e)
        return tuple(out)

    def qname(self, name: str) -> QualifiedName:
        return read_qname(self.obj(name))

    def typename(self, name: str) -> TypeName:
        return read_type(self.obj(name))

    def expr(self, name: str) -> Expr:
        """A scalar SQL expression member, parsed once by the SQL layer (its tree None if it does not parse)."""
        return make_expr(self.str(name), self.at(name))

    def query(self, name: str) -> Expr:
        """A query member (view query...), parsed once by the SQL layer."""
        return make_query(self.str(name), self.at(name))


def member(cls: Any, value: Any) -> Any:
    """``cls(value)`` for an enum class ``cls``: a string that is a member's value found by one lookup in the
    class's own value map (what ``EnumType.__call__`` looks up first, after ~1 µs of calls); anything else by the
    call, with its errors."""
    if value.__class__ is str:
        m = cls._value2member_map_.get(value)
        if m is not None:
            return m
    return cls(value)


def read_qname(o: Obj) -> QualifiedName:
    d = o.d
    schema = d.get("schemaname")
    name = d.get("objname")
    if (schema.__class__ is str and name.__class__ is str and "attrname" not in d and "attr_name" not in d
            and "attribute_name" not in d):  # the common case, read at once
        return QualifiedName(name, schema, None, origin=o.path)
    schema = o.raw("schemaname", None)
    attr = o.raw("attrname", None)
    for key, v in (("schemaname", schema), ("attrname", attr)):
        if v is not None and not isinstance(v, str):
            raise o.ctx.error(f'element "{key}" is not of type string', o.at(key))
    return QualifiedName(o.str("objname"), schema, attr, origin=o.path)


def read_type(o: Obj) -> TypeName:
    d = o.d
    schema = d.get("schemaname", _MISSING)
    if schema.__class__ is not str:  # (the common case read at once: a string under the first spelling)
        schema = o.raw("schemaname", None)
        if schema is not None and not isinstance(schema, str):
            raise o.ctx.error('element "schemaname" is not of type string', o.at("schemaname"))
    arr = d.get("typarray", False)  # (typarray and typmod have one spelling)
    if not isinstance(arr, bool):
        raise o.ctx.error('element "typarray" is not of type boolean', o.at("typarray"))
    typmod = d.get("typmod", "")
    if not isinstance(typmod, str):
        raise o.ctx.error('element "typmod" is not of type string', o.at("typmod"))
    name = d.get("typename", _MISSING)
    first = name.__class__ is str  # (under its first spelling: o.at("typename") is the path + "typename")
    if not first:
        name = o.str("typename")
    # (check_typmod's verdict remembered good: no call; a typmod is a member here, o.at("typmod") is path + "typmod")
    if typmod and TYPMOD_VERDICTS.get((typmod, name, schema), UNSEEN) is not None:
        check_typmod(typmod, o.path + ("typmod",), o.ctx.document, name, schema)
    if schema == "":
        check_spelling(name, o.path + ("typename",) if first else o.at("typename"), o.ctx.document)
    return TypeName(name, schema, typmod, arr, origin=o.path)
