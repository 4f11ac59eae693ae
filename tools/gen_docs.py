"""Generate docs/diagnostics.md (from the CODES registry), docs/functions.md (the PostgreSQL backend's
table of GaussDB function rewrites and the Spark backend's function forms), docs/support.md and the README
support matrix (row names: STATEMENT_NAMES).

    .venv/bin/python -m tools.gen_docs          # rewrite
    .venv/bin/python -m tools.gen_docs --check  # exit 1 when out of date (used by the tests)
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- support-matrix:begin -->", "<!-- support-matrix:end -->"


def load_all() -> None:
    import ddlc

    for mod in pkgutil.walk_packages(ddlc.__path__, "ddlc."):
        if mod.name.startswith("ddlc.pipeline") or mod.name.endswith("__main__"):
            continue  # pyspark is optional
        importlib.import_module(mod.name)


def diagnostics_md() -> str:
    from ddlc.diagnostics import CODES

    fam = {"E": "Input errors (the document fails; the others go on)",
           "W": "Target cannot express it, or a source defect that is not replayed (documented loss)",
           "N": "Not done yet by ddlc (ours to fix)",
           "I": "Information"}
    out = ["# Diagnostic codes", "",
           "Generated from `ddlc.diagnostics.CODES` by `python -m tools.gen_docs`; do not edit by hand.", "",
           "Every diagnostic carries its code, severity, the JSON path of the clause in the input "
           "document, the target and the pass that raised it (`ddlc translate --format json`, "
           "`ddlc explain`). Codes are never reused.", ""]
    for letter, title in fam.items():
        codes = sorted((c for c in CODES.values() if c.code.split("-")[1][0] == letter), key=lambda c: c.code)
        if not codes:
            continue
        out += [f"## {title}", ""]
        for c in codes:
            out += [f"### {c.code} — {c.title}", "", f"Severity: {c.severity.value}.", "", c.explanation, ""]
            if c.example:
                out += ["Example:", "", "```", c.example, "```", ""]
    return "\n".join(out).rstrip() + "\n"


def functions_md() -> str:
    from ddlc.backends.postgres.functions import gauss_functions, pg_functions, pg_takes
    from ddlc.backends.postgres.rewrites import REWRITES
    from ddlc.backends.spark.functions import FORMS, NO_FORM, spark_functions

    def cell(s: str) -> str:
        return s.replace("|", "\\|")

    out = ["# GaussDB functions on PostgreSQL and Spark", "",
           "Generated from `ddlc.backends.postgres.rewrites.REWRITES` and `ddlc.backends.spark.functions.FORMS` by "
           "`python -m tools.gen_docs`; do not edit by hand.", "",
           "## PostgreSQL", "",
           "`--to postgres` judges every function call inside defaults, CHECK constraints, generation "
           "expressions, index keys and predicates, view and CREATE TABLE AS queries, trigger conditions, "
           "routine argument defaults and partition keys and bounds (the parsed form, never the text):", "",
           f"* a built-in of PostgreSQL 15 ({len(pg_functions())} `pg_catalog` names, `ddlc/data/pg_functions.txt`, "
           "generated from a real server by `tools/gen_pg_functions.py`) with a matching argument count is "
           "written as it is;",
           "* a GaussDB function of the table below is rewritten (`DDLC-I602` exact, `DDLC-I603` close, the "
           "difference in the message); every row is executed on a real server by `tests/test_pg_functions.py`;",
           f"* any other GaussDB built-in ({len(gauss_functions())} names PostgreSQL lacks for some argument count, "
           "`ddlc/data/gauss_functions.txt`, generated from openGauss's catalog source and GaussDB's documentation "
           "by `tools/gen_gauss_functions.py`), a `pg_catalog.` call PostgreSQL does not have, or a call into a "
           "GaussDB built-in schema (`dbe_*`, `dbms_*`, `pkg_service`...) is never emitted: in a column DEFAULT "
           "the default is dropped (`DDLC-W603`), anywhere else the statement is not translated (`DDLC-W604`; "
           "the document fails unless `--on-unsupported comment` or `skip`);",
           "* any other call (another schema, or a name that is no GaussDB built-in) is a user's function, "
           "assumed created by the same stream or on the target, and written as it is.", "",
           "Argument types are not known: a built-in name with the right argument count passes even when "
           "PostgreSQL has no overload for the argument types. The rewrites that depend on a type "
           "(`trunc`) apply when the call shows it.", "",
           "## Spark", "",
           "`--to spark` trusts no function name: GaussDB's `log(x)` is base 10 where Spark's is natural, `concat` "
           "skips NULLs where Spark's returns NULL, `trunc(d)` truncates a date... A call is written only when "
           "the Spark column below has a form for it (its name, argument count and, where the meaning depends "
           "on it, the shape of its arguments), and every form is exact: the same value and type for every "
           "input where both are defined, under the condition its note states. Any other call has no Spark "
           "form: its clause (a default, a CHECK constraint, a generated column, a view) is left out with "
           "`DDLC-W810`, whose message names the function and, for the names below, why; `--on-unsupported "
           "comment` keeps the clause as a comment. A rewritten call is reported with `DDLC-I810`. Every form is "
           "evaluated on a real Spark 4 session by `tests/test_spark_functions.py`, and its value compared with "
           "PostgreSQL's for the same GaussDB expression; it writes only Spark built-ins "
           f"({len(spark_functions())} names, `ddlc/data/spark_functions.txt`, generated from a live session by "
           "`tools/gen_spark_functions.py`). A form that reads the clock (marked *clock*) or a random value is "
           "never a generated column's, and a random value never a default's or a CHECK's (Spark refuses them). "
           "The SQL keywords are no calls: `CURRENT_DATE`, `CURRENT_TIMESTAMP` and `LOCALTIMESTAMP` are Spark's "
           "own, and with a precision p below 6 (`CURRENT_TIMESTAMP(0)`) the statement's time is rounded to p "
           "digits as GaussDB rounds it; a quoted `\"sysdate\"` is a column.", "",
           "## The table", "",
           "PostgreSQL: the rewrite (`exact`: yes or close), *built-in* when PostgreSQL's own function of the "
           "name is GaussDB's, — when there is none. Spark: the exact form, — when there is none.", "",
           "| GaussDB | PostgreSQL | exact | Spark | note |", "|---|---|---|---|---|"]
    rows: dict[str, dict[str, object]] = {}
    for name in REWRITES:
        for rw in REWRITES[name]:
            rows.setdefault(rw.gauss, {"name": name})["pg"] = rw
    for name in FORMS:
        for f in FORMS[name]:
            rows.setdefault(f.gauss, {"name": name})["spark"] = f
    for gauss in sorted(rows, key=lambda g: (g.lower(), g)):
        row = rows[gauss]
        pg, sp = row.get("pg"), row.get("spark")
        name = str(row["name"])
        if pg is not None:
            pg_cell, exact = f"`{cell(pg.postgres)}`", "yes" if pg.exact else "close"
        elif sp is not None and pg_takes(name, sp.arities if isinstance(sp.arities, int) else sp.arities[0]):
            pg_cell, exact = "*built-in*", "yes"
        else:
            pg_cell, exact = "—", ""
        if sp is not None:
            spark_cell = f"`{cell(sp.spark)}`" + (" *clock*" if sp.volatile and name != "random" else "")
        else:
            spark_cell = "—"
        notes = []
        if pg is not None and pg.note:
            notes.append(("PostgreSQL: " if sp is not None else "") + pg.note)
        if sp is not None and sp.note and (pg is None or sp.note != pg.note):
            notes.append(("Spark: " if pg is not None else "") + sp.note)
        elif sp is None and name in NO_FORM:
            notes.append("Spark: " + NO_FORM[name])
        out.append(f"| `{cell(gauss)}` | {pg_cell} | {exact} | {spark_cell} | {cell('; '.join(notes))} |")
    listed = {str(r["name"]) for r in rows.values()}
    out += ["", "Names with no exact Spark form and the reason (`DDLC-W810`); their PostgreSQL form, if any, is "
            "the built-in of the name or the table's:", "",
            "| GaussDB | why not on Spark |", "|---|---|"]
    for name in sorted(n for n in NO_FORM if n not in listed):
        out.append(f"| `{name}()` | {cell(NO_FORM[name])} |")
    return "\n".join(out) + "\n"


# The support matrix's rows, named as a user looks for them (the statement as written), one per IR statement
# class (ddlc/ir/), in the matrix's order. A class missing here fails the generation, so a new statement
# family cannot reach the README under its internal name.
STATEMENT_NAMES: dict[str, str] = {
    "CreateTable": "CREATE TABLE",
    "CreateTableAs": "CREATE TABLE AS, SELECT INTO",
    "AlterRelation": "ALTER TABLE (also ALTER INDEX / VIEW / SEQUENCE / TYPE)",
    "AlterTableFollowup": "ALTER TABLE follow-up of ADD COLUMN (SET DEFAULT, SET NOT NULL, AUTO_INCREMENT)",
    "BackfillUpdate": "UPDATE back-fill of ADD COLUMN with a non-constant DEFAULT",
    "AutoIncrementBackfill": "PL/pgSQL back-fill of ADD COLUMN ... AUTO_INCREMENT",
    "RenameRelation": "ALTER TABLE / INDEX / SEQUENCE / VIEW ... RENAME TO",
    "RenameColumn": "ALTER TABLE ... RENAME COLUMN",
    "RenameConstraint": "ALTER TABLE ... RENAME CONSTRAINT",
    "RenameTables": "RENAME TABLE a TO b (B-compatible)",
    "SetSchema": "ALTER ... SET SCHEMA",
    "Truncate": "TRUNCATE",
    "CreateIndex": "CREATE INDEX",
    "Reindex": "REINDEX, ALTER INDEX ... REBUILD",
    "CreateView": "CREATE VIEW",
    "CreateMatView": "CREATE MATERIALIZED VIEW",
    "AlterMatView": "ALTER MATERIALIZED VIEW",
    "RefreshMatView": "REFRESH MATERIALIZED VIEW",
    "DropMatView": "DROP MATERIALIZED VIEW",
    "CreateSequence": "CREATE SEQUENCE",
    "AlterSequence": "ALTER SEQUENCE",
    "CreateSchema": "CREATE SCHEMA",
    "RenameSchema": "ALTER SCHEMA ... RENAME TO",
    "AlterSchemaBlockchain": "ALTER SCHEMA ... WITH / WITHOUT BLOCKCHAIN",
    "AlterSchemaCharset": "ALTER SCHEMA ... CHARACTER SET / COLLATE (B-compatible)",
    "CreateEnumType": "CREATE TYPE ... AS ENUM",
    "CreateCompositeType": "CREATE TYPE ... AS (composite)",
    "RenameType": "ALTER TYPE ... RENAME TO",
    "RenameAttribute": "ALTER TYPE ... RENAME ATTRIBUTE",
    "CreateFunction": "CREATE FUNCTION / PROCEDURE",
    "AlterFunction": "ALTER FUNCTION / PROCEDURE",
    "DropRoutine": "DROP FUNCTION / PROCEDURE (GaussDB text, TDDL)",
    "CreateTrigger": "CREATE TRIGGER",
    "Package": "CREATE / ALTER / DROP PACKAGE",
    "Comment": "COMMENT ON",
    "Drop": "DROP TABLE / INDEX / VIEW / SEQUENCE / SCHEMA / TYPE / TRIGGER (a JDDL tree: also FUNCTION)",
    "CreateDatabase": "CREATE DATABASE",
    "AlterDatabase": "ALTER DATABASE",
    "DropDatabase": "DROP DATABASE",
    "Grant": "GRANT / REVOKE privileges",
    "GrantRole": "GRANT / REVOKE role membership",
    "CreateEvent": "CREATE EVENT (B-compatible scheduled job)",
    "AlterEvent": "ALTER EVENT",
    "DropEvent": "DROP EVENT",
    "NewPub": "NEWPUB (a cascading-replication notice, not DDL)",
    "Opaque": "a statement ddlc cannot read (kept as GaussDB text)",
}


def statement_rows() -> list[tuple[type, str]]:
    """Every IR statement class with its row name, in STATEMENT_NAMES order; a class without a name (or a
    name without a class) is an error."""
    from ddlc.support import _all_statements

    classes = {c.__name__: c for c in _all_statements()}
    missing = sorted(set(classes) - set(STATEMENT_NAMES))
    gone = sorted(set(STATEMENT_NAMES) - set(classes))
    if missing or gone:
        raise SystemExit(f"tools/gen_docs.py STATEMENT_NAMES: no row name for {missing or 'none'}; "
                         f"names of no statement class: {gone or 'none'}")
    return [(classes[n], name) for n, name in STATEMENT_NAMES.items()]


LEGEND = ("Legend: ✅ translated; ⚠️ translated with documented losses (W diagnostics; some forms may be refused "
          "whole: {where}); 📝 kept as text with a diagnostic; ❌ refused: the target has no such object (the "
          "document fails unless `--on-unsupported comment` or `skip`); 🚧 not implemented yet.")


def support_matrix(where: str = "[docs/support.md](docs/support.md)") -> str:
    """The README's matrix: one row per statement, one column per target, and the legend."""
    from ddlc.support import cell, targets

    ts = targets()
    head = "| statement | " + " | ".join(ts) + " |"
    sep = "|---|" + "---|" * len(ts)
    body = [f"| {name} | " + " | ".join(cell(t, c) for t in ts) + " |" for c, name in statement_rows()]
    return "\n".join([head, sep, *body, "", LEGEND.format(where=where)])


