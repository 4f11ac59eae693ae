# cython: language_level=3, boundscheck=False, wraparound=False
"""The native side: cdef classes with typed fields, build / rules / write as cdef functions."""

cdef frozenset KEYWORDS = frozenset({"select", "table", "user", "order", "group", "default", "check", "from", "where", "primary"})
cdef frozenset KNOWN_TYPES = frozenset({"integer", "bigint", "text", "varchar", "numeric", "timestamp", "boolean", "date"})


cdef class QName:
    cdef readonly object schema
    cdef readonly str name
    cdef readonly tuple origin
    def __init__(self, schema, str name, tuple origin=()):
        self.schema = schema; self.name = name; self.origin = origin


cdef class TypeName:
    cdef readonly str name
    cdef readonly tuple mods
    cdef readonly tuple origin
    def __init__(self, str name, tuple mods=(), tuple origin=()):
        self.name = name; self.mods = mods; self.origin = origin


cdef class Column:
    cdef readonly str name
    cdef readonly TypeName type
    cdef readonly bint not_null
    cdef readonly object default
    cdef readonly object collation
    cdef readonly tuple origin


cdef class Table:
    cdef readonly QName name
    cdef readonly tuple columns
    cdef readonly bint if_not_exists
    cdef readonly tuple origin


class BadInput(Exception):
    pass


cdef inline str _str(dict d, str key, tuple path):
    v = d.get(key)
    if type(v) is not str:
        raise BadInput(f"{key} at {path}")
    return <str>v


cdef TypeName build_type(dict d, tuple path):
    cdef TypeName t = TypeName.__new__(TypeName)
    mods = d.get("typmod") or ""
    t.name = _str(d, "typename", path)
    t.mods = tuple([m.strip() for m in (<str>mods).strip("()").split(",")]) if mods else ()
    t.origin = path
    return t


cdef Column build_column(dict d, tuple path):
    cdef Column c = Column.__new__(Column)
    default = d.get("default")
    c.default = None
    if type(default) is dict and (<dict>default).get("present"):
        c.default = _str(<dict>default, "default", path + ("default",))
    c.name = _str(d, "name", path)
    c.type = build_type(<dict>d["coltype"], path + ("coltype",))
    c.not_null = d.get("not_null") == "NOT NULL"
    c.collation = d.get("collation") or None
    c.origin = path
    return c


cpdef Table build_table(dict d):
    cdef dict ident = d["identity"]
    cdef list cols = d["table_elements"]["elements"]
    cdef Table t = Table.__new__(Table)
    cdef QName q = QName.__new__(QName)
    q.schema = ident.get("schemaname"); q.name = _str(ident, "objname", ("identity",)); q.origin = ("identity",)
    t.name = q
    cdef list out = []
    cdef Py_ssize_t i
    for i in range(len(cols)):
        out.append(build_column(<dict>cols[i], ("table_elements", "elements", i)))
    t.columns = tuple(out)
    t.if_not_exists = d.get("if_not_exists") == "IF NOT EXISTS"
    t.origin = ()
    return t


cpdef list rules(Table t):
    cdef list out = []
    cdef Column c
    cdef TypeName ty
    for c in t.columns:
        ty = c.type
        if ty.name not in KNOWN_TYPES:
            out.append(("W1", c.origin))
        if c.collation is not None:
            out.append(("W2", c.origin))
        if c.default is not None and "nextval" in <str>c.default:
            out.append(("I3", c.origin))
        if len(ty.mods) > 2:
            out.append(("W4", ty.origin))
    return out


cdef inline bint _bare(str s):
    cdef Py_UCS4 ch
    cdef Py_ssize_t n = len(s)
    if n == 0:
        return False
    ch = s[0]
    if not (ch == u'_' or (u'a' <= ch <= u'z')):
        return False
    for ch in s:
        if not (ch == u'_' or ch == u'$' or (u'a' <= ch <= u'z') or (u'0' <= ch <= u'9')):
            return False
    return s not in KEYWORDS


cpdef str ident(str s):
    if _bare(s):
        return s
    return '"' + s.replace('"', '""') + '"'


cdef str write_type(TypeName ty):
    if ty.mods:
        return ty.name + "(" + ", ".join(ty.mods) + ")"
    return ty.name


cdef str write_column(Column c):
    cdef list parts = [ident(c.name), write_type(c.type)]
    if c.collation is not None:
        parts.append("COLLATE " + ident(<str>c.collation))
    if c.default is not None:
        parts.append("DEFAULT " + <str>c.default)
    if c.not_null:
        parts.append("NOT NULL")
    return " ".join(parts)


cpdef str write_table(Table t):
    cdef str name = ident(t.name.name) if t.name.schema is None else ident(<str>t.name.schema) + "." + ident(t.name.name)
    cdef str head = "CREATE TABLE IF NOT EXISTS " if t.if_not_exists else "CREATE TABLE "
    cdef list cols = []
    cdef Column c
    for c in t.columns:
        cols.append(write_column(c))
    return head + name + " (" + ", ".join(cols) + ")"


cpdef tuple whole(dict d):
    cdef Table t = build_table(d)
    return write_table(t), rules(t)
