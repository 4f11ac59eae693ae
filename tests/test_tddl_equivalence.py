"""The text frontend proven against the tree builders: for every golden case whose input is JDDL trees,
the GaussDB text printed for each tree, read as TDDL, gives the same IR (origins, layouts and the
source text kept for GaussDB exactness aside) and the same PostgreSQL and Spark output as the tree.

Cases where that cannot hold are listed in ``NOT_EQUAL`` with the reason; the test fails when a listed
case becomes equal (so the list stays exact) and when an unlisted one differs.
"""

from __future__ import annotations

import pytest

import ddlc
from ddlc.compiler import front
from ddlc.frontend.documents import read_documents
from ddlc.frontend.text import read_tddl

from conftest import case_id
from tddl_pairs import IR_NOT_EQUAL, NOT_EQUAL, comparable, first_difference, text_of, tree_cases

CASES = tree_cases()

def test_there_are_pairs():
    assert len(CASES) >= 100


def _ir_differences(case) -> list[str]:
    out = []
    docs = list(read_documents((case / "input.json").read_bytes(), source=str(case / "input.json")))
    texts = text_of(case)
    assert len(docs) == len(texts)
    for i, (doc, text) in enumerate(zip(docs, texts)):
        if text is None:
            continue
        try:
            tree_stmt = front(doc, None).stmt
        except ddlc.DdlcError:
            continue  # an input error: the text printed for it (none) is not compared
        text_stmt, diags = read_tddl(text)
        a, b = comparable(tree_stmt), comparable(text_stmt)
        if a != b:
            out.append(f"document {i}: {first_difference(a, b)} {[d.message for d in diags]}")
    return out


def _outputs(data: bytes, target: str) -> list[tuple[tuple[str, ...], str | None]]:
    return [(t.statements, t.error.code if t.error else None)
            for t in ddlc.translate_many(data, target=target, on_unsupported="comment")]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_text_gives_the_tree_ir_and_outputs(case):
    from tddl_pairs import text_input

    diffs = _ir_differences(case)
    if case_id(case) in IR_NOT_EQUAL:
        assert diffs, f"listed in IR_NOT_EQUAL but the IR is equal now: remove it"
        diffs = []
    data = (case / "input.json").read_bytes()
    texts = [t for t in text_of(case)]
    for target in ("postgres", "spark"):
        tree_out = [o for o, t in zip(_outputs(data, target), texts) if t is not None]
        text_out = _outputs(text_input(case), target)
        if tree_out != text_out:
            diffs.append(f"{target}: {tree_out} != {text_out}")
    reason = NOT_EQUAL.get(case_id(case))
    if reason is None:
        assert not diffs, "\n".join(diffs)
    else:
        assert diffs, f"listed as not equal ({reason}) but equal now: remove it from NOT_EQUAL"
