"""The text frontend on its own: what it reads, and what it keeps as text (never silently)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ddlc
from ddlc.frontend.text import read_tddl
from ddlc.ir.statement import Opaque
from ddlc.ir.table import CreateTable
from ddlc.quoting import quote_ident

SERVER = ("CREATE TABLE public.x (a pg_catalog.int4 , b pg_catalog.text COLLATE pg_catalog.\"default\" ) "
          "WITH (orientation = 'row', compression = 'no') NOCOMPRESS;")


def test_server_text_is_a_real_create_table_on_postgres_and_passes_through_to_gaussdb():
    assert ddlc.translate({"TDDL": SERVER}, target="postgres").sql == "CREATE TABLE public.x (a integer, b text);\n"
    assert ddlc.translate({"TDDL": SERVER}, target="gaussdb").sql == SERVER + "\n"


def test_unreadable_text_stays_text_with_its_byte_offset():
    text = "CREATE TABLE public.x (a int) TO GROUP group1;"  # GaussDB-only: no reader takes it
    stmt, diags = read_tddl(text)
    assert isinstance(stmt, Opaque) and stmt.text == text
    assert [d.code for d in diags] == ["DDLC-N404"] and "at byte 30" in diags[0].message
    assert text[30:].startswith("TO GROUP")  # where reading stopped
    with pytest.raises(ddlc.DdlcError) as info:
        ddlc.translate({"TDDL": text}, target="postgres")
    assert info.value.code == "DDLC-E010" and "at byte 30" in info.value.message


_NAMES = st.text(st.sampled_from("abcXY_ $\"1"), min_size=1, max_size=6)
_TYPES = st.sampled_from(["pg_catalog.int4", "pg_catalog.\"varchar\"(10)", "pg_catalog.\"numeric\"(10,2)",
                          "pg_catalog.text[]", "TIMESTAMP(0) without time zone", "public.\"My Type\""])


@given(st.lists(st.tuples(_NAMES, _TYPES, st.booleans()), min_size=1, max_size=4, unique_by=lambda c: c[0]))
def test_columns_read_back_as_written(cols):
    elements = " , ".join(f"{quote_ident(n)} {t}" + (" NOT NULL" if nn else "") for n, t, nn in cols)
    stmt, diags = read_tddl(f"CREATE TABLE s.t ({elements} ) WITH (orientation = 'row', compression = 'no');")
    assert isinstance(stmt, CreateTable), diags
    assert [(c.name, c.not_null) for c in stmt.columns] == [(n, nn) for n, _, nn in cols]
