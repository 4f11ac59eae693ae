"""msgspec's typed decoder as the reader: the same CREATE TABLE trees decoded from JSON straight into Structs
(types checked in C; unknown keys ignored, as the grammars allow), then made into the IR nodes of pyimpl.py.
Under callgrind: CG=1 counts the decode alone, CG2=1 the decode and the IR."""
import msgspec, orjson, os, subprocess, sys, time, gc
src = open("measure.py").read().split("raw = ")[0]
ns = {}; exec(src, ns)
raw = [orjson.dumps(ns["tree"](k)) for k in range(2000)]
class JType(msgspec.Struct, frozen=True):
    typename: str
    typmod: str = ""
class JDefault(msgspec.Struct, frozen=True):
    fmt: str
    present: bool
    default: str
class JColumn(msgspec.Struct, frozen=True):
    fmt: str
    name: str
    coltype: JType
    default: JDefault | None = None
    not_null: str = ""
    collation: str | None = None
class JIdent(msgspec.Struct, frozen=True):
    objname: str
    schemaname: str | None = None
class JElems(msgspec.Struct, frozen=True):
    fmt: str
    elements: list[JColumn]
class JTable(msgspec.Struct, frozen=True):
    fmt: str
    identity: JIdent
    table_elements: JElems
    if_not_exists: str = ""
dec = msgspec.json.Decoder(JTable)
fn = dec.decode
for x in raw[:200]: fn(x)
gc.collect()
if os.environ.get("CG"):
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], stdout=subprocess.DEVNULL)
    for x in raw: fn(x)
    subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], stdout=subprocess.DEVNULL)
    time.sleep(0.5)

import pyimpl
def to_ir(j):
    cols = []
    for i, c in enumerate(j.table_elements.elements):
        path = ("table_elements", "elements", i)
        t = c.coltype
        mods = t.typmod
        d = c.default
        cols.append(pyimpl.Column(c.name, pyimpl.TypeName(t.typename, tuple(m.strip() for m in mods.strip("()").split(",")) if mods else (), path + ("coltype",)),
                                  c.not_null == "NOT NULL", d.default if d is not None and d.present else None, c.collation or None, path))
    ident = j.identity
    return pyimpl.Table(pyimpl.QName(ident.schemaname, ident.objname, ("identity",)), tuple(cols), j.if_not_exists == "IF NOT EXISTS", ())
def both(x):
    return to_ir(fn(x))
assert both(raw[5]) == pyimpl.build_table(orjson.loads(raw[5]))
if os.environ.get("CG2"):
    for x in raw[:200]: both(x)
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], stdout=subprocess.DEVNULL)
    for x in raw: both(x)
    subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], stdout=subprocess.DEVNULL)
    time.sleep(0.5)
