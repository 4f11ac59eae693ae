"""hypothesis on a real server: any identifier and any string literal survive the trip through the
PostgreSQL output, the server and its catalog unchanged (table and column names, comments)."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc

_text = st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",))
# PostgreSQL identifiers: not empty, at most 63 bytes (longer ones are truncated by the server)
identifiers = st.text(_text, min_size=1, max_size=20).filter(lambda s: len(s.encode("utf-8")) <= 63)
literals = st.text(_text, max_size=60)
_counter = itertools.count()


def _create(schema: str, table: str, column: str) -> dict:
    return {
        "fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s",
        "persistence": "", "if_not_exists": "",
        "identity": {"objname": table, "schemaname": schema},
        "table_elements": {"fmt": "(%{elements:, }s)", "elements": [{
            "fmt": "%{name}I %{coltype}T", "name": column, "type": "column",
            "coltype": {"typmod": "", "typarray": False, "typename": "text", "schemaname": "pg_catalog"}}]},
    }


def _comment(identity: str, objtype: str, text: str) -> dict:
    # the server's shape; an empty comment arrives as an empty literal object (reference §3.6)
    literal = {"fmt": "%{value}L", "value": text, "present": True} if text else {"fmt": "", "present": True}
    return {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": objtype, "identity": identity,
            "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                        "literal": literal}}


def _quote_og(name: str) -> str:
    from ddlc.quoting import quote_ident

    return quote_ident(name)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(table=identifiers, column=identifiers, table_comment=literals, column_comment=literals)
def test_names_and_comments_round_trip_through_the_server(pg_server, table, column, table_comment, column_comment):
    schema = f"prop_{next(_counter)}"
    docs = [
        _create(schema, table, column),
        _comment(f"{_quote_og(schema)}.{_quote_og(table)}", "TABLE", table_comment),
        _comment(f"{_quote_og(schema)}.{_quote_og(table)}.{_quote_og(column)}", "COLUMN", column_comment),
    ]
    script = "".join(t.sql for t in ddlc.translate_many(docs, target="postgres"))
    import pglast

    assert len(pglast.split(script)) == 3, script  # exactly three statements (a ";\n" may sit in a comment)
    with pg_server.connect() as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(script)
        rows = conn.execute(
            """SELECT c.relname, a.attname, obj_description(c.oid, 'pg_class'), col_description(c.oid, a.attnum)
                 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
                WHERE n.nspname = %s""", (schema,)).fetchall()
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    # PostgreSQL stores no comment for '' (COMMENT ... IS '' removes it), as GaussDB does
    assert rows == [(table, column, table_comment or None, column_comment or None)]
