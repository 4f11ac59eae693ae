"""Issue 20, item 5: bounded work on one document.

* the text reader knows what every placeholder of every template holds (a placeholder without a value
  spec was a KeyError, DDLC-E900, for the B-compatibility ``DEFAULT CHARACTER SET = ..., COLLATE = ...``);
"""

from __future__ import annotations

import pytest

import ddlc
from ddlc.errors import DdlcError

TARGETS = ("gaussdb", "postgres", "spark")


# ---- (c) the text reader: every placeholder has a value spec ---------------------------------------

def _placeholders(shape):
    def pieces(alts):
        for alt in alts:
            for p in alt:
                if isinstance(p, list):
                    yield from pieces(p)
                elif isinstance(p, tuple):
                    yield p
    return pieces(shape.alternatives())


def test_every_text_template_placeholder_has_a_value_spec():
    from ddlc.frontend.text import _dispatch
    from ddlc.frontend.text._match import _CONV, Either, Shape

    seen: set[int] = set()
    missing = []

    def walk(spec, where):
        if id(spec) in seen:
            return
        seen.add(id(spec))
        if isinstance(spec, Either):
            for s in spec.specs:
                walk(s, where)
        if not isinstance(spec, Shape):
            return
        for name, _sep, conv in _placeholders(spec):
            s = spec.keys.get(f"{name}%{conv}") or (spec.keys.get(name) if conv == "s" else _CONV.get(conv))
            if s is None:
                missing.append(f"{where}: %{{{name}}}{conv} in {spec.templates[:70]!r}")
            else:
                walk(s, f"{where}.{name}")

    for rx, shape in _dispatch():
        walk(shape, rx.pattern)
    assert len(seen) > 100
    assert missing == []


B_CHARSET = "ALTER TABLE db_b.t_b DEFAULT CHARACTER SET = UTF8, COLLATE = utf8mb4_bin"


@pytest.mark.parametrize("target", TARGETS)
def test_b_compat_charset_and_collate_text_is_read(target):
    doc = {"TDDL": B_CHARSET}
    if target == "gaussdb":
        assert ddlc.translate(doc, target).statements == (B_CHARSET,)
        return
    with pytest.raises(DdlcError) as info:
        ddlc.translate(doc, target)
    assert info.value.code == "DDLC-E010"  # no form on the target: refused with its reason, not E900
    assert "CHARACTER SET" in info.value.message
    # the tree read is the server's: DEFAULT CHARACTER SET and COLLATE, two subcommands
    from ddlc.frontend.text import read_tree

    tree, err = read_tree(B_CHARSET)
    assert err is None
    assert [s["type"] for s in tree["subcmds"]] == ["default character set", "collate"]
    assert tree["subcmds"][1]["collate"] == "utf8mb4_bin"
