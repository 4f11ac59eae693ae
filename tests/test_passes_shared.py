"""The passes a multi-target run shares read nothing of the target (issue 21: build once, fan out)."""

from __future__ import annotations

import ast
import inspect

from ddlc import passes
from ddlc.passes import PIPELINE, SHARED

TARGET_FIELDS = {"target", "rules", "refused", "catalog"}


def _reads(fn) -> set[str]:
    """Attributes of ``ctx`` read anywhere in the module that defines ``fn`` (a pass, or its wrapper)."""
    mods = {inspect.getmodule(fn)}
    if fn.__module__ == passes.__name__:  # a wrapper that imports its pass lazily (expand_partitions)
        from ddlc.passes import expand_partitions as mod

        mods.add(mod)
    out = set()
    for mod in mods:
        for node in ast.walk(ast.parse(inspect.getsource(mod))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ctx":
                out.add(node.attr)
    return out


def test_shared_passes_read_nothing_of_the_target():
    assert 0 < SHARED < len(PIPELINE)
    for p in PIPELINE[:SHARED]:
        assert not (_reads(p) & TARGET_FIELDS), (p.__name__, _reads(p) & TARGET_FIELDS)
    assert _reads(PIPELINE[SHARED]) & TARGET_FIELDS  # the first pass that does is where sharing stops


def test_a_multi_target_run_equals_single_target_runs():
    import glob
    import json
    from pathlib import Path

    import ddlc

    root = Path(__file__).resolve().parents[1]
    files = sorted(glob.glob(str(root / "fixtures" / "cases" / "**" / "input.json"), recursive=True))
    docs = [json.loads(Path(f).read_text("utf-8")) for f in files]
    from ddlc.compiler import compile_many
    from ddlc.frontend.documents import as_document
    from ddlc.backends import get_backend
    from ddlc.history import Catalog
    from ddlc.options import Options

    opts = Options.of(on_unsupported="comment")
    targets = [get_backend(t) for t in ("gaussdb", "postgres", "spark")]
    cats_many = [Catalog() for _ in targets]
    cats_one = [Catalog() for _ in targets]
    for i, d in enumerate(docs):
        many = compile_many(as_document(d, index=i), targets, opts, cats_many)
        one = [compile_many(as_document(d, index=i), [t], opts, [c])[0] for t, c in zip(targets, cats_one)]
        for a, b in zip(many, one):
            assert (a.statements, a.comments, [x.to_dict() for x in a.diagnostics], str(a.error)) == \
                   (b.statements, b.comments, [x.to_dict() for x in b.diagnostics], str(b.error)), files[i]
    assert ddlc  # imported for its side effects only
