"""The corpora of bench/bench_ratio.py, built from fixtures/ (no generated file is checked in).

* ``fixtures``: every ``fixtures/cases/**/input.json`` without an ``expected.error.json``, the
  ``input`` of every ``fixtures/oracle/*.json`` and every line of ``fixtures/sample/ddl.jsonl``.
* ``varied``: every statement family of ``fixtures/cases/`` (the directories; ``expander/``, which
  holds edge cases of the expander rather than a family of statements, is left out) with the same
  number of documents each (``per_family``, default 24: 17 families -> 408 documents), each family's
  documents taken in turn. A family with fewer cases repeats them, as a real stream repeats shapes.
* ``unique``: the varied corpus with every identifier renamed per document (:class:`Renamer`), so
  that no cache keyed on a text, a fragment or a name can hit: each variant of a document gets its own
  suffix (``_`` and 5 base-36 digits), and the benchmark asks for a new variant every time it hands a
  document to ddlc.

Renaming works on the JSON tree, in every string value (the names, the SQL fragments, ``TDDL``
texts), with one rule per document: a word (``[A-Za-z_][A-Za-z0-9_]*``, not part of a ``$`` tag or
a prefixed literal such as ``x'1F'``) that holds a lower-case letter and is not a keyword, a built-in
function or type, an option name, an operator class or another word of :data:`KEEP` becomes
``word_<tag>`` wherever it occurs in the document. Format strings and the values of the keys in
:data:`SKIP_KEYS` (option labels, clause names, roles, collations) are left alone: roles are not
renamed (a real stream has few of them), nor are collations, charsets and languages, which are names
ddlc must know. Every variant of a document has the same length in bytes.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "fixtures" / "cases"
NOT_A_FAMILY = frozenset({"expander"})

Doc = tuple[str, bytes]  # (label, one compact JSON line)

# --- the corpora -----------------------------------------------------------------------------------


def _line(tree: Any) -> bytes:
    return orjson.dumps(tree)


def case_documents() -> dict[str, list[Doc]]:
    """The cases that translate (no ``expected.error.json``), by family (their directory)."""
    out: dict[str, list[Doc]] = {}
    for p in sorted(CASES.glob("*/*/input.json")):
        if (p.parent / "expected.error.json").exists():
            continue
        family = p.parent.parent.name
        out.setdefault(family, []).append((f"{family}/{p.parent.name}", _line(orjson.loads(p.read_bytes()))))
    return out


def fixtures_corpus() -> list[Doc]:
    docs = [d for family in case_documents().values() for d in family]
    for p in sorted((ROOT / "fixtures" / "oracle").glob("*.json")):
        docs.append((f"oracle/{p.stem}", _line(orjson.loads(p.read_bytes())["input"])))
    sample = ROOT / "fixtures" / "sample" / "ddl.jsonl"
    for n, raw in enumerate(sample.read_bytes().splitlines(), 1):
        if raw.strip():
            docs.append((f"sample/ddl.jsonl:{n}", _line(orjson.loads(raw))))
    return docs


def varied_corpus(per_family: int = 24) -> list[Doc]:
    out: list[Doc] = []
    for family, docs in sorted(case_documents().items()):
        if family not in NOT_A_FAMILY:
            out.extend(itertools.islice(itertools.cycle(docs), per_family))
    return out


def families(docs: list[Doc]) -> list[str]:
    return sorted({label.split("/")[0] for label, _ in docs})


def chunks(docs: list[Doc], size: int, seed: int) -> Iterator[list[Doc]]:
    """Chunks of ``size`` documents, endlessly: the corpus shuffled (``seed``), again and again."""
    rng = random.Random(seed)
    pool: list[Doc] = []
    while True:
        while len(pool) < size:
            order = list(docs)
            rng.shuffle(order)
            pool.extend(order)
        yield pool[:size]
        del pool[:size]


# --- renaming --------------------------------------------------------------------------------------

WORD = re.compile(r"(?<![\w$])[A-Za-z_][A-Za-z0-9_]*(?![\w$])")
SKIP_KEYS = frozenset({
    "fmt", "type", "kind", "label", "objtype", "contype", "typmod", "index_am", "opts",
    "set_name", "set_value", "charset", "collate", "collation_name",
    "myowner", "owner", "definer", "definer_opt", "authorization_role", "role", "grantee",
})
# names ddlc must recognise: schemas it treats apart, languages, text-search configurations,
# charsets and collations, storage parameters, access methods, built-in types
KEEP = frozenset("""
public pg_catalog pg_toast toast information_schema dbe_perf sys
plpgsql sql internal english simple
utf8 utf8mb4 utf8mb4_bin utf8mb4_general_ci utf8mb4_unicode_ci gbk gb18030 latin1 sql_ascii
orientation compression compresstype compresslevel compress_chunk_size compress_prealloc_chunks
fillfactor storage_type deduplicate_items fastupdate gin_pending_list_limit buffering ustore astore
hashbucket bucketcnt segment n_distinct n_distinct_inherited parallel_workers init_td
seqincrement
btree ubtree cgin gin gist hash brin spgist psort
int1 int2 int4 int8 int16 float4 float8 numeric decimal text varchar bpchar nvarchar2 raw blob clob
bytea bool boolean date time timetz timestamp timestamptz smalldatetime interval money oid regclass
regconfig regproc regtype tsvector tsquery json jsonb uuid inet cidr macaddr bit varbit xml name
hash16 hash32 tinyint smallint bigint serial bigserial smallserial largeserial
""".split())
KEEP_PREFIXES = ("autovacuum_", "toast_", "pg_", "hash_")  # hash_<hex>: a ledger table's hash column
KEEP_SUFFIXES = ("_ops",)
TAG_WIDTH = 5
SENTINEL = "\x7f" * TAG_WIDTH  # stands for the tag in a document's renamed template


def _keywords() -> frozenset[str]:
    """SQL keywords (pglast's PostgreSQL list and ddlc's openGauss list) and built-in function names."""
    import pglast.keywords as kw

    words = set(kw.COL_NAME_KEYWORDS) | set(kw.RESERVED_KEYWORDS) | set(kw.TYPE_FUNC_NAME_KEYWORDS) \
        | set(kw.UNRESERVED_KEYWORDS)
    data = ROOT / "ddlc" / "data"
    for name in ("opengauss_keywords.tsv", "pg_functions.txt", "gauss_functions.txt"):
        for line in (data / name).read_text("utf-8").splitlines():
            if line and not line.startswith("#"):
                words.add(line.split("\t")[0].lower())
    return frozenset(words)


class Renamer:
    """Renames the identifiers of documents, one fresh tag per variant (``tag()``)."""

    def __init__(self) -> None:
        self.keep = _keywords() | KEEP
        self._templates: dict[bytes, tuple[bytes, dict[str, str]]] = {}
        self._count = 0

    def renames(self, word: str) -> bool:
        low = word.lower()
        return (word != word.upper() and low not in self.keep
                and not low.startswith(KEEP_PREFIXES) and not low.endswith(KEEP_SUFFIXES))

    def _words(self, node: Any, key: str | None, out: set[str]) -> None:
        if isinstance(node, str):
            if key not in SKIP_KEYS:
                out.update(m.group(0) for m in WORD.finditer(node) if self._renamed_at(m))
        elif isinstance(node, dict):
            for k, v in node.items():
                self._words(v, k, out)
        elif isinstance(node, list):
            for v in node:
                self._words(v, key, out)

    def _renamed_at(self, m: re.Match[str]) -> bool:
        w = m.group(0)
        # x'1F', b'01', E'\n', N'...': a prefix, not a name
        return self.renames(w) and not (len(w) == 1 and m.string[m.end():m.end() + 1] == "'")

    @staticmethod
    def _compose(word: str, found: set[str], tag: str) -> str:
        """``word`` renamed: a name made of the document's other names joined by ``_`` (``orders_pkey``,
        ``all_types_c_serial_seq``) is renamed part by part, so names derived from others stay derived
        (ddlc recognises a serial column by its sequence's name); any other gets the tag at its end."""
        parts = word.split("_")
        out: list[str] = []
        i = 0
        while i < len(parts):
            for j in range(len(parts), i, -1):
                head = "_".join(parts[i:j])
                if head in found and head != word and head:
                    out.append(f"{head}_{tag}")
                    i = j
                    break
            else:
                out.append(parts[i])
                i += 1
        composed = "_".join(out)
        return composed if composed != word else f"{word}_{tag}"

    def template(self, line: bytes) -> tuple[bytes, dict[str, str]]:
        """``line`` with every renamed word replaced (:data:`SENTINEL` standing for the tag), and the
        renaming (word -> new word, with the sentinel)."""
        if line not in self._templates:
            if SENTINEL.encode() in line:
                raise ValueError("document holds the renaming sentinel")
            tree = orjson.loads(line)
            found: set[str] = set()
            self._words(tree, None, found)
            mapping = {w: self._compose(w, found, SENTINEL) for w in found}
            if any(len(v) > 63 for v in mapping.values()):
                raise ValueError(f"a renamed name would pass 63 bytes: {sorted(mapping.values(), key=len)[-1]!r}")

            def sub(m: re.Match[str]) -> str:
                w = m.group(0)
                return mapping[w] if w in mapping and self._renamed_at(m) else w

            def walk(node: Any, key: str | None) -> Any:
                if isinstance(node, str):
                    return node if key in SKIP_KEYS else WORD.sub(sub, node)
                if isinstance(node, dict):
                    return {k: walk(v, k) for k, v in node.items()}
                if isinstance(node, list):
                    return [walk(v, key) for v in node]
                return node

            self._templates[line] = (orjson.dumps(walk(tree, None)), mapping)
        return self._templates[line]

    def tag(self) -> str:
        n, self._count = self._count, self._count + 1
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"
        out = ""
        for _ in range(TAG_WIDTH):
            n, r = divmod(n, 36)
            out = digits[r] + out
        if n:
            raise OverflowError("more than 36**5 variants")
        return out

    def variant(self, line: bytes, tag: str | None = None) -> bytes:
        """One renamed copy of ``line``; a new tag unless one is given."""
        return self.template(line)[0].replace(SENTINEL.encode(), (tag or self.tag()).encode())

    def mapping(self, line: bytes, tag: str) -> dict[str, str]:
        """The renaming of ``line``'s variant with ``tag``: word -> new word."""
        return {w: v.replace(SENTINEL, tag) for w, v in self.template(line)[1].items()}


def check(docs: list[Doc], target: str, renamer: Renamer | None = None) -> dict[str, Any]:
    """Translate each document and one renamed variant of it, each alone (no history shared):

    * ``status``: documents whose variant failed where the original did not, or the reverse (must be 0);
    * ``same``: documents whose variant's output, with the tag taken out again, is the original's;
    * ``differs``: the labels of the others (their output depends on a name: say which in docs);
    * ``renamed``: documents with at least one renamed word (``unrenamed``: the labels of the others);
    * ``failed``: documents that fail (originals).
    """
    import ddlc

    renamer = renamer or Renamer()
    out: dict[str, Any] = {"documents": len(docs), "status": [], "same": 0, "differs": [], "renamed": 0,
                           "unrenamed": [], "failed": 0}
    for label, line in docs:
        tag = renamer.tag()
        (a,) = ddlc.translate_many([line], target=target)
        (b,) = ddlc.translate_many([renamer.variant(line, tag)], target=target)
        out["failed"] += a.error is not None
        if renamer.mapping(line, tag):
            out["renamed"] += 1
        else:
            out["unrenamed"].append(label)
        if (a.error is None) != (b.error is None) or (a.error and a.error.code != b.error.code):
            out["status"].append(label)
        elif [s.replace(f"_{tag}", "") for s in b.statements] == list(a.statements):
            out["same"] += 1
        else:
            out["differs"].append(label)
    return out