def support_md() -> str:
    """docs/support.md: the matrix, then the forms each target refuses whole, with their codes."""
    from ddlc.support import label, refused_forms, targets

    ts = targets()
    rows = statement_rows()
    named = {f"`{label(c)}`": name for c, name in rows}
    refused = {t: {named[lab]: codes for lab, codes in refused_forms(t)} for t in ts}
    listed = [name for _, name in rows if any(name in refused[t] for t in ts)]
    out = ["# Supported statements per target", "",
           "Generated from the backends' own tables by `python -m tools.gen_docs` (do not edit by hand; a test "
           "fails when it is stale). Row names are `STATEMENT_NAMES` in `tools/gen_docs.py`, one per IR statement "
           "class of `ddlc/ir/`.", "", support_matrix("[below](#forms-refused-whole)"), "",
           "## Forms refused whole", "",
           "A ⚠️ statement is translated with documented losses, but some of its forms have no form on the target: "
           "such a statement is not translated, with the warning below, and fails its document like ❌ (unless "
           "`--on-unsupported comment` or `skip`). What each code means: [diagnostics.md](diagnostics.md).", "",
           "| statement | " + " | ".join(ts) + " |", "|---|" + "---|" * len(ts)]
    for name in listed:
        out.append(f"| {name} | " + " | ".join(", ".join(refused[t].get(name, ())) or "—" for t in ts) + " |")
    return "\n".join(out) + "\n"


