"""The deparser's fixed ``fmt`` strings that more than one side of ddlc needs: the tree readers
(``frontend/build``, ``frontend/text``) match them and the GaussDB target writes them."""

from __future__ import annotations

__all__ = ["BACKFILL_BLOCK", "BACKFILL_UPDATE"]

# ``ADAPT_SUBSCTIPTION_AUTOINCREMENT_FMT`` of ddldeparse.cpp: the AUTO_INCREMENT back-fill block (reference §5.3)
BACKFILL_BLOCK = (
    "DECLARE\n"
    "null_cnt pg_catalog.%{typname}s;\n"
    "start_num pg_catalog.%{typname}s;\n"
    "sql pg_catalog.text;\n"
    "BEGIN\n"
    "SELECT COUNT(*) FROM %{identity}D WHERE %{colname}I IS NULL INTO null_cnt;\n"
    "SELECT pg_catalog.min(%{colname}I) - 1 - null_cnt FROM %{identity}D INTO start_num;\n"
    "sql := 'CREATE LARGE SEQUENCE %{seqname}D START WITH ' || start_num || ' MINVALUE ' || start_num;\n"
    "EXECUTE sql;\n"
    "UPDATE %{identity}D SET %{colname}I = pg_catalog.nextval('%{seqname}D') WHERE %{colname}I IS NULL;\n"
    "DROP LARGE SEQUENCE %{seqname}D;\n"
    "END;\n"
)
# the follow-up UPDATE that fills a new column's DEFAULT into existing rows
BACKFILL_UPDATE = "UPDATE %{identity}D SET %{name}I = %{default}s WHERE %{name}I IS NULL"
