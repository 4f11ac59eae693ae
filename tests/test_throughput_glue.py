"""The fixed cost per document (throughput round 8, issue 26): the layers every document went through, collapsed.

* :func:`ddlc.compiler.compile_one` (one target, no :class:`~ddlc.compiler.Built` to share) gives what the shared
  path (``Built`` then ``_compile``, as ``compile_many`` did for one target) gives, on every fixture, three targets,
  three option sets, the stream's history carried through;
* :meth:`ddlc.session.Session.first_target` gives what :meth:`~ddlc.session.Session.translate` gives (state
  included: documents already seen, the history advanced);
* the records made in C (:class:`ddlc.records.Struct`) still speak the dataclass protocol their users call.
"""

from __future__ import annotations

import dataclasses
import glob
import json
import pickle
from pathlib import Path

import pytest

import ddlc
from ddlc.backends import get_backend
from ddlc.compiler import Built, Front, Result, _compile, compile_one, failure
from ddlc.frontend.documents import Document, as_document
from ddlc.history import Catalog
from ddlc.options import Options

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(glob.glob(str(ROOT / "fixtures" / "cases" / "**" / "input.json"), recursive=True))
OPTIONS = {
    "default": Options.of(),
    "comment": Options.of(on_unsupported="comment", owners=True, schema_map={"public": "pub2"}),
    "filters": Options.of(white_table_list="public.*,*.t1", exclude_users="alice", on_unsupported="skip"),
}


def _docs() -> list[Document]:
    return [as_document(Path(f).read_bytes(), index=i, source=f"<input {i}>") for i, f in enumerate(FILES)]


def _shared_path(doc, backend, options, catalog) -> Result:
    """What ``compile_many`` did for one target before ``compile_one``: a ``Built`` made, then ``_compile``."""
    built = Built(doc, options, None, source=backend.passes_source_text)
    built.passes = None
    try:
        return _compile(doc, backend, options, catalog, built)
    except Exception as exc:  # noqa: BLE001 - as compile_many
        return Result(error=failure(exc, doc.label))


def _seen(r: Result) -> tuple:
    return (r.statements, r.comments, r.owner, [d.to_dict() for d in r.diagnostics],
            None if r.error is None else r.error.to_dict(), r.untranslated, r.blocks, r.filtered, r.kind, r.object)


@pytest.mark.parametrize("target", ["postgres", "gaussdb", "spark"])
@pytest.mark.parametrize("opts", sorted(OPTIONS))
def test_compile_one_is_the_shared_path(target, opts):
    backend, options = get_backend(target), OPTIONS[opts]
    old, new = Catalog(), Catalog()
    n = 0
    for doc in _docs():
        want = _shared_path(doc, backend, options, old)
        got = compile_one(doc, backend, options, new)
        assert _seen(got) == _seen(want), (doc.label, FILES[doc.index])
        n += 1
    assert n == len(FILES) > 200


def test_first_target_is_translate(tmp_path):
    docs = [Path(f).read_bytes() for f in FILES[:60]]
    from ddlc.session import Session

    opts = Options.of()
    for state in (None, tmp_path / "state.json"):
        a = Session(["postgres"], opts, state)
        one = a.first_target()
        b = Session(["postgres"], opts, None)
        for i, raw in enumerate(docs):
            doc = as_document(raw, index=i, source=f"<input {i}>")
            got, want = one(doc), b.translate(doc)[0]
            assert _seen(got) == _seen(want)
        a.close()
    # again from the saved state: both say the same of each document (seen: None), and count the same
    a = Session(["postgres"], opts, tmp_path / "state.json")
    b = Session(["postgres"], opts, tmp_path / "state.json")
    one = a.first_target()
    for i, raw in enumerate(docs):
        doc = as_document(raw, index=i, source=f"<input {i}>")
        got, want = one(doc), b.translate(doc)
        assert (got is None) == (want is None) and (got is None or _seen(got) == _seen(want[0]))
    assert (a.replayed, a.replay_note()) == (b.replayed, b.replay_note())


def test_translate_many_is_the_chain_it_replaced():
    """``translate_many`` over an iterable of documents gives, for each, the Translation ``api.translation`` makes
    of ``compile_many``'s result (the chain before: a generator, ``Session.run``, ``Session.translate``)."""
    from ddlc.api import translation

    raws = [Path(f).read_bytes() for f in FILES]
    backend = get_backend("postgres")
    catalog = Catalog()
    got = list(ddlc.translate_many(raws, target="postgres"))
    for i, (raw, t) in enumerate(zip(raws, got, strict=True)):
        doc = as_document(raw, index=i, source=f"<input {i}>")
        want = translation(doc, backend, ddlc.compiler.compile_many(doc, [backend], Options.of(), [catalog])[0])
        assert dataclasses.replace(t, error=None) == dataclasses.replace(want, error=None)  # (errors: by identity)
        assert t.to_dict() == want.to_dict() and t.sql == want.sql


@pytest.mark.parametrize("cls", [Document, Front, ddlc.Translation, ddlc.backends.base.EmitContext])
def test_structs_speak_the_dataclass_protocol(cls):
    names = cls.__struct_fields__
    assert dataclasses.is_dataclass(cls) and tuple(f.name for f in dataclasses.fields(cls)) == names
    required = [f.name for f in dataclasses.fields(cls)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    obj = cls(*[f"v{i}" for i in range(len(required))])
    assert dataclasses.is_dataclass(obj)
    changed = dataclasses.replace(obj, **{names[-1]: "changed"})
    assert getattr(changed, names[-1]) == "changed" and type(changed) is cls
    assert [getattr(changed, n) for n in names[:-1]] == [getattr(obj, n) for n in names[:-1]]
    assert list(dataclasses.asdict(obj)) == list(names) and len(dataclasses.astuple(obj)) == len(names)
    assert pickle.loads(pickle.dumps(obj)) == obj
    with pytest.raises(AttributeError):
        setattr(obj, names[0], "x")  # frozen
    assert repr(obj).startswith(f"{cls.__name__}({names[0]}=")


def test_document_defaults_as_before():
    d = Document(0, "s", "l")
    assert (d.line, d.tree, d.tddl, d.error, d.meta, d.lsn, d.xid, d.position) == (1, None, None, None, {}, None,
                                                                                   None, None)
    assert d.meta is Document(1, "s", "l").meta  # the one shared empty mapping
    assert json.loads(json.dumps(dataclasses.asdict(Document(0, "s", "l", tree={"fmt": "x"}))))["tree"] == {"fmt": "x"}
