"""The pure-Python side: msgspec Structs (as ddlc's IR) and interpreted build / rules / write."""
import msgspec

KEYWORDS = frozenset({"select", "table", "user", "order", "group", "default", "check", "from", "where", "primary"})
_BARE_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz_")
_BARE_REST = frozenset("abcdefghijklmnopqrstuvwxyz_0123456789$")
KNOWN_TYPES = frozenset({"integer", "bigint", "text", "varchar", "numeric", "timestamp", "boolean", "date"})


class QName(msgspec.Struct, frozen=True):
    schema: str | None
    name: str
    origin: tuple = ()


class TypeName(msgspec.Struct, frozen=True):
    name: str
    mods: tuple = ()
    origin: tuple = ()


class Column(msgspec.Struct, frozen=True):
    name: str
    type: TypeName
    not_null: bool = False
    default: str | None = None
    collation: str | None = None
    origin: tuple = ()


class Table(msgspec.Struct, frozen=True):
    name: QName
    columns: tuple = ()
    if_not_exists: bool = False
    origin: tuple = ()


class BadInput(Exception):
    pass


def _str(d, key, path):
    v = d.get(key)
    if type(v) is not str:
        raise BadInput(f"{key} at {path}")
    return v


def build_type(d, path):
    mods = d.get("typmod") or ""
    return TypeName(_str(d, "typename", path), tuple(m.strip() for m in mods.strip("()").split(",")) if mods else (), path)


def build_column(d, path):
    default = d.get("default")
    dv = None
    if type(default) is dict and default.get("present"):
        dv = _str(default, "default", path + ("default",))
    return Column(_str(d, "name", path), build_type(d["coltype"], path + ("coltype",)),
                  d.get("not_null") == "NOT NULL", dv, d.get("collation") or None, path)


def build_table(d):
    ident = d["identity"]
    cols = d["table_elements"]["elements"]
    return Table(QName(ident.get("schemaname"), _str(ident, "objname", ("identity",)), ("identity",)),
                 tuple(build_column(c, ("table_elements", "elements", i)) for i, c in enumerate(cols)),
                 d.get("if_not_exists") == "IF NOT EXISTS", ())


def rules(t):
    out = []
    for c in t.columns:
        ty = c.type
        if ty.name not in KNOWN_TYPES:
            out.append(("W1", c.origin))
        if c.collation is not None:
            out.append(("W2", c.origin))
        if c.default is not None and "nextval" in c.default:
            out.append(("I3", c.origin))
        if len(ty.mods) > 2:
            out.append(("W4", ty.origin))
    return out


def ident(s):
    if s and s[0] in _BARE_FIRST and all(ch in _BARE_REST for ch in s) and s not in KEYWORDS:
        return s
    return '"' + s.replace('"', '""') + '"'


def write_type(ty):
    if ty.mods:
        return ty.name + "(" + ", ".join(ty.mods) + ")"
    return ty.name


def write_column(c):
    parts = [ident(c.name), write_type(c.type)]
    if c.collation is not None:
        parts.append("COLLATE " + ident(c.collation))
    if c.default is not None:
        parts.append("DEFAULT " + c.default)
    if c.not_null:
        parts.append("NOT NULL")
    return " ".join(parts)


def write_table(t):
    name = ident(t.name.name) if t.name.schema is None else ident(t.name.schema) + "." + ident(t.name.name)
    head = "CREATE TABLE IF NOT EXISTS " if t.if_not_exists else "CREATE TABLE "
    return head + name + " (" + ", ".join([write_column(c) for c in t.columns]) + ")"


def whole(d):
    t = build_table(d)
    return write_table(t), rules(t)
