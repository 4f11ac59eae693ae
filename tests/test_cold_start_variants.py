"""Cold start (issue 26 item 4): :class:`ddlc.frontend.build.variants.Template` reads what recognising a tree needs
(``lead``, ``required``, ``keys``) in one pass over the tokens at import and parses its items on first use. Proven
here equal to the full parse it replaces (the one of e69f000, below as ``_reference``), on every template ddlc has
and, by hypothesis, on generated templates (words, slots optional or not, clauses, runs of clauses, blanks)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.build import variants as V


def _reference(source: str) -> dict[str, Any]:
    """The parse every Template made at import before (items first, then lead, required and keys from them)."""
    counter = iter(range(1 << 30))
    stack: list[list[Any]] = [[]]
    opens: list[tuple[str, str]] = []
    for m in V._TOKEN.finditer(source):
        ws, tok = m.group(1), m.group(2)
        if tok in ("⟦", "⟪"):
            stack.append([])
            opens.append((tok, ws))
        elif tok == "⟧":
            items = stack.pop()
            _, open_ws = opens.pop()
            stack[-1].append(V.Group(tuple(items), open_ws, ws, next(counter)))
        elif tok == "⟫":
            items = stack.pop()
            opens.pop()
            stack[-1].append(V.Free(tuple(items)))
        elif tok.startswith("%{"):
            opt = tok.endswith("?")
            raw = tok[:-1] if opt else tok
            stack[-1].append(V.Slot(V._spec(raw), raw, ws, opt))
        else:
            stack[-1].append(V.Lit(tok, ws))
    items_ = tuple(stack[0])
    lead: list[str] = []
    for it in items_:
        if isinstance(it, V.Lit):
            lead.append(it.text)
        elif isinstance(it, V.Slot) and it.optional:
            continue
        else:
            break
    keys: set[str] = set()

    def collect(items: tuple[Any, ...]) -> None:
        for it in items:
            if isinstance(it, V.Slot):
                keys.add(it.spec.key)
            elif isinstance(it, V.Group):
                collect(it.items)
            elif isinstance(it, V.Free):
                collect(it.groups)

    collect(items_)
    return {"items": items_, "lead": tuple(lead), "keys": frozenset(keys), "trailing": source[len(source.rstrip()):],
            "required": frozenset(it.spec.key for it in items_ if isinstance(it, V.Slot) and not it.optional)}


def _read(t: V.Template) -> dict[str, Any]:
    return {"items": t.items, "lead": t.lead, "keys": t.keys, "trailing": t.trailing, "required": t.required}


def test_every_template_reads_as_the_full_parse():
    assert len(V.TEMPLATES) > 30
    for t in V.TEMPLATES:
        assert t._items is None or t._items == _reference(t.source)["items"]
        assert _read(V.Template(t.kind, t.source)) == _reference(t.source), t.source


def test_items_are_parsed_once_on_first_use():
    t = V.Template("DROP", "DROP %{objtype}s %{if_exists}s? %{objidentity}s⟦ %{cascade}s⟧")
    assert t._items is None
    assert t.items is t.items and t._items is not None


_WORDS = st.sampled_from(["CREATE", "TABLE", "ON", "AS", "(", ")", "=", "'", "%", "%%", "x.y", "IS"])
_NAMES = st.sampled_from(["objtype", "object_type", "identity", "name", "if_exists", "with", "definition", "a"])


@st.composite
def _slot(draw) -> str:
    sep = draw(st.sampled_from(["", ":, ", ": ", ": OR "]))
    conv = draw(st.sampled_from("sIDTLn"))
    return "%{" + draw(_NAMES) + sep + "}" + conv + ("?" if draw(st.booleans()) else "")


def _ws():
    return st.sampled_from(["", " ", "  ", "\n"])


def _sequence(depth: int):
    leaf = st.one_of(_WORDS, _slot())
    if depth > 0:
        group = st.builds(lambda ws, body, tail: ws + "⟦" + body + tail + "⟧", _ws(), _sequence(depth - 1), _ws())
        free = st.builds(lambda ws, gs: ws + "⟪" + "".join("⟦" + g + "⟧" for g in gs) + "⟫", _ws(),
                         st.lists(_sequence(depth - 1), min_size=1, max_size=3))
        leaf = st.one_of(leaf, group, free)
    return st.builds(lambda parts, blanks: "".join(b + p for b, p in zip(blanks, parts, strict=False)),
                     st.lists(leaf, max_size=6), st.lists(_ws(), min_size=6, max_size=6))


@settings(max_examples=400, deadline=None)
@given(_sequence(2), _ws())
def test_generated_templates_read_as_the_full_parse(source, end):
    source += end
    assert _read(V.Template("K", source)) == _reference(source)
