"""Review round 5b (fast paths after 18:10 UTC): the one wrong output found.

The fast paths under review (partition tokens, identities, key lists, CHECK parentheses, partition key
columns, the index pattern, the TDDL JSON recoveries, CONSTRAINT_START) gave the same statements and
diagnostics as eb299a5 on every mutated input tried. Two older bugs (eb299a5 has them too) were found: a TDDL
CREATE TABLE AS's string option quoted twice on PostgreSQL (fixed: the test below passes), and a CREATE
DATABASE text whose IF NOT EXISTS is glued to a Unicode blank read as database "if" (fixed: refused).
"""

from __future__ import annotations

import pytest

import ddlc
from ddlc.errors import DdlcError


@pytest.mark.parametrize("text", ["CREATE DATABASE IF NOT EXISTS\xa0db_m;", "CREATE DATABASE IF NOT db_m;",
                                  "DROP DATABASE IF EXISTS\xa0db_m;"])
def test_create_database_if_not_exists_is_not_named_if(text: str) -> None:
    try:
        got = ddlc.translate({"TDDL": text}, target="postgres")
    except DdlcError:
        return  # refusing the text is right
    assert "SCHEMA if" not in got.sql, got.sql


@pytest.mark.parametrize(("text", "want"), [("CREATE DATABASE if;", "CREATE SCHEMA if;\n"),
                                            ("CREATE DATABASE if WITH OWNER x;", "CREATE SCHEMA if;\n"),
                                            ("DROP DATABASE if;", "DROP SCHEMA if CASCADE;\n")])
def test_a_database_called_if_is_still_read(text: str, want: str) -> None:
    assert ddlc.translate({"TDDL": text}, target="postgres").sql == want


@pytest.mark.parametrize("value", ["true", "'false'", "'70'"])
def test_ctas_string_option_quoted_once_on_postgres(value: str) -> None:
    option = "fillfactor" if value == "'70'" else "autovacuum_enabled"
    got = ddlc.translate({"TDDL": f"CREATE TABLE public.t WITH ({option} = {value}) AS SELECT 1 AS a;"},
                         target="postgres")
    assert "'''" not in got.sql, got.sql
    import pglast

    (stmt,) = pglast.parse_sql(got.sql)
    (opt,) = stmt.stmt.into.options
    got_value = opt.arg.sval if hasattr(opt.arg, "sval") else str(opt.arg.ival)
    assert got_value == value.strip("'")  # the value the source gave, once (a number written bare)
