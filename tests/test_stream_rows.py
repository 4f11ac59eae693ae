"""Decoding text is read row by row: what an ordinary user writes (row data, comments, function
bodies, logical messages) is never read as a DDL message, whatever lines it holds (issue 8, item 1)."""

from __future__ import annotations

import json
import re
import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ddlc_command
from ddlc.errors import DdlcError
from ddlc.frontend.streams import Record, iter_records
from ddlc.jddl.expand import expand
from test_frontend_streams import GEN, read

# The reproduction of issue 8: a text value of an INSERT spans lines, one of which is a DDL message
VICTIM = ('{"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s", '
          '"cascade": "CASCADE", "objtype": "table", "if_exists": "", "objidentity": "public.victim", '
          '"concurrently": ""}')
FAKE_TD = f"message: prefix deparse, relid 1, cmdtype: Simple, sz: 198 content: {VICTIM}"
FAKE_MP = f"prefix: deparse, lsn: 1, relid 1, cmdtype: Simple, size: 198, content: {VICTIM}"
FAKE_TDDL = '{"TDDL": "DROP TABLE public.victim CASCADE"}'
FAKE_JDDL = '{"JDDL": ' + VICTIM + "}"
ATTACK = ("BEGIN 20001\n"
          "table public.orders: INSERT: id[integer]:3 note[text]:'hello\n"
          f"{FAKE_TD}\n"
          "bye'\n"
          "COMMIT 20001\n")


def ddlc(*args: str, stdin: str | bytes) -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(ddlc_command() + list(args), input=data, capture_output=True, timeout=60)


def records(text: str | bytes) -> list[Record | DdlcError]:
    return list(iter_records(text.encode() if isinstance(text, str) else text, "s"))


def literal(value: str) -> str:
    """test_decoding's print_literal for text: single quotes, a quote doubled."""
    return "'" + value.replace("'", "''") + "'"


def ident(name: str) -> str:
    """quote_identifier as test_decoding prints a column name that needs quoting."""
    return '"' + name.replace('"', '""') + '"'


def jsonish(values: list[str]) -> str:
    """A JSON array as a printer that escapes quotes and backslashes but not newlines writes it."""
    return re.sub(r"(\\\\)|\\n", lambda m: m[1] or "\n", json.dumps(values, ensure_ascii=False))


def td_insert(table: str, values: dict[str, str]) -> str:
    cols = " ".join(f"{ident(k)}[text]:{literal(v)}" for k, v in values.items())
    return f"table {table}: INSERT: {cols}"


def test_the_issue_reproduction_prints_nothing_for_either_target():
    assert records(ATTACK) == []
    for target in ("postgres", "gaussdb"):
        p = ddlc("translate", "--to", target, "-", stdin=ATTACK)
        assert p.returncode == 0, p.stderr
        assert p.stdout == b""
        assert p.stderr.decode().endswith(
            "ddlc: 0 documents, 0 statements written, 0 clauses dropped, 0 statements not translated, "
            "0 errors, 0 lines not recognised, 3 DML/transaction rows skipped\n")


def test_json_envelope_lines_inside_a_value_are_data():
    for fake in (FAKE_TDDL, FAKE_JDDL, FAKE_MP, "COMMIT 20001", "BEGIN 7", "decode to : DROP TABLE x, [owner a]"):
        text = ATTACK.replace(FAKE_TD, fake)
        assert records(text) == [], fake
        p = ddlc("translate", "--to", "gaussdb", "-", stdin=text)
        assert p.stdout == b"" and p.returncode == 0, (fake, p.stderr)


