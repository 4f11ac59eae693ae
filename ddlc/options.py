"""The run's options: one typed, frozen :class:`Options` (the flags of ``ddlc translate``), checked when made.

Below the compiler, the session and the filters (which type their ``options`` with it) and above the
backends (a target's own options are declared on its backend class and checked by that declaration).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from . import lazyre
from .records import record

MODES = ("canonical", "raw")

# The one default target of every command and of the library. A command line picks another with
# ``--to``; the environment (``DDLC_TARGETS=postgres,spark``) and ``targets`` in .ddlc.toml change
# the commands' default, in that order (flag, environment, file, this). Commands taking one target
# use the first.
DEFAULT_TARGET = "postgres"
TARGETS_ENV = "DDLC_TARGETS"
# warn: clauses dropped with a warning, a statement with no target form fails the document;
# error: both fail it; comment: both kept as SQL comments; skip: a statement with no form is left out.
ON_UNSUPPORTED = ("warn", "error", "comment", "skip")
# A target's own options (the spark target's catalog, partitioning, column mapping, varchar...) are
# declared on its Backend class (ddlc.backends.base.TargetOption): their library keywords
# (<target>_<option>) are accepted by Options.of, translate and translate_many, checked by the declaration.

Target = str  # a registered target's name (ddlc.backends.target_names())
Mode = Literal["canonical", "raw"]
OnUnsupported = Literal["warn", "error", "comment", "skip"]
SchemaMap = Mapping[str, str] | Iterable[tuple[str, str]]
_SPARK_CHOICES = {"SPARK_PARTITIONING": "partitioning", "SPARK_COLUMN_MAPPING": "column_mapping",
                  "SPARK_VARCHAR": "varchar"}


def __getattr__(name: str) -> Any:
    """``SPARK_PARTITIONING`` and the like: the spark target's declared choices (kept for callers)."""
    if name in _SPARK_CHOICES:
        from .backends import backend_class

        return next(o.choices for o in backend_class("spark").options if o.name == _SPARK_CHOICES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@record(frozen=True, slots=True)
class Options:
    """Translation options (the CLI flags of ``ddlc translate``); build one with :meth:`Options.of`,
    which checks every value, or pass the same names as keyword arguments to :func:`translate`."""

    mode: Mode = "canonical"  # gaussdb target: canonical | raw
    validate: bool = False  # check every tree against grammars/ first (costs ~0.3 ms/KB)
    default_schema: str = "public"
    schema_map: tuple[tuple[str, str], ...] = ()
    on_unsupported: OnUnsupported = "warn"
    pretty: bool = False  # targets that can (Backend.prettify: postgres): pretty-print each statement
    # filters (ddlc/filters.py): GaussDB's white-table-list ("public.t1,*.t3,my_schema.*") as
    # (schema, table) pairs, a regex a statement's schema must match whole, and exclude-users
    white_table_list: tuple[tuple[str, str], ...] = ()
    schema_regex: str | None = None
    exclude_users: tuple[str, ...] = ()
    # owners (docs/targets.md, "Owners"): what the statement says about ownership (CREATE SCHEMA ... AUTHORIZATION,
    # ALTER ... OWNER TO, DEFINER) is kept unless no_owner; owners=True also writes ALTER <kind> <name>
    # OWNER TO <myowner> after each CREATE (postgres), as pg_dump does; role_map renames roles everywhere
    owners: bool = False
    no_owner: bool = False
    role_map: tuple[tuple[str, str], ...] = ()
    # the targets' own options that differ from their defaults, as (library keyword, value) pairs sorted
    # by keyword (spark_varchar="string"...); read them as attributes (opts.spark_varchar) or typed
    # through the backend (Backend.settings_of)
    target_options: tuple[tuple[str, Any], ...] = ()

    def __getattr__(self, name: str) -> Any:
        """A target option by its library keyword (``opts.spark_varchar``): its value or its default."""
        if name.startswith("_") or name == "target_options":
            raise AttributeError(name)
        for k, v in self.target_options:
            if k == name:
                return v
        from .backends import find_option

        found = find_option(name)
        if found is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return found[1].default

    @property
    def filtering(self) -> bool:
        return bool(self.white_table_list or self.schema_regex is not None or self.exclude_users)

    def __post_init__(self) -> None:
        """Every value checked (and written in its one form) however the options are made: ``Options(...)``,
        :meth:`of`, ``dataclasses.replace``. TypeError/ValueError before any work."""
        put = object.__setattr__
        put(self, "schema_map", _schema_map(self.schema_map))
        put(self, "role_map", _schema_map(self.role_map, "role_map", "--role-map"))
        put(self, "white_table_list", parse_white_table_list(self.white_table_list))
        put(self, "exclude_users", parse_users(self.exclude_users))
        check_regex(self.schema_regex)
        for name in ("mode", "default_schema", "on_unsupported"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a string, not {type(getattr(self, name)).__name__}")
        for name in ("validate", "pretty", "owners", "no_owner"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be True or False, not {getattr(self, name)!r}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.on_unsupported not in ON_UNSUPPORTED:
            raise ValueError(f"on_unsupported must be one of {', '.join(ON_UNSUPPORTED)}")
        if any(dst in ("public", "none") for _src, dst in self.role_map):
            raise ValueError("role_map target: PostgreSQL reserves the role names public and none")
        if self.owners and self.no_owner:
            raise ValueError("owners and no_owner cannot both be set (--owners writes owners, --no-owner drops them)")
        _check_name("default_schema", self.default_schema)
        put(self, "target_options", _target_options(self.target_options))

    @classmethod
    def of(cls, **kw: Any) -> Options:
        """Options from keywords: the fields above, and any target's own options by their library
        keywords (``spark_varchar="string"``); TypeError for a keyword that is neither."""
        from .backends import find_option

        targeted: dict[str, Any] = dict(kw.pop("target_options", ()) or ())
        for k in set(kw) - set(cls.__dataclass_fields__):
            if find_option(k) is not None:
                targeted[k] = kw.pop(k)
        unknown = set(kw) - set(cls.__dataclass_fields__)
        if unknown:
            raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(**kw, target_options=tuple(targeted.items()))

    def merged(self, **kw: Any) -> Options:
        """These options with what ``kw`` names set (fields, or targets' options by their library
        keywords), checked again: what ``translate(..., options=o, mode="raw")`` runs with (the keywords
        win over ``options=``)."""
        fields = {f: getattr(self, f) for f in type(self).__dataclass_fields__ if f != "target_options"}
        targeted = dict(self.target_options)
        for k in [k for k in kw if k not in fields]:
            targeted[k] = kw.pop(k)
        return type(self)(**(fields | kw), target_options=tuple(targeted.items()))


def _target_options(pairs: Any) -> tuple[tuple[str, Any], ...]:
    """(keyword, value) pairs of the targets' own options, each checked by its declaration, those at
    their default left out, sorted by keyword."""
    from .backends import find_option

    try:
        items = list(pairs.items() if isinstance(pairs, Mapping) else pairs)
    except TypeError:
        raise TypeError(f"target_options must be (keyword, value) pairs, not {type(pairs).__name__}") from None
    out = {}
    for item in items:
        if not isinstance(item, tuple | list) or len(item) != 2 or not isinstance(item[0], str):
            raise TypeError(f"target_options entries must be (keyword, value) pairs, not {item!r}")
        k, v = item
        found = find_option(k)
        if found is None:
            raise TypeError(f"unknown option(s): {k}")
        found[1].check(k, v)
        if v != found[1].default:
            out[k] = v
    return tuple(sorted(out.items()))


def _schema_map(sm: Any, what: str = "schema_map", flag: str = "--schema-map") -> tuple[tuple[str, str], ...]:
    """``schema_map`` (or ``role_map``) as pairs: see :func:`parse_mapping`. A plain string is refused
    (TypeError): the library takes a mapping or pairs (``SRC=DST`` entries in a list are read too); the
    ``SRC=DST,...`` text of a whole option is the spelling of the flag and the configuration key."""
    if isinstance(sm, str):
        raise TypeError(f"{what} must be a mapping or (source, target) pairs, not a string "
                        f"(the SRC=DST spelling is for {flag}; parse_mapping reads it)")
    return parse_mapping(sm, what, flag)


def parse_mapping(value: Any, what: str = "schema_map", flag: str = "--schema-map") -> tuple[tuple[str, str], ...]:
    """The one parser of every mapping (``--schema-map``, ``--role-map``, the configuration's ``schema-map``,
    ``Options(schema_map=..., role_map=...)``): a mapping, (source, target) pairs, the text
    ``SRC=DST[,SRC=DST...]``, or an iterable of such texts and pairs (a flag given several times).

    Each text entry has exactly one ``=`` with a name on each side (``a=b=c``, ``=b``, ``a=`` and an empty
    entry are ValueErrors), and a source mapped twice to different targets is a ValueError (twice to the
    same one is said once). A value of another type is a TypeError."""
    if value is None:
        return ()
    if isinstance(value, bytes):
        raise TypeError(f"{what} must be a mapping, (source, target) pairs or SRC=DST text, not bytes")
    if isinstance(value, str):
        items: list[Any] = [value]
    elif isinstance(value, Mapping):
        items = list(value.items())
    else:
        try:
            items = list(value)
        except TypeError:
            raise TypeError(f"{what} must be a mapping, (source, target) pairs or SRC=DST text, "
                            f"not {type(value).__name__}") from None
    out: dict[str, str] = {}
    named = f"{what} " if what else ""  # the CLI's message names its flag itself
    for item in items:
        if isinstance(item, str):
            pairs = [_text_pair(entry, item, what, flag) for entry in item.split(",")]
        elif isinstance(item, tuple | list) and len(item) == 2:
            pairs = [(item[0], item[1])]
        else:
            raise TypeError(f"{what or flag} entries must be (source, target) pairs or SRC=DST text, not {item!r}")
        for src, dst in pairs:
            _check_name(f"{named}source", src)
            _check_name(f"{named}target", dst)
            if out.setdefault(src, dst) != dst:
                raise ValueError(f"{named}maps {src!r} twice, to {out[src]!r} and to {dst!r}: map each source once")
    return tuple(out.items())


def _text_pair(entry: str, text: str, what: str, flag: str) -> tuple[str, str]:
    """``SRC=DST`` (blanks around either name ignored)."""
    parts = entry.split("=")
    src, dst = (parts[0].strip(), parts[1].strip()) if len(parts) == 2 else ("", "")
    if not src or not dst:
        why = ("more than one '='" if len(parts) > 2 else "no '='" if len(parts) == 1 and entry.strip()
               else "an empty entry" if not entry.strip() else "an empty name")
        raise ValueError(f"{what + ': ' if what else ''}expected SRC=DST[,SRC=DST...], got {text!r} ({why} in "
                         f"{entry!r})")
    return src, dst


def _check_name(what: str, v: Any) -> None:
    if not isinstance(v, str):
        raise TypeError(f"{what} must be a string, not {type(v).__name__}")
    if not v:
        raise ValueError(f"{what} must not be empty")
    if "\x00" in v or any(0xD800 <= ord(c) <= 0xDFFF for c in v):
        raise ValueError(f"{what} {v!r} holds a NUL or a lone surrogate")


_PART = lazyre.compile(r"[^\s.,]+")  # (compiled when a white_table_list is first read)


def parse_white_table_list(value: Any) -> tuple[tuple[str, str], ...]:
    """``"public.t1,*.t3"`` (or an iterable of ``"schema.table"``) as ``(schema, table)`` pairs."""
    if value is None:
        return ()
    if isinstance(value, str):
        if not value:
            return ()
        if any(c.isspace() for c in value):
            raise ValueError(f"white_table_list {value!r}: no blank is allowed (as in GaussDB's white-table-list)")
        items = value.split(",")
    else:
        try:
            items = list(value)
        except TypeError:
            raise TypeError(f"white_table_list must be a string or strings, not {type(value).__name__}") from None
    out = []
    for item in items:
        if isinstance(item, tuple | list) and len(item) == 2:
            item = f"{item[0]}.{item[1]}"
        if not isinstance(item, str):
            raise TypeError(f"white_table_list entries must be strings, not {type(item).__name__}")
        schema, dot, table = item.partition(".")
        if not dot or not _PART.fullmatch(schema) or not _PART.fullmatch(table):
            raise ValueError(f"white_table_list entry {item!r}: expected schema.table ('*' for any)")
        out.append((schema, table))
    return tuple(out)


def parse_users(value: Any) -> tuple[str, ...]:
    """``"u1,u2"`` (or an iterable of names) as a tuple of user names."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    out = []
    for u in items:
        if not isinstance(u, str):
            raise TypeError(f"exclude_users entries must be strings, not {type(u).__name__}")
        if not u or "\x00" in u:
            raise ValueError(f"exclude_users: bad user name {u!r}")
        out.append(u)
    return tuple(out)


def check_regex(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        raise TypeError(f"schema_regex must be a string, not {type(value).__name__}")
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"schema_regex {value!r} is not a regular expression: {exc}") from None
