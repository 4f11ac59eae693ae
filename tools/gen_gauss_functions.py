"""Regenerate ``ddlc/data/gauss_functions.txt``: GaussDB/openGauss built-in functions PostgreSQL 15 lacks.

    .venv/bin/python -m tools.gen_gauss_functions OPENGAUSS_SERVER_CHECKOUT [--commit SHA]

Read from openGauss's own catalog source, ``src/common/backend/catalog/builtin_funcs.ini`` (every
built-in function of the server: name, argument count, defaults, VARIADIC, schema), plus the
functions listed in :data:`DOCUMENTED` below: GaussDB's documented Oracle (A) and MySQL (B)
compatibility functions that openGauss's ini does not define (its grammar builds ``NVL`` and
``DECODE`` itself; GaussDB adds ``sys_guid``, ``months_between``...). A name is kept when some
argument count it takes in GaussDB is one no ``pg_catalog`` function of that name takes in
PostgreSQL 15 (``ddlc/data/pg_functions.txt``, regenerate that first), with every arity GaussDB
gives it. Functions of openGauss's other built-in schemas (``dbe_perf``, ``pkg_service``...) are
recognised by their schema instead (see ``ddlc.backends.postgres.functions``).

ddlc reads the file to tell a GaussDB built-in (not translatable unless its rewrite is known) from a
user's function (assumed created by the same stream or on the target): an unqualified call whose
name and argument count are in this file and not in PostgreSQL's is a GaussDB built-in, since
GaussDB resolves ``pg_catalog`` first. Same format as ``pg_functions.txt``.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tools.gen_pg_functions import ROOT, Range, merge, spec

TARGET = ROOT / "ddlc" / "data" / "gauss_functions.txt"
PG = ROOT / "ddlc" / "data" / "pg_functions.txt"
INI = "src/common/backend/catalog/builtin_funcs.ini"

# name -> (arities, kinds, where it is documented)
DOCUMENTED: dict[str, tuple[list[Range], str, str]] = {
    "nvl": ([(2, 2)], "f", "openGauss gram.y: NVL(a, b) -> CoalesceExpr (printed back as nvl)"),
    "decode": ([(3, None)], "f", "openGauss gram.y: DECODE(x, s1, r1, ...) -> CASE (2 arguments: binary decode)"),
    "nvl2": ([(3, 3)], "f", "GaussDB SQL reference, conditional expression functions"),
    "sys_guid": ([(0, 0)], "f", "GaussDB SQL reference, universal identifier functions (returns raw)"),
    "uuid": ([(0, 0)], "f", "GaussDB SQL reference, universal identifier functions (varchar, RFC 4122)"),
    "uuid_short": ([(0, 0)], "f", "GaussDB SQL reference, universal identifier functions"),
    "systimestamp": ([(0, 1)], "f", "GaussDB SQL reference, date and time functions (A compatibility)"),
    "months_between": ([(2, 2)], "f", "GaussDB SQL reference, date and time functions (A compatibility)"),
    "sys_extract_utc": ([(1, 1)], "f", "GaussDB SQL reference, date and time functions (A compatibility)"),
    "numtoyminterval": ([(2, 2)], "f", "GaussDB SQL reference, date and time functions (A compatibility)"),
    "dbtimezone": ([(0, 0)], "f", "GaussDB SQL reference, date and time functions (A compatibility)"),
    "sessiontimezone": ([(0, 0)], "f", "GaussDB SQL reference, date and time functions (A compatibility)"),
    "instrb": ([(2, 4)], "f", "GaussDB SQL reference, character processing functions (A compatibility)"),
    "to_nchar": ([(1, 3)], "f", "GaussDB SQL reference, type conversion functions (A compatibility)"),
    "to_number": ([(1, 2)], "f", "GaussDB SQL reference, type conversion functions: to_number(expr [, fmt])"),
    "to_clob": ([(1, 1)], "f", "GaussDB SQL reference, type conversion functions (A compatibility)"),
    "empty_clob": ([(0, 0)], "f", "GaussDB SQL reference, LOB functions"),
    "lnnvl": ([(1, 1)], "f", "GaussDB SQL reference, conditional expression functions"),
    "nanvl": ([(2, 2)], "f", "GaussDB SQL reference, mathematical functions"),
    "wm_concat": ([(1, 1)], "a", "GaussDB SQL reference, aggregate functions"),
    "ifnull": ([(2, 2)], "f", "GaussDB SQL reference, MySQL (B) compatibility"),
    "if": ([(3, 3)], "f", "GaussDB SQL reference, MySQL (B) compatibility"),
    "curdate": ([(0, 0)], "f", "GaussDB SQL reference, MySQL (B) compatibility"),
    "date_format": ([(2, 2)], "f", "GaussDB SQL reference, MySQL (B) compatibility"),
    "unix_timestamp": ([(0, 1)], "f", "GaussDB SQL reference, MySQL (B) compatibility"),
    "from_unixtime": ([(1, 2)], "f", "GaussDB SQL reference, MySQL (B) compatibility"),
}

_FUNC = re.compile(
    r'AddBuiltinFunc\(_0\([^)]*\), _1\("(?P<name>[^"]+)"\), _2\((?P<nargs>\d+)\).*?_7\((?P<ns>\w+)\)'
    r".*?_12\((?P<variadic>[^)]*)\).*?_14\((?P<agg>\w+)\), _15\((?P<win>\w+)\).*?_19\((?P<ndef>\d+)\)")


def read_ini(text: str) -> dict[str, tuple[list[Range], str]]:
    ranges: dict[str, list[Range]] = {}
    kinds: dict[str, set[str]] = {}
    for m in _FUNC.finditer(text):
        if m["ns"] != "PG_CATALOG_NAMESPACE":
            continue
        n, d = int(m["nargs"]), int(m["ndef"])
        variadic = m["variadic"].strip() not in ("0", "InvalidOid")
        ranges.setdefault(m["name"], []).append((n - d, None if variadic else n))
        kinds.setdefault(m["name"], set()).add("w" if m["win"] == "true" else "a" if m["agg"] == "true" else "f")
    return {n: (merge(r), "".join(k for k in "faw" if k in kinds[n])) for n, r in ranges.items()}


def read_pg() -> dict[str, list[Range]]:
    out: dict[str, list[Range]] = {}
    for line in PG.read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            name, arities, _ = line.split("\t")
            out[name] = parse_spec(arities)
    return out


def parse_spec(text: str) -> list[Range]:
    out: list[Range] = []
    for part in text.split(","):
        if part.endswith("+"):
            out.append((int(part[:-1]), None))
        elif "-" in part:
            lo, hi = part.split("-")
            out.append((int(lo), int(hi)))
        else:
            out.append((int(part), int(part)))
    return out


def uncovered(gauss: list[Range], pg: list[Range]) -> bool:
    """Whether some argument count in ``gauss`` is in no range of ``pg``."""
    def inside(n: int) -> bool:
        return any(lo <= n and (hi is None or n <= hi) for lo, hi in pg)

    for lo, hi in gauss:
        top = hi if hi is not None else max([lo] + [h for _, h in pg if h is not None]) + 1
        if any(not inside(n) for n in range(lo, top + 1)):
            return True
    return False


def render(gauss: dict[str, tuple[list[Range], str]], pg: dict[str, list[Range]], commit: str) -> str:
    keep = {n: v for n, v in gauss.items() if n not in pg or uncovered(v[0], pg[n])}
    head = [
        "# GaussDB/openGauss built-in functions (pg_catalog) that PostgreSQL 15 lacks, for some argument count.",
        f"# Generated by `python -m tools.gen_gauss_functions` from openGauss-server {INI} ({commit})",
        "# and the GaussDB-documented functions listed in the script; do not edit by hand.",
        "# name<TAB>argument counts in GaussDB (n, a-b, a+)<TAB>kinds (f function, a aggregate, w window)",
    ]
    return "\n".join(head + [f"{n}\t{spec(r)}\t{k}" for n, (r, k) in sorted(keep.items())]) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=Path, help="an openGauss-server checkout (or the builtin_funcs.ini file)")
    ap.add_argument("--commit", default="commit not recorded", help="the checkout's commit, for the header")
    args = ap.parse_args(argv)
    ini = args.checkout if args.checkout.is_file() else args.checkout / INI
    gauss = read_ini(ini.read_text("utf-8"))
    for name, (arities, kinds, _) in DOCUMENTED.items():
        old = gauss.get(name, ([], ""))
        gauss[name] = (merge(old[0] + arities), "".join(k for k in "faw" if k in old[1] + kinds))
    TARGET.write_text(render(gauss, read_pg(), args.commit), "utf-8")
    print(f"{TARGET}: written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