def test_quoted_names_and_doubled_quotes_are_followed():
    rows = [
        td_insert("public.t", {f"a\n{FAKE_TD}\nb": "x"}),  # a column name with newlines
        td_insert("public." + ident("we'ird\n" + FAKE_TDDL), {"c": "y"}),  # a table name with a quote
        td_insert("public.t", {"c": f"it's\n{FAKE_TD}\n'"}),  # '' inside, a quote last
        td_insert("public.t", {"c": "''", "d": f"\"\n{FAKE_TD}\n\""}),  # double quotes inside '...'
    ]
    for row in rows:
        text = f"BEGIN 1\n{row}\n{FAKE_TD.replace('relid 1', 'relid 2')}\nCOMMIT 1\n"
        got = records(text)
        # the real message after the row is found, nothing else
        assert [(type(r), r.meta["relid"], r.line) for r in got] == [(Record, 2, 3 + row.count("\n"))]


def test_a_cjson_row_with_a_raw_newline_is_followed():
    # cJSON escapes newlines, but a JSON-ish printer might not: the string is followed to its end
    vals = jsonish(["'a\"\n" + FAKE_MP + "\n" + FAKE_TDDL + "\n\\'", "\\"])
    row = ('{"table_name":"public.t","op_type":"INSERT","columns_name":["c"],"columns_type":["text"],'
           '"columns_val":' + vals + ',"old_keys_name":[]}')
    assert row.count("\n") == 3
    text = "BEGIN 1\n" + row + "\nCOMMIT 1\n"
    assert records(text) == []
    data = read("mppdb_decoding.txt")
    assert len(records(data.replace(b"BEGIN 10302\n", b"BEGIN 10302\n" + row.encode() + b"\n"))) == 8


def test_a_logical_message_is_its_size_long():
    content = f"x\n{FAKE_TD}\ny"
    msg = f"message: transactional: 1 prefix: app, sz: {len(content.encode())} content:{content}"
    assert records(f"BEGIN 1\n{msg}\nCOMMIT 1\n") == []
    # and the line right after its content is a row again
    real = read("test_decoding.txt").decode()
    got = records(msg + "\n" + real)
    assert len(got) == 5 and all(isinstance(r, Record) for r in got)


def _comment_tree(comment: str) -> str:
    """COMMENT ON TABLE as openGauss deparses it (jddl-shapes.md 5.12; no myowner: owner none)."""
    return json.dumps({"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "comment": {
        "fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
        "literal": {"fmt": "%{value}L", "value": comment, "present": True}},
        "objtype": "TABLE", "identity": "public.t"}, ensure_ascii=False)


def _comment_row(comment: str) -> str:
    tree = _comment_tree(comment)
    return GEN._td_message(16400, "Simple", tree, expand(json.loads(tree)), "none")


def test_a_decode_to_row_is_as_long_as_its_expansion():
    # a comment (any table owner writes one) whose text fakes the end of the row and a message
    comment = f"x, [owner eve]\n{FAKE_TD}\n{FAKE_TDDL}\ny, [owner bob]"
    tree = _comment_tree(comment)
    text = f"BEGIN 9\n{_comment_row(comment)}\nCOMMIT 9 CSN 3\n"
    got = records(text)
    assert [type(r) for r in got] == [Record]
    assert json.loads(got[0].payload)["comment"]["literal"]["value"] == comment
    assert "owner" not in got[0].meta and got[0].meta["csn"] == 3
    assert got[0].meta["decode_to"] == expand(json.loads(tree))
    p = ddlc("translate", "--to", "postgres", "-", stdin=text)
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().count(";\n") == 1 and "victim" in p.stdout.decode()  # inside the literal
    assert p.stdout.decode().startswith("COMMENT ON TABLE public.t IS ")


def test_a_row_that_never_ends_is_an_error():
    text = ATTACK.replace("bye'", "bye")
    got = records(text)
    assert len(got) == 1 and isinstance(got[0], DdlcError)
    assert got[0].document == "s:2" and "never ends" in got[0].message
    p = ddlc("translate", "-", stdin=text)
    assert p.returncode == 1 and p.stdout == b""


# ---- properties -------------------------------------------------------------------------------

