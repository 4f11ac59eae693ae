"""The text a target's comment shows for what a rule dropped, rendered by the GaussDB backend.

A rule that drops a node or a clause records the node before and after it (``Diagnostic.dropped_after``)
and the nodes around it (``dropped_within``); an emitter that drops one does the same through its
``diag``. :func:`dropped_text` writes both with the GaussDB backend and shows what the first has that the
second has not. No backend writes GaussDB snippets of its own (but where the GaussDB text never shows the
clause: the rules that keep a ``text``, pinned in tests/test_dropped_text.py).
"""

from __future__ import annotations

from typing import Any

from .diagnostics import Diagnostic


def dropped_text(d: Diagnostic) -> str | None:
    """The text a comment shows for what ``d`` dropped: given, or rendered by the GaussDB backend.

    A dropped node is shown whole; one given a prefix (a subcommand, shown in its statement) is shown as its
    statement holding it alone, when the statement is known (``d.dropped_within``), else after
    ``d.dropped_prefix``. A clause removed from a node (a field
    set to its absent value, a rewrite) is what the GaussDB text of the node before has that the text
    of the node after has not: the removed token spans, in order, joined by `` ... ``. A node the GaussDB
    writer has no text for alone (a column, a partition key) is rendered in its parent, and so on up to
    the statement (``d.dropped_within``). No difference: the node whole when it is a part of its statement
    with a text of its own (an ALTER TABLE subcommand), else no text; no rendering: no text."""
    if d.dropped_text:
        return d.dropped_text
    node = d.dropped_node
    if node is None:
        return None
    from .backends.gaussdb import emit

    if d.dropped_prefix and d.dropped_after is None and (alone := _alone(emit, d)) is not None:
        return alone
    after = _GONE if d.dropped_after is None else d.dropped_after
    if after is not _GONE and getattr(after, "layout", "") is None and getattr(node, "layout", None) is not None:
        node = _replace(node, layout=None)  # both written the same way: only the clause differs
    enclosing = list(d.dropped_within)
    original = enclosing.pop() if enclosing else None
    prefix = d.dropped_prefix
    while True:
        try:
            before_text, after_text = _texts(emit, node, after)
        except Exception:  # noqa: BLE001 - a node the GaussDB writer cannot take alone: try its parent
            if not enclosing or original is None:
                return None
            parent, prefix = enclosing.pop(), ""
            where = _where(parent, original)
            if where is None:
                return None
            if after is _GONE and where[1] is None:
                node = parent  # a node dropped from a field of its own takes its parent with it (as in the pass)
            else:
                node, after = _put(parent, where, node), _put(parent, where, after)
            original = parent
            continue
        if after_text is None:
            return prefix + before_text
        removed = _removed(before_text, after_text)
        if removed is None and len(d.dropped_within) > 1 and original is d.dropped_within[-1]:
            return _whole(emit, d)  # the rule does not show in a part's text: the part, never the statement
        return removed


_GONE = object()  # the node after a rule that drops it


def _texts(emit: Any, node: Any, after: Any) -> tuple[str, str | None]:
    """The GaussDB texts of ``node`` and ``after`` (None: dropped). A rule that rewrote a node and kept its
    layout (the deparser's fmt) may leave one the node no longer fits: both are then written without it."""
    try:
        return emit(node), None if after is _GONE else emit(after)
    except Exception:  # noqa: BLE001 - retried without the layouts, else raised again
        if after is _GONE or (getattr(node, "layout", None) is None and getattr(after, "layout", None) is None):
            raise
    return emit(_replace(node, layout=None)), emit(_replace(after, layout=None))


def _alone(emit: Any, d: Diagnostic) -> str | None:
    """The statement that holds the dropped node in a list of its parts, written with that node alone (an
    ALTER TABLE with one of its subcommands), or None."""
    if len(d.dropped_within) != 2:
        return None
    stmt, held = d.dropped_within
    where = _where(stmt, held)
    if where is None or where[1] is None:
        return None
    try:
        return emit(_put(stmt, (where[0], None), (d.dropped_node,)))
    except Exception:  # noqa: BLE001 - no text for it: the prefix and the node
        return None


def _whole(emit: Any, d: Diagnostic) -> str | None:
    try:
        return d.dropped_prefix + emit(d.dropped_node)
    except Exception:  # noqa: BLE001 - a node the GaussDB writer cannot take: no comment text
        return None


def _replace(node: Any, **changes: Any) -> Any:
    from .ir.base import replace

    return replace(node, **changes)


