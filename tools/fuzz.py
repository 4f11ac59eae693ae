#!/usr/bin/env python3
"""Fuzz ``ddlc.translate`` with mutated documents, each under a budget (issue 20, item 5).

    python tools/fuzz.py --count 1000000 --target postgres --jobs 2
    python tools/fuzz.py --count 20000 --target all --out /tmp/fuzz.jsonl
    python tools/fuzz.py --replay 123456 --target spark        # one document again, in this process

Seeds: every fixture tree (``fixtures/cases/**/input.json``, the oracle inputs of
``../shared/fixtures/oracle`` and ``fixtures/oracle``) and the GaussDB text printed from each of them
(``{"TDDL": <ddlc translate --to gaussdb>}``, canonical and raw). Document ``i`` is seed and mutations
drawn from ``random.Random(seed, i)``, so any document can be made again from its index
(``--replay``). Mutations: huge numbers (``9e999999999``, 5000- and 50000-digit runs, the int4/int8
edges), long digit strings, deep nesting (JSON arrays, parentheses and operator chains in SQL
fragments), swapped value types, hostile strings (quotes, comment openers and closers, NUL, line and
paragraph separators, lone surrogates, ``%{`` and psql meta-commands, megabyte strings), dropped and
duplicated keys (duplicates written into the JSON text), broken ``fmt`` strings, grown arrays,
grafted subtrees, START/END/EVERY clauses with hostile bounds; on TDDL texts the same at token level
(numbers, types and typmods, nesting, deleted, repeated and spliced spans, truncation).

Each (document, target) runs ``ddlc.translate`` (and renders ``.sql``) in a worker process with a
budget: at most ``--budget-s`` (1 s) of CPU time (and of wall time with ``--wall``: on a shared
machine wall time measures the neighbours), at most ``--budget-mb`` (50 MB) of memory, measured as
the larger of the growth of the process's peak resident set (reset before each document through
``/proc/self/clear_refs``) and, for a document that grew it by 10 MB or took 0.25 s, the peak of its
Python allocations in a second run under ``tracemalloc``; what a document writes
adds to its budget (1 s and 20 MB per MB written: a START/END/EVERY clause the server accepts may
expand into a million partitions, and writing them is work no reader can avoid; such documents are
counted apart). A document over budget
is run up to three times more and counts only if it is over every time (its time the least of its
untraced runs: on a shared machine CPU time grows with the neighbours' load too). A watchdog in the parent kills a
worker whose document runs past ``--hard-timeout`` seconds of CPU time (or 20 times as many seconds of
wall time; a hang is reported, never waited on) and restarts it after that document; a worker that dies is reported the same way. Reports per target:
documents, refusals by code, E900 (an ``internal error``, or an exception escaping ``translate``),
over budget (time, memory, hang), documents/s. Every finding goes to ``--out`` (JSON lines with the index, the seed,
the mutations and the document) so it can be replayed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import resource
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED_ORACLE = ROOT.parent / "shared" / "fixtures" / "oracle"
TARGETS = ("gaussdb", "postgres", "spark")
MB = 1024 * 1024

# ---- seeds ------------------------------------------------------------------------------------------


def load_seeds() -> list[tuple[str, str]]:
    """(name, JSON text) of every seed document: fixture trees, oracle inputs, GaussDB text of each."""
    sys.path.insert(0, str(ROOT))
    import ddlc
    from ddlc.errors import DdlcError

    trees: list[tuple[str, str]] = []
    for p in sorted((ROOT / "fixtures" / "cases").rglob("input.json")):
        trees.append((str(p.relative_to(ROOT)), p.read_text("utf-8")))
    for folder in (SHARED_ORACLE, ROOT / "fixtures" / "oracle"):
        for p in sorted(folder.glob("*.json")) if folder.is_dir() else ():
            data = json.loads(p.read_text("utf-8"))
            if isinstance(data, dict) and "input" in data:
                trees.append((f"{folder.name}/{p.name}", json.dumps(data["input"])))
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for name, text in trees:
        if text not in seen:
            seen.add(text)
            out.append((name, text))
    for name, text in trees:
        for mode in ("canonical", "raw"):
            try:
                statements = ddlc.translate(text, "gaussdb", mode=mode).statements
            except DdlcError:
                continue
            for k, stmt in enumerate(statements):
                doc = json.dumps({"TDDL": stmt}, ensure_ascii=False)
                if doc not in seen:
                    seen.add(doc)
                    out.append((f"{name}#tddl-{mode}-{k}", doc))
    return out


# ---- mutations --------------------------------------------------------------------------------------


class Raw:
    """JSON text written as it is (deep nesting, numbers json cannot print)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Dup:
    """A JSON object written with a key twice."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


def dump(v: Any) -> str:
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, Dup):
        return "{" + ", ".join(json.dumps(k) + ": " + dump(x) for k, x in v.pairs) + "}"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(str(k)) + ": " + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(dump(x) for x in v) + "]"
    return json.dumps(v)


BIG_TEXTS = ["9e999999999", "1e999999998", "1e-999999999", "1e1000", "1e1001", "1e-1001", ".5e999", "1e308",
             "1e309", "-1e308", "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807",
             "9223372036854775808", "-9223372036854775809", "32767", "32768", "65535", "0", "-0", "-1", "1.5",
             "0.00001", "1048575", "1048576", "10485760", "10485761", "99999999999999999999", "1.0", "00000000001",
             "1e2", "0x7fffffff", "NaN", "Infinity", "-Infinity"]
JSON_NUMBERS = ["9e999999999", "1e308", "1e400", "-1e400", "2147483648", "9223372036854775808", "-0", "0.5",
                "1" * 30, "1" * 400, "1" * 5000, "1e-400", "123456789012345678901234567890.5"]
HOSTILE = ["'", '"', "\\", "\n", "\r", "\r\n", "\x00", "\u2028", "\u2029", "\u0085", "\t", "*/", "/*", "--", ";",
           "$$", "$a$", "%{", "%{x}s", "%%", "%", "}", "{", "\ud800", "\udfff", "\U0001f600", "\ufeff", "E'", "U&'",
           "\\! touch /tmp/ddlc-fuzz-marker", "\\\n", "${x}", "`", "::", "[]", "()", ")", "(", "\u02bc", "\\'",
           "' || '", "0x", "1e", "-- x\\", "\x1b[31m", "\u202e", "\ufffd", "a" * 64, "\u00e9" * 40, "\\x00",
           "; DROP TABLE victim; --", "*/ DROP TABLE victim; /*", "\n\\! id\n", "'); --", '"); --', "\\\\"]
SQL_WORDS = ["TABLE", "INDEX", "PARTITION", "START", "END", "EVERY", "VALUES", "LESS", "THAN", "MAXVALUE", "DEFAULT",
             "CHARACTER", "SET", "COLLATE", "varchar", "int4", "numeric", "timestamp", "interval", "TO", "FROM",
             "WITH", "(", ")", ",", ";", "NULL", "NOT", "CASCADE", "CONSTRAINT", "PRIMARY", "KEY", "ON", "USING",
             "SUBPARTITION", "BY", "RANGE", "LIST", "HASH", "ADD", "DROP", "ALTER", "COLUMN", "TYPE", "AS", "IS",
             "COMMENT", "CREATE", "TRIGGER", "FUNCTION", "VIEW", "SEQUENCE", "INCREMENT", "CACHE", "'x'", "1",
             "-", "+", "::", ".", "[", "]", "=", "AUTO_INCREMENT", "ENABLE", "ROW", "MOVEMENT", "TABLESPACE"]
TYPES = ["varchar({n})", "pg_catalog.varchar({n})", "numeric({n},2)", "numeric(1001,2)", "numeric(10,11)",
         "timestamp({n})", "TIMESTAMP({n}) with time zone", "interval day to second({n})", "char({n})",
         "bit({n})", "int4", "text", "pg_catalog.int8", "float8", "date", "geometry(Point,{n})", "varchar2({n})",
         "nvarchar2({n})", "int4[]", "character varying({n})"]
TYPE_NUMBERS = ["0", "1", "6", "7", "20", "1000", "1001", "10485760", "10485761", "2147483647", "2147483648",
                "9" * 30, "9" * 5000]
SWAP = [None, True, False, 0, -1, 1.5, "", "x", [], {}, [1], ["a", "b"], {"fmt": "%{x}s", "x": "y"}, {"fmt": ""},
        {"present": False}, {"fmt": "x", "present": True}, "%{x}s", {"objname": "o", "schemaname": "s"},
        {"typname": "int4"}, {"typmod": "", "typarray": False, "typename": "int4"}]
BOUNDS = ["0", "1", "-1", "100", "1000", "1000000", "2147483647", "-2147483648", "9223372036854775807",
          "9e999999999", "1e999999998", "1e1000", "1e-1000", "1" * 5000, "0.5", "1.0", "1e308", "MAXVALUE", "NULL",
          "''", "'2000-01-01'", "'290000-01-01'", "'infinity'", "'1 microsecond'", "'1 month'", "'1 day'",
          "'999999999999 days'", "'" + "9" * 5000 + " days'", "'1e999 seconds'", "interval '1' day",
          "timestamp(99) '2000-01-01'", "'nan'", "3", "200", "7", "'1 year'"]
KEY_TYPES = ["int2", "int4", "int8", "numeric", "float4", "float8", "date", "timestamp", "timestamptz", "varchar"]


class Mutator:
    def __init__(self, rng: random.Random, seeds: list[tuple[str, str]]) -> None:
        self.rng, self.seeds = rng, seeds
        self.ops: list[str] = []

    # -- helpers --------------------------------------------------------------------------------
    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def swap(self):
        """A value of another type (a fresh copy: the documents never share a mutable value)."""
        return json.loads(json.dumps(self.pick(SWAP)))

    def size(self, sizes):
        """One of ``sizes`` (ascending), the small ones more often: each half as likely as the one before."""
        k = 0
        while k < len(sizes) - 1 and self.rng.random() < 0.5:
            k += 1
        return sizes[k]

    def big_text(self) -> str:
        r = self.rng.random()
        if r < 0.15:
            return "9" * self.size((20, 400, 4301, 5000, 50000))
        if r < 0.25:
            return "1" + "0" * self.pick((100, 1000, 1001, 5000)) + self.pick(("", ".5", "e10"))
        return self.pick(BIG_TEXTS)

    def long_string(self) -> str:
        n = self.size((100, 1000, 10000, 50000, 100000))
        return self.pick(("a", "9", "(", "'", "%{", "\u00e9", "x ")) * n

    def nested_sql(self, inner: str = "1") -> str:
        d = self.size((10, 100, 1000, 5000, 20000, 50000))
        kind = self.rng.randrange(6)
        if kind == 0:
            return "(" * d + inner + ")" * d
        if kind == 1:
            return "-" * d + inner
        if kind == 2:
            return inner + " + 1" * d
        if kind == 3:
            return "NOT " * d + "true"
        if kind == 4:
            return "ARRAY[" * d + inner + "]" * d
        return "f(" * d + inner + ")" * d

    def locations(self, obj: Any) -> list[tuple[Any, Any]]:
        out: list[tuple[Any, Any]] = []
        stack = [obj]
        while stack:
            c = stack.pop()
            items = c.items() if isinstance(c, dict) else enumerate(c) if isinstance(c, list) else ()
            for k, v in items:
                out.append((c, k))
                if isinstance(v, dict | list):
                    stack.append(v)
        return out

    # -- a document -----------------------------------------------------------------------------
    def document(self, max_len: int) -> tuple[str, str, list[str]]:
        """A seed with 1-3 mutations, at most ``max_len`` characters (drawn again, up to 8 times, when longer)."""
        name, text = self.pick(self.seeds)
        for _attempt in range(8):
            self.ops = []
            obj = json.loads(text)
            for _ in range(self.pick((1, 1, 1, 2, 2, 3))):
                if isinstance(obj, dict) and isinstance(obj.get("TDDL"), str) and self.rng.random() < 0.85:
                    obj["TDDL"] = self.text(obj["TDDL"])
                else:
                    obj = self.tree(obj)
            doc = dump(obj)
            if len(doc) <= max_len:
                return name, doc, self.ops
        return name, text, ["none (every draw was too long)"]

    def tree(self, obj: Any) -> Any:
        locs = self.locations(obj)
        if not locs:
            self.ops.append("whole-swap")
            return self.swap() if self.rng.random() < 0.5 else Raw(self.pick(JSON_NUMBERS))
        parent, key = self.pick(locs)
        value = parent[key]
        op = self.pick(("number", "digits", "digits", "long", "nest-json", "nest-sql", "swap", "hostile", "hostile",
                        "drop", "dup", "fmt", "fmt", "array", "graft", "partition", "typmod", "name"))
        self.ops.append(f"{op}@{key}")
        rng = self.rng
        if op == "number":
            parent[key] = Raw(self.pick(JSON_NUMBERS))
        elif op == "digits" and isinstance(value, str) and re.search(r"\d", value):
            runs = list(re.finditer(r"\d+(?:\.\d+)?", value))
            m = self.pick(runs)
            parent[key] = value[:m.start()] + self.big_text() + value[m.end():]
        elif op in ("digits", "long"):
            parent[key] = self.long_string() if rng.random() < 0.5 else self.big_text()
        elif op == "nest-json":
            d = self.size((10, 100, 600, 1100, 5000, 100000))
            parent[key] = Raw("[" * d + "1" + "]" * d if rng.random() < 0.5 else '{"a": ' * d + "1" + "}" * d)
        elif op == "nest-sql":
            if isinstance(value, str) and value:
                at = rng.randrange(len(value) + 1)
                parent[key] = value[:at] + self.nested_sql() + value[at:]
            else:
                parent[key] = self.nested_sql()
        elif op == "swap":
            parent[key] = self.swap()
        elif op == "hostile":
            h = self.pick(HOSTILE) if rng.random() < 0.9 else self.long_string()
            if isinstance(value, str) and rng.random() < 0.7:
                at = rng.randrange(len(value) + 1)
                parent[key] = value[:at] + h + value[at:]
            else:
                parent[key] = h
        elif op == "drop" and isinstance(parent, dict):
            del parent[key]
        elif op == "dup" and isinstance(parent, dict):
            pairs = list(parent.items())
            extra = self.swap() if rng.random() < 0.5 else value
            pairs.insert(rng.randrange(len(pairs) + 1), (key, extra))
            return self.replace(obj, parent, Dup(pairs))
        elif op == "fmt" and isinstance(parent, dict) and isinstance(parent.get("fmt"), str):
            parent["fmt"] = self.fmt(parent["fmt"], list(parent))
        elif op == "array" and isinstance(value, list):
            how = rng.randrange(4)
            if how == 0 and value:
                parent[key] = value + [value[rng.randrange(len(value))]] * self.size((1, 10, 1000, 5000))
            elif how == 1:
                parent[key] = []
            elif how == 2:
                parent[key] = value[::-1]
            elif value:
                del value[rng.randrange(len(value))]
        elif op == "graft":
            other = json.loads(self.pick(self.seeds)[1])
            olocs = self.locations(other)
            parent[key] = other if not olocs else (lambda p, k: p[k])(*self.pick(olocs))
        elif op == "partition" and isinstance(obj, dict):
            obj["partition_by"] = self.partition_clause(obj)
            if isinstance(obj.get("fmt"), str) and "%{partition_by}s" not in obj["fmt"]:
                obj["fmt"] += " %{partition_by}s"
        elif op == "typmod":
            parent[key] = {"typmod": "(" + self.pick(TYPE_NUMBERS) + ")" if rng.random() < 0.8 else
                           self.pick(("(7) with time zone", " day to second(99)", "(10,11)", "(1001,2)", "()", "(a)")),
                           "typarray": False, "typename": self.pick(("varchar", "numeric", "bpchar", "bit", "timestamp",
                                                                   "TIMESTAMP", "INTERVAL", "geometry", "nvarchar2")),
                           "schemaname": self.pick(("pg_catalog", "", "public"))}
        elif op == "name":
            parent[key] = self.pick(("x" * 64, "x" * 100000, 'a"b', "a.b", "", " ", "A", "\u00e9" * 32, "$1",
                                     "select", "null", "p1_0"))
        else:
            parent[key] = self.swap()
        return obj

    def replace(self, obj: Any, target: Any, new: Any) -> Any:
        if obj is target:
            return new
        for parent, key in self.locations(obj):
            if parent[key] is target:
                parent[key] = new
                break
        return obj

    def fmt(self, fmt: str, keys: list[str]) -> str:
        rng = self.rng
        slots = list(re.finditer(r"%\{[^}]*\}.", fmt))
        how = rng.randrange(7)
        if how == 0 and slots:
            m = self.pick(slots)
            return fmt[:m.start()] + fmt[m.end():]
        if how == 1 and slots:
            m = self.pick(slots)
            return fmt[:m.end()] + " " + m.group() * self.pick((1, 2, 100)) + fmt[m.end():]
        if how == 2 and slots:
            m = self.pick(slots)
            return fmt[:m.end() - 1] + self.pick("sIDTLnRx%{") + fmt[m.end():]
        if how == 3:
            return fmt[:rng.randrange(len(fmt) + 1)]
        if how == 4:
            at = rng.randrange(len(fmt) + 1)
            return fmt[:at] + self.pick(("%{", "%{a:", "%{x}", "%", "%{" + self.pick(keys or ["x"]) + ":, }s", "}")) + fmt[at:]
        if how == 5:
            return self.pick((fmt * 2, "%{" + self.pick(keys or ["x"]) + "}s" * self.pick((1, 1000)), ""))
        return fmt.replace("s", self.pick(("I", "D", "T", "L", "n")), 1)

    def partition_clause(self, obj: dict) -> str:
        cols = []
        elements = obj.get("table_elements")
        if isinstance(elements, dict):
            elements = elements.get("elements")
        for e in elements if isinstance(elements, list) else ():
            if isinstance(e, dict) and isinstance(e.get("name"), str):
                cols.append(e["name"])
        col = self.pick(cols) if cols else "c"
        items = []
        for k in range(self.pick((1, 1, 2, 3))):
            form = self.rng.randrange(4)
            s, e, d = self.pick(BOUNDS), self.pick(BOUNDS), self.pick(BOUNDS)
            items.append(f"PARTITION p{k} " + (f"START({s}) END({e}) EVERY({d})", f"START({s}) END({e})",
                                               f"START({s})", f"END({e})")[form])
        return f"PARTITION BY RANGE ({col}) (" + ", ".join(items) + ")"

    # -- TDDL text ------------------------------------------------------------------------------
    _TOKEN = re.compile(r"\s+|'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\w+|.", re.S)

    def text(self, text: str) -> str:
        rng = self.rng
        toks = self._TOKEN.findall(text) or [""]
        op = self.pick(("t-number", "t-number", "t-long", "t-delete", "t-dup", "t-word", "t-type", "t-type",
                        "t-nest", "t-hostile", "t-hostile", "t-truncate", "t-splice", "t-partition", "t-quote"))
        self.ops.append(op)
        i = rng.randrange(len(toks))
        if op in ("t-number", "t-long"):
            nums = [k for k, t in enumerate(toks) if t[:1].isdigit()]
            k = self.pick(nums) if nums else i
            toks[k] = self.big_text() if op == "t-number" else "9" * self.size((30, 4301, 5000, 50000))
        elif op == "t-delete":
            j = min(len(toks), i + self.pick((1, 1, 2, 5, 20)))
            del toks[i:j]
        elif op == "t-dup":
            j = min(len(toks), i + self.pick((1, 3, 8, 30)))
            toks[i:i] = toks[i:j] * self.size((1, 2, 10, 100, 1000, 5000))
        elif op == "t-word":
            toks[i] = " " + self.pick(SQL_WORDS) + " "
        elif op == "t-type":
            words = [k for k, t in enumerate(toks) if t.lower() in ("int4", "varchar", "text", "numeric", "int8",
                                                                     "timestamp", "bpchar", "int2", "date")]
            k = self.pick(words) if words else i
            t = self.pick(TYPES).replace("{n}", self.pick(TYPE_NUMBERS))
            # a type written with its typmod: the rest of the old one stays (a mismatched typmod is a mutation too)
            toks[k] = t
        elif op == "t-nest":
            toks.insert(i, self.nested_sql(self.pick(("1", "x", "'a'", toks[i] if toks[i].strip() else "1"))))
        elif op == "t-hostile":
            toks.insert(i, self.pick(HOSTILE) if rng.random() < 0.9 else self.long_string())
        elif op == "t-truncate":
            return text[:rng.randrange(len(text) + 1)]
        elif op == "t-splice":
            other = json.loads(self.pick(self.seeds)[1])
            o = other.get("TDDL") if isinstance(other, dict) else None
            if isinstance(o, str) and o:
                a = rng.randrange(len(o))
                toks.insert(i, " " + o[a:a + self.pick((5, 20, 100, 1000))] + " ")
        elif op == "t-partition":
            m = re.search(r"\)\s*$", text)
            clause = self.partition_clause({"table_elements": [{"name": w} for w in re.findall(r"\((\w+) ", text)]})
            clause = clause.replace("RANGE (", f"RANGE (", 1)
            if "PARTITION BY" in text.upper():
                return re.sub(r"PARTITION BY .*", clause, text, count=1, flags=re.S | re.I)
            return text + " " + clause if m else text + " " + clause
        elif op == "t-quote":
            words = [k for k, t in enumerate(toks) if t[:1].isalpha()]
            k = self.pick(words) if words else i
            toks[k] = '"' + toks[k] + '"' if rng.random() < 0.7 else toks[k].upper()
        return "".join(toks)


MAX_DOC = 64 * 1024


def make(index: int, seed: int, seeds: list[tuple[str, str]], max_len: int = MAX_DOC) -> tuple[str, str, list[str]]:
    """Document ``index``: (seed name, JSON text, mutations)."""
    return Mutator(random.Random(seed * 1_000_003 + index), seeds).document(max_len)


# ---- measuring one document -------------------------------------------------------------------------


def _rss() -> int:
    with open("/proc/self/statm", "rb") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class Meter:
    """Runs one (document, target) and measures wall time, CPU time and peak memory."""

    def __init__(self, trace: bool = True) -> None:
        import tracemalloc

        self.tracemalloc = tracemalloc
        self.trace = trace
        if trace and not tracemalloc.is_tracing():
            tracemalloc.start(1)
        self.hwm_ok = _reset_peak_rss()

    def run(self, doc: str, target: str, trace: bool | None = None) -> dict[str, Any]:
        """One run; ``trace=False``: without tracemalloc (memory from the resident set only)."""
        tm = self.tracemalloc
        if trace is False and self.trace:
            tm.stop()
            try:
                self.trace = False
                return self.run(doc, target)
            finally:
                self.trace = True
                tm.start(1)
        return self._run(doc, target)

    def _run(self, doc: str, target: str) -> dict[str, Any]:
        import ddlc
        from ddlc.errors import DdlcError

        tm = self.tracemalloc
        if self.trace:
            tm.reset_peak()
            base = tm.get_traced_memory()[0]
        if self.hwm_ok:
            _reset_peak_rss()
        rss0 = _rss()
        c0, t0 = time.thread_time(), time.perf_counter()
        code, message, out = None, None, 0
        try:
            r = ddlc.translate(doc, target)
            out = len(r.sql)
        except DdlcError as e:
            code, message = e.code, e.message
        except MemoryError:
            code, message = "MemoryError", "MemoryError"
        except RecursionError as e:
            code, message = "DDLC-E900", f"escaped: RecursionError: {e}"
        except Exception as e:  # noqa: BLE001 - escaped translate: as bad as an internal error
            code, message = "DDLC-E900", f"escaped: {type(e).__name__}: {e}"
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        if code == "DDLC-E900" and "MemoryError" in (message or ""):  # the worker's address-space limit
            code = "MemoryError"
        if self.trace:  # the Python peak (the resident set would count tracemalloc's own records)
            mem = tm.get_traced_memory()[1] - base
        else:
            mem = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss0 if self.hwm_ok else 0
        if message is not None and len(message) > 300:
            message = message[:300] + "..."
        return {"code": code, "message": message, "wall": wall, "cpu": cpu, "mem": mem, "out": out}


# What a document writes is work no reader can avoid: a START/END/EVERY clause the server accepts
# expands into up to 1,048,575 partitions (on PostgreSQL one statement each). A document's budget
# grows by OUTPUT_S seconds and OUTPUT_MB megabytes per megabyte it writes; the summary counts the
# documents that needed it.
OUTPUT_S, OUTPUT_MB = 1.0, 20


def _over(m: dict[str, Any], budget_s: float, budget_b: int, wall: bool) -> list[str]:
    out_mb = m["out"] / MB
    limit_s, limit_b = budget_s + out_mb * OUTPUT_S, budget_b + out_mb * OUTPUT_MB * MB
    why = []
    if m["cpu"] > limit_s or (wall and m["wall"] > limit_s):
        why.append("time")
    if m["mem"] > limit_b or m["code"] == "MemoryError":
        why.append("memory")
    if not why and (m["cpu"] > budget_s or m["mem"] > budget_b):
        m["output_bound"] = True
    return why


# ---- workers and the watchdog -----------------------------------------------------------------------

_STATE: dict[str, Any] = {}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def _cpu_of(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _confirm_child(conn, doc: str, target: str, limit_s: float) -> None:
    gc.freeze()  # what the fork inherited is never scanned by the collector (a test session's heap is large)
    resource.setrlimit(resource.RLIMIT_CPU, (int(limit_s) + 1, int(limit_s) + 2))
    conn.send(Meter(False).run(doc, target))
    conn.close()


def confirm(ctx, doc: str, target: str, limit_s: float, wall_s: float) -> dict[str, Any] | None:
    """One untraced run of ``doc`` in a fresh process with ``limit_s`` of CPU; None when it does not finish."""
    a, b = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_confirm_child, args=(b, doc, target, limit_s), daemon=True)
    p.start()
    b.close()
    try:
        got = a.recv() if a.poll(wall_s) else None
    except (EOFError, OSError):  # killed by its CPU limit
        got = None
    if p.is_alive():
        p.kill()
    p.join()
    return got


SUSPECT_MB, SUSPECT_S, RECYCLE_MB, RERUNS = 10, 0.25, 40, 3


def _measure(meter: Meter, doc: str, t: str, cfg: dict[str, Any], started, started_cpu) -> tuple[dict, list[str], bool]:
    """(measures, why over budget, over once but not again) of one (document, target).

    The first run is untraced (fast; memory from the peak resident set). A run that grew the resident
    set by more than SUSPECT_MB, or took more than SUSPECT_S of CPU, is run again under tracemalloc
    (exact Python peak), and a run over budget once more untraced: its time is the lesser CPU time
    of the untraced runs, its memory the larger of all."""
    budget_s, budget_b = cfg["budget_s"], cfg["budget_mb"] * MB

    def one(trace: bool) -> dict[str, Any]:
        started_cpu.value, started.value = _cpu(), time.monotonic()
        try:
            return meter.run(doc, t, trace=trace)
        finally:
            started.value = 0.0

    m = one(False)
    if cfg["trace"] and (m["mem"] > SUSPECT_MB * MB or m["cpu"] > SUSPECT_S):
        traced = one(True)
        m["mem"] = max(m["mem"], traced["mem"])
    why = _over(m, budget_s, budget_b, cfg["wall"])
    if not why:
        return m, why, False
    for _ in range(RERUNS):  # the machine is shared: the least CPU time of a few runs is the document's
        again = one(False)
        again["mem"] = max(again["mem"], m["mem"])
        if again["cpu"] > m["cpu"]:
            again["cpu"], again["wall"] = m["cpu"], m["wall"]
        m = again
        why = _over(m, budget_s, budget_b, cfg["wall"])
        if not why:
            return m, why, True
    return m, why, False


def _worker(slot: int, tasks, results, cur_index, cur_target, started, started_cpu, leaving,
            cfg: dict[str, Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()  # what the fork inherited is never scanned by the collector (a test session's heap is large)
    if cfg["rlimit_mb"]:
        lim = cfg["rlimit_mb"] * MB
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    seeds = _STATE["seeds"]
    meter = Meter(cfg["trace"])
    budget_s = cfg["budget_s"]
    targets = cfg["targets"]
    baseline = _rss()
    while True:
        task = tasks.get()
        if task is None:
            return
        lo, hi, first = task  # first: the targets document lo runs on (None: every target)
        cur_index.value = lo
        stats: dict[str, Counter] = {t: Counter() for t in targets}
        spent: dict[str, float] = dict.fromkeys(targets, 0.0)
        findings: list[dict[str, Any]] = []
        for i in range(lo, hi):
            name, doc, ops = make(i, cfg["seed"], seeds, cfg["max_doc"])
            for ti, t in enumerate(targets):
                if i == lo and first is not None and ti not in first:
                    continue
                cur_index.value, cur_target.value = i, ti
                m, why, noise = _measure(meter, doc, t, cfg, started, started_cpu)
                s = stats[t]
                if noise:
                    s["noise"] += 1
                if m.get("output_bound"):
                    s["output-bound"] += 1
                if m["wall"] > budget_s:
                    s["wall-over"] += 1
                s["documents"] += 1
                spent[t] += m["wall"]
                s[m["code"] or "ok"] += 1
                e900 = m["code"] == "DDLC-E900"
                if e900:
                    s["E900"] += 1
                for w in why:
                    s[f"over-{w}"] += 1
                if why:
                    s["over"] += 1
                if m["out"] > 1_000_000 and why:
                    s["over-large-output"] += 1
                if e900 or why:
                    findings.append({"target": t, "index": i, "seed": name, "ops": ops, "code": m["code"],
                                     "message": m["message"], "wall": round(m["wall"], 4),
                                     "cpu": round(m["cpu"], 4), "mem_mb": round(m["mem"] / MB, 2),
                                     "out_bytes": m["out"], "over": why,
                                     "doc": doc if len(doc) <= cfg["keep_doc"] else None, "doc_len": len(doc)})
        results.put(("done", slot, task, {t: dict(c) for t, c in stats.items()}, spent, findings))
        if _rss() > baseline + RECYCLE_MB * MB:  # freed memory it could reuse unseen: a fresh worker instead
            leaving.value = 1
            return


def run(count: int, targets: tuple[str, ...] = TARGETS, jobs: int = 1, seed: int = 20, start: int = 0,
        budget_s: float = 1.0, budget_mb: int = 50, hard_timeout: float = 5.0, chunk: int = 500,
        trace: bool = True, rlimit_mb: int = 4096, keep_doc: int = 200_000, progress: float = 0.0,
        out: str | None = None, wall: bool = False, max_doc: int = MAX_DOC, wall_factor: float = 20.0) -> dict[str, Any]:
    """Fuzz documents ``start .. start+count`` on ``targets`` with ``jobs`` workers; the summary."""
    import multiprocessing as mp

    seeds = load_seeds()
    _STATE["seeds"] = seeds
    import ddlc  # warm every target in the parent: the workers are forked with it loaded

    for t in targets:  # every code path of the seeds is loaded (and its regexes compiled) before the fork
        for _name, text in seeds:
            try:
                ddlc.translate(text, t).sql
            except Exception:  # noqa: BLE001
                pass
    ctx = mp.get_context("fork")
    cfg = {"seed": seed, "targets": targets, "budget_s": budget_s, "budget_mb": budget_mb, "trace": trace,
           "rlimit_mb": rlimit_mb, "keep_doc": keep_doc, "wall": wall, "max_doc": max_doc}
    tasks, results = ctx.Queue(), ctx.Queue()
    pending: set[tuple[int, int, tuple[int, ...] | None]] = set()
    for lo in range(start, start + count, chunk):
        task = (lo, min(lo + chunk, start + count), None)
        pending.add(task)
        tasks.put(task)
    totals: dict[str, Counter] = {t: Counter() for t in targets}
    spent: dict[str, float] = dict.fromkeys(targets, 0.0)
    findings: list[dict[str, Any]] = []
    out_file = open(out, "w", encoding="utf-8") if out else None  # noqa: SIM115
    workers: dict[int, Any] = {}
    slots: dict[int, tuple[Any, ...]] = {}

    def spawn(slot: int) -> None:
        shared = (ctx.Value("q", -1, lock=False), ctx.Value("i", -1, lock=False), ctx.Value("d", 0.0, lock=False),
                  ctx.Value("d", 0.0, lock=False), ctx.Value("i", 0, lock=False))
        slots[slot] = shared
        p = ctx.Process(target=_worker, args=(slot, tasks, results, *shared, cfg), daemon=True)
        p.start()
        workers[slot] = p

    def record(f: dict[str, Any]) -> None:
        findings.append(f)
        if out_file is not None:
            out_file.write(json.dumps(f, ensure_ascii=False) + "\n")
            out_file.flush()

    for slot in range(max(1, jobs)):
        spawn(slot)
    t_begin = time.monotonic()
    last_progress = t_begin
    try:
        while pending:
            try:
                msg = results.get(timeout=0.2)
            except Exception:  # noqa: BLE001 - queue.Empty
                msg = None
            if msg is not None:
                _kind, slot, task, stats, sp, found = msg
                pending.discard(task)
                for t in targets:
                    totals[t].update(stats.get(t, {}))
                    spent[t] += sp.get(t, 0.0)
                for f in found:
                    record(f)
            now = time.monotonic()
            for slot, p in list(workers.items()):
                idx, tgt, st, st_cpu, _leaving = slots[slot]
                used = _cpu_of(p.pid) if st.value else None
                hung = bool(st.value) and ((used is not None and used - st_cpu.value > hard_timeout)
                                           or now - st.value > hard_timeout * wall_factor)
                dead = not p.is_alive()
                if not (hung or dead):
                    continue
                if dead and slots[slot][4].value:  # it left on its own, its task done
                    p.join()
                    spawn(slot)
                    continue
                if hung:
                    p.kill()
                p.join()
                ti = max(tgt.value, 0)
                i, t = idx.value, targets[ti]
                task = next((tk for tk in pending if tk[0] <= i < tk[1]), None)
                if task is not None and i >= 0:
                    name, doc, ops = make(i, seed, seeds, max_doc)
                    kind = "hang" if hung else f"worker died ({p.exitcode})"
                    totals[t]["documents"] += 1
                    # confirmed in a fresh process, untraced (tracing slows allocation several times); a
                    # START/END/EVERY or PARTITIONS n clause may make a million partitions: time enough to write them
                    limit = hard_timeout * (60 if re.search(r"(?i)every|partitions", doc) else 1)
                    again = confirm(ctx, doc, t, limit, limit * wall_factor)
                    why = ["hang" if hung else "crash"] if again is None else _over(again, budget_s, budget_mb * MB, wall)
                    if not why:
                        totals[t]["noise"] += 1
                        totals[t][again["code"] or "ok"] += 1
                        if again.get("output_bound"):
                            totals[t]["output-bound"] += 1
                    else:
                        totals[t]["over"] += 1
                        for w in why:
                            totals[t][f"over-{w}"] += 1
                    record({"confirmed": again, "target": t, "index": i, "seed": name, "ops": ops, "code": kind, "message": kind,
                            "wall": round(now - st.value, 2) if st.value else None,
                            "cpu": round(used - st_cpu.value, 2) if used is not None else None, "mem_mb": None,
                            "over": why, "first": kind,
                            "doc": doc if len(doc) <= keep_doc else None, "doc_len": len(doc)})
                    # the task is done again without (document i, target t): what the killed worker did is lost
                    pending.discard(task)
                    others = tuple(k for k in range(len(targets)) if k != ti and (task[2] is None or k in task[2]
                                                                                  or i != task[0]))
                    parts = [(task[0], i, task[2]), (i, i + 1, others), (i + 1, task[1], None)]
                    for part in parts:
                        if part[0] < part[1] and (part[2] is None or part[2]):
                            pending.add(part)
                            tasks.put(part)
                spawn(slot)
            if progress and now - last_progress >= progress:
                last_progress = now
                done = sum(c["documents"] for c in totals.values())
                e900 = sum(c["E900"] for c in totals.values())
                over = sum(c["over"] for c in totals.values())
                print(f"[fuzz] {done:,} runs in {now - t_begin:,.0f} s ({done / (now - t_begin):,.0f}/s): "
                      f"E900 {e900}, over budget {over}", file=sys.stderr, flush=True)
    finally:
        for _ in workers:
            tasks.put(None)
        for p in workers.values():
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
        if out_file is not None:
            out_file.close()
    elapsed = time.monotonic() - t_begin
    summary: dict[str, Any] = {"count": count, "start": start, "seed": seed, "jobs": jobs, "elapsed_s": round(elapsed, 1),
                               "budget": {"cpu_s": budget_s, "wall_s": budget_s if wall else None,
                                          "memory_mb": budget_mb, "hard_timeout_s": hard_timeout}, "seeds": len(seeds), "targets": {}}
    for t in targets:
        c = totals[t]
        refusals = {k: v for k, v in c.items() if k.startswith("DDLC-")}
        summary["targets"][t] = {
            "documents": c["documents"], "ok": c["ok"], "E900": c["E900"], "over_budget": c["over"],
            "over_time": c["over-time"], "over_memory": c["over-memory"], "hangs": c["over-hang"],
            "crashes": c["over-crash"], "over_with_output_over_1MB": c["over-large-output"],
            "over_once_not_again": c["noise"], "within_output_allowance": c["output-bound"], "wall_over_budget": c["wall-over"], "refused_by_code": dict(sorted(refusals.items())),
            "mean_ms_per_doc": round(spent[t] * 1000 / max(1, c["documents"]), 3),
        }
    summary["docs_per_s"] = round(sum(c["documents"] for c in totals.values()) / max(elapsed, 1e-9), 1)
    summary["findings"] = findings[:50]
    return summary


def replay(index: int, seed: int, targets: tuple[str, ...], show: bool, max_doc: int = MAX_DOC) -> None:
    seeds = load_seeds()
    name, doc, ops = make(index, seed, seeds, max_doc)
    print(f"document {index}: seed {name}, mutations {ops}, {len(doc):,} characters")
    if show:
        print(doc if len(doc) <= 4000 else doc[:4000] + f"... ({len(doc):,} characters)")
    meter = Meter(True)
    for t in targets:
        m = meter.run(doc, t)
        print(f"  {t}: {m['code'] or 'ok'} wall {m['wall']:.3f} s cpu {m['cpu']:.3f} s mem {m['mem'] / MB:.1f} MB"
              f" out {m['out']:,} B" + (f"\n    {m['message']}" if m["message"] else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10_000, help="documents per target")
    ap.add_argument("--start", type=int, default=0, help="index of the first document")
    ap.add_argument("--target", default="all", help="gaussdb, postgres, spark, a comma list, or all")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--budget-s", type=float, default=1.0)
    ap.add_argument("--budget-mb", type=int, default=50)
    ap.add_argument("--hard-timeout", type=float, default=5.0,
                    help="CPU seconds (or 20 times as many wall seconds) before a document is a hang")
    ap.add_argument("--max-doc", type=int, default=MAX_DOC, help="longest document drawn (characters)")
    ap.add_argument("--wall", action="store_true",
                    help="also hold wall time to the budget (only meaningful on an idle machine; CPU time always is)")
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--no-tracemalloc", action="store_true", help="memory from the resident set only (faster)")
    ap.add_argument("--rlimit-mb", type=int, default=4096, help="address-space limit of a worker (0: none)")
    ap.add_argument("--out", help="findings as JSON lines")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument("--progress", type=float, default=30.0, help="seconds between progress lines (0: none)")
    ap.add_argument("--replay", type=int, help="run document REPLAY in this process and show it")
    ap.add_argument("--show", action="store_true", help="with --replay: print the document")
    args = ap.parse_args(argv)
    targets = TARGETS if args.target == "all" else tuple(args.target.split(","))
    if any(t not in TARGETS for t in targets):
        ap.error(f"--target: one of {', '.join(TARGETS)} or all")
    if args.replay is not None:
        replay(args.replay, args.seed, targets, args.show, args.max_doc)
        return 0
    summary = run(args.count, targets, args.jobs, args.seed, args.start, args.budget_s, args.budget_mb,
                  args.hard_timeout, args.chunk, not args.no_tracemalloc, args.rlimit_mb, progress=args.progress,
                  out=args.out, wall=args.wall, max_doc=args.max_doc)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"ddlc fuzz: {args.count:,} documents x {len(targets)} target(s) from {summary['seeds']} seeds, seed "
          f"{args.seed}, {args.jobs} job(s), {summary['elapsed_s']:,} s, {summary['docs_per_s']:,} runs/s; budget "
          f"{args.budget_s} s CPU{' and wall' if args.wall else ''}, {args.budget_mb} MB, hang at {args.hard_timeout} s CPU; "
          f"documents up to {args.max_doc:,} characters")
    for t, s in summary["targets"].items():
        top = ", ".join(f"{k} {v}" for k, v in sorted(s["refused_by_code"].items(), key=lambda kv: -kv[1])[:6])
        print(f"  {t:9} documents {s['documents']:,}  ok {s['ok']:,}  E900 {s['E900']}  over budget "
              f"{s['over_budget']} (time {s['over_time']}, memory {s['over_memory']}, hangs {s['hangs']}, "
              f"crashes {s['crashes']})  within output allowance {s['within_output_allowance']}  "
              f"wall > budget {s['wall_over_budget']}  {s['mean_ms_per_doc']} ms/doc  "
              f"refused: {top}")
    bad = sum(s["E900"] + s["over_budget"] for s in summary["targets"].values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