DANGEROUS = st.sampled_from([FAKE_TD, FAKE_MP, FAKE_TDDL, FAKE_JDDL, "BEGIN 5", "COMMIT 5 CSN 1", "ABORT 10213",
                             "decode to : DROP TABLE x, [owner a]", "', [owner x]", "'", "''", '"', "\\",
                             "table public.x: INSERT: a[text]:'", '{"table_name":"x"'])
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\x00"), max_size=12)
VALUE = st.lists(st.one_of(DANGEROUS, TEXT), min_size=1, max_size=5).map("\n".join)


def _real_blocks(name: str) -> list[str]:
    """The transactions of a fixture, as text blocks (rows inserted between them stay outside)."""
    text = read(name).decode()
    return [b + "\n" for b in text.split("\n") if b]


@settings(max_examples=150)
@given(st.lists(st.tuples(st.sampled_from(["td", "json", "jsonish"]), VALUE, VALUE), max_size=6),
       st.randoms(use_true_random=False))
def test_row_values_never_become_ddl(rows, rnd):
    name = "test_decoding.txt"
    lines = read(name).decode().split("\n")
    want = [(r.payload, dict(r.meta)) for r in records(read(name))]
    for kind, a, b in rows:
        if kind == "td":
            row = td_insert("public.orders", {"note": a, b: "1"})
        else:
            vals = jsonish([a, b]) if kind == "jsonish" else json.dumps([a, b], ensure_ascii=False)
            row = '{"table_name":"public.orders","op_type":"INSERT","columns_val":' + vals + "}"
        # a row goes at a row boundary: before a BEGIN, a COMMIT or another DML row
        spots = [i for i, l in enumerate(lines) if re.match(r"BEGIN \d|COMMIT \d|table ", l)]
        lines.insert(rnd.choice(spots), row)
    got = records("\n".join(lines))
    assert [(r.payload, {k: v for k, v in r.meta.items()}) for r in got] == want


@settings(max_examples=100)
@given(VALUE)
def test_decode_to_rows_never_leak(comment):
    tree = _comment_tree(comment)
    text = f"BEGIN 9\n{_comment_row(comment)}\nCOMMIT 9 CSN 3\n" + read("test_decoding.txt").decode()
    got = records(text)
    assert all(isinstance(r, Record) for r in got) and len(got) == 6
    assert json.loads(got[0].payload)["comment"]["literal"]["value"] == comment
    assert got[0].meta["decode_to"] == expand(json.loads(tree)) and "owner" not in got[0].meta
    assert got[1].meta["owner"] == "alice"


def _td_reference(lines: list[bytes]) -> list[bytes | None]:
    """The open quote after each line, character by character (a doubled quote closes and reopens)."""
    out, quote = [], None
    for line in lines:
        for ch in line:
            c = bytes([ch])
            if quote is None and c in (b"'", b'"'):
                quote = c
            elif c == quote:
                quote = None
        out.append(quote)
    return out


def _js_reference(lines: list[bytes]) -> list[bool]:
    out, inside, escaped = [], False, False
    for line in lines:
        for ch in line:
            if escaped:
                escaped = False
            elif inside and ch == 0x5C:
                escaped = True
            elif ch == 0x22:
                inside = not inside
        if escaped:  # the newline is the escaped character
            escaped = False
        out.append(inside)
    return out


ROW_BYTES = st.lists(st.sampled_from([b"'", b'"', b"\\", b"a", b" ", b"''", b'""', b"\\\"", b"{", b"]"]),
                     max_size=12).map(b"".join)


@settings(max_examples=400)
@given(st.lists(ROW_BYTES, min_size=1, max_size=5))
def test_quote_tracking_matches_a_character_scan(lines):
    from ddlc.frontend.streams_text import _js_state, _td_state

    quote, got = None, []
    for line in lines:
        quote = _td_state(line, quote)
        got.append(quote)
    assert got == _td_reference(lines)
    inside, got_js = False, []
    for line in lines:
        inside = _js_state(line, inside)
        got_js.append(inside)
    assert got_js == _js_reference(lines)