def _where(parent: Any, child: Any) -> tuple[str, int | None] | None:
    """Where ``parent`` holds ``child``: (field, index in its tuple or None), or None."""
    from .ir.base import field_names

    for name in field_names(type(parent)):
        v = getattr(parent, name)
        if v is child:
            return name, None
        if type(v) is tuple:
            for i, x in enumerate(v):
                if x is child:
                    return name, i
    return None


def _put(parent: Any, where: tuple[str, int | None], new: Any) -> Any:
    """``parent`` with ``new`` at ``where`` (``_GONE``: removed from its tuple)."""
    name, i = where
    if i is None:
        return _replace(parent, **{name: new})
    v = getattr(parent, name)
    return _replace(parent, **{name: (*v[:i], *(() if new is _GONE else (new,)), *v[i + 1:])})


def _removed(before: str, after: str) -> str | None:
    """The spans of ``before`` that ``after`` has not (a token-level diff), in order, joined by " ... ".

    The common head and tail are set aside first (one clause removed is then exactly the middle), the
    middle is diffed; a span that would not balance its brackets gives way to the whole middle. A value
    replaced by another is shown with the keyword (and sign) that introduce it: ``USING cgin``."""
    import difflib

    from .frontend.sql.lexer import scan

    def words(text: str) -> list[tuple[str, str, int, int]]:
        return [(text[s:e], kind, s, e) for kind, s, e in scan(text) if kind not in ("space", "comment")]

    b, a = words(before), words(after)
    head = 0
    while head < min(len(a), len(b)) and b[head][0] == a[head][0]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and b[-1 - tail][0] == a[-1 - tail][0]:
        tail += 1
    if head + tail == len(b):
        return None  # nothing of ``before`` is missing from ``after``
    spans: list[tuple[int, int, bool]] = []
    matcher = difflib.SequenceMatcher(None, [w[0] for w in b[head:len(b) - tail]],
                                      [w[0] for w in a[head:len(a) - tail]], autojunk=False)
    for op, i, j, _, _ in matcher.get_opcodes():
        if op in ("delete", "replace"):
            spans.append((head + i, head + j, op == "replace"))
    spans = _slid(b, spans)
    if not all(_balanced(b[i:j]) for i, j, _ in spans):
        spans = [(head, len(b) - tail, len(a) > head + tail)]
    out = []
    for i, j, replaced in spans:
        if replaced:  # shown with the keyword that introduces it (GaussDB writes keywords upper case)
            if i > 0 and b[i - 1][0] in ("-", "+"):
                i -= 1
            if i > 0 and b[i - 1][1] == "word" and b[i - 1][0].isupper():
                i -= 1
                if i > 0 and b[i][0] in ("BY", "WITH") and b[i - 1][1] == "word" and b[i - 1][0].isupper():
                    i -= 1  # START WITH, INCREMENT BY
        while i < j and b[i][0] == ",":  # the separator of a list item is not part of it
            i += 1
        while j > i and b[j - 1][0] == ",":
            j -= 1
        if i < j and _balanced(b[i:j]):
            out.append(before[b[i][2]:b[j - 1][3]])
    return " ... ".join(out) or None


def _slid(b: list[tuple[str, str, int, int]], spans: list[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """Each span of removed tokens moved, among the places where removing it leaves the same text, to one that
    starts and ends at an item of a list: removing ``CONSTRAINT a ..., `` before ``CONSTRAINT b ...`` is also
    removing ``a ..., CONSTRAINT`` after the first ``CONSTRAINT``, and only the first is the item."""
    def edge(i: int, j: int) -> int:
        left = i == 0 or b[i - 1][0] in (",", "(") or b[i][0] == ","
        right = j == len(b) or b[j][0] in (",", ")") or b[j - 1][0] == ","
        return left + right

    out = []
    for k, (i, j, replaced) in enumerate(spans):
        if replaced:
            out.append((i, j, replaced))
            continue
        low = out[-1][1] if out else 0
        high = spans[k + 1][0] if k + 1 < len(spans) else len(b)
        best, score = (i, j), edge(i, j)
        x, y = i, j
        while x > low and b[x - 1][0] == b[y - 1][0]:  # the same text left when the span moves left by one
            x, y = x - 1, y - 1
            if edge(x, y) > score:
                best, score = (x, y), edge(x, y)
        x, y = i, j
        while y < high and b[x][0] == b[y][0]:
            x, y = x + 1, y + 1
            if edge(x, y) > score:
                best, score = (x, y), edge(x, y)
        out.append((*best, replaced))
    return out


def _balanced(toks: list[tuple[str, str, int, int]]) -> bool:
    depth = 0
    for t, *_ in toks:
        depth += (t in ("(", "[")) - (t in (")", "]"))
        if depth < 0:
            return False
    return depth == 0


__all__ = ["dropped_text"]
