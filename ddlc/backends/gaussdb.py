"""GaussDB target: the exact text the database itself prints for a JDDL tree.

``raw`` mode is openGauss's expansion byte for byte; ``canonical`` (the default) is GaussDB's
TDDL form (blank runs collapsed outside quotes and dollar bodies, ends trimmed).
"""

from __future__ import annotations

from ..frontend.documents import Document
from ..frontend.expand import expand, owner_of
from ..quoting import canonicalize
from . import Output


def translate(doc: Document, options) -> Output:
    if doc.tddl is not None:
        text = doc.tddl if options.mode == "raw" else canonicalize(doc.tddl)
        return Output((text,))
    assert doc.tree is not None
    text = expand(doc.tree, document=doc.label)
    if options.mode != "raw":
        text = canonicalize(text)
    return Output((text,), owner=owner_of(doc.tree))