def main() -> int:
    check = "--check" in sys.argv
    load_all()
    stale = []
    diag_path = ROOT / "docs" / "diagnostics.md"
    text = diagnostics_md()
    if not diag_path.exists() or diag_path.read_text("utf-8") != text:
        stale.append(diag_path)
        if not check:
            diag_path.write_text(text, "utf-8")
    fn_path = ROOT / "docs" / "functions.md"
    text = functions_md()
    if not fn_path.exists() or fn_path.read_text("utf-8") != text:
        stale.append(fn_path)
        if not check:
            fn_path.write_text(text, "utf-8")
    support_path = ROOT / "docs" / "support.md"
    text = support_md()
    if not support_path.exists() or support_path.read_text("utf-8") != text:
        stale.append(support_path)
        if not check:
            support_path.write_text(text, "utf-8")
    readme = ROOT / "README.md"
    if readme.exists():
        body = readme.read_text("utf-8")
        if BEGIN in body and END in body:
            pre, rest = body.split(BEGIN, 1)
            _, post = rest.split(END, 1)
            new = pre + BEGIN + "\n" + support_matrix() + "\n" + END + post
            if new != body:
                stale.append(readme)
                if not check:
                    readme.write_text(new, "utf-8")
    if check and stale:
        print("out of date (run `python -m tools.gen_docs`):", ", ".join(str(p) for p in stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
