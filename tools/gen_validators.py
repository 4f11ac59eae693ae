"""Generate ddlc/frontend/_validators_generated.py: the JSON Schemas of grammars/ compiled to Python by
``fastjsonschema.compile_to_code`` (build time; ddlc does not import fastjsonschema at run time).

    .venv/bin/python -m tools.gen_validators          # rewrite
    .venv/bin/python -m tools.gen_validators --check  # exit 1 when out of date (tests/test_schema_validators.py)

fastjsonschema implements drafts 4, 6 and 7; the grammars are draft 2020-12. Before compiling, every schema
is vetted and rewritten into a form whose draft-7 meaning is its 2020-12 meaning:

* only the keywords listed in :data:`KEYWORDS` (and annotations) may occur, anywhere; any other keyword,
  an ``$id``/``$defs`` below a schema file's root, an ``items`` array or a ``$ref`` that does not resolve
  to a schema of grammars/ stops the build (fastjsonschema would ignore an unknown keyword: laxer);
* ``$ref`` beside other keywords becomes the first element of ``allOf`` (draft 7 ignores the siblings of
  ``$ref``; 2020-12 applies both, which is what ``allOf`` does);
* ``const: x`` becomes ``enum: [x]`` (the same thing by the spec; fastjsonschema 2.22's short message for
  ``const`` fails to build: ``KeyError: 'definition_rule'``);
* a pattern's final ``$`` becomes ``(?=\\n?\\Z)``, which is what ``$`` means to ``re.search`` (used by
  ``jsonschema``); fastjsonschema would turn it into ``\\Z``, so ``"1\\n"`` would no longer match
  ``^[0-9]+$``. A ``$`` anywhere else stops the build.

The code fastjsonschema writes imports its two exception classes from ``fastjsonschema``; they are
replaced by two plain classes of the same names defined in the module (the library's classes record the
message, value, path, definition and rule of every failed branch: ~30 % of the validation time, since
``if``/``anyOf``/``not`` branches fail by raising; docs/performance.md), so the module imports nothing
but ``re`` and ``decimal``. fastjsonschema is pinned in the ``dev`` extra: another version may write other code, and
``--check`` would then report the module as out of date.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "ddlc" / "frontend" / "_validators_generated.py"

# Keywords whose draft-7 implementation in fastjsonschema is the 2020-12 one (after the rewrites above),
# each checked against jsonschema by tests/test_schema_validators.py.
KEYWORDS = frozenset({
    "type", "const", "enum", "pattern", "required", "properties", "additionalProperties",
    "items", "minItems", "allOf", "anyOf", "not", "if", "then", "else", "$ref",
})
# Keywords that never affect validity.
ANNOTATIONS = frozenset({
    "$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default",
    "deprecated", "readOnly", "writeOnly",
})
_PLAIN_NOTES = ANNOTATIONS - {"$schema", "$id", "$defs"}  # beside $ref, these need no allOf
_ONE = frozenset({"items", "not", "if", "then", "else", "additionalProperties"})
_MANY = frozenset({"allOf", "anyOf"})
_NAMED = frozenset({"properties", "$defs"})
_DATA = frozenset({"const", "enum", "examples", "default"})  # values, not schemas: never rewritten
_DOLLAR = r"(?=\n?\Z)"  # what an unescaped $ means to re.search without re.MULTILINE

_LIBRARY_IMPORT = "from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException\n"
_OWN_CLASSES = '''\


class JsonSchemaValueException(ValueError):
    """A value fails a (sub)schema: control flow of the checks below, never shown to a user."""


class JsonSchemaValuesException(ValueError):
    """Only raised when errors are collected (not here); caught beside the other one."""

'''


class Unsupported(Exception):
    """The schemas use something this generator does not translate faithfully."""


def _schemas() -> tuple[dict[str, Any], str]:
    sys.path.insert(0, str(ROOT))
    from ddlc.frontend.grammar_files import ROOT_ID, load_schemas

    return load_schemas(), ROOT_ID


# --------------------------------------------------------------------------- vetting


def _resolve(schemas: dict[str, Any], uri: str) -> Any:
    doc_uri, fragment = urldefrag(uri)
    if doc_uri not in schemas:
        raise Unsupported(f"$ref {uri!r}: no schema with that $id")
    node = schemas[doc_uri]
    if fragment == "":
        return node
    if not fragment.startswith("/"):
        raise Unsupported(f"$ref {uri!r}: only JSON pointers are supported (no anchors)")
    for part in fragment[1:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise Unsupported(f"$ref {uri!r} does not resolve")
        node = node[part]
    return node


def vet(schemas: dict[str, Any]) -> None:
    """Refuse anything the rewrite + fastjsonschema would not check exactly as jsonschema does."""
    for doc_uri, document in schemas.items():
        stack = [(document, True)]
        while stack:
            schema, at_root = stack.pop()
            if schema is True or schema is False:
                continue
            if not isinstance(schema, dict):
                raise Unsupported(f"{doc_uri}: not a schema: {schema!r}")
            unknown = set(schema) - KEYWORDS - ANNOTATIONS
            if unknown:
                raise Unsupported(f"{doc_uri}: keyword(s) {', '.join(sorted(unknown))} not supported")
            if not at_root and ("$id" in schema or "$defs" in schema):
                raise Unsupported(f"{doc_uri}: $id or $defs below a schema file's root")
            for key, sub in schema.items():
                if key in _ONE:
                    if key == "items" and not isinstance(sub, (dict, bool)):
                        raise Unsupported(f"{doc_uri}: items must be one schema (2020-12)")
                    stack.append((sub, False))
                elif key in _MANY:
                    if not isinstance(sub, list) or not sub:
                        raise Unsupported(f"{doc_uri}: {key} must be a non-empty array")
                    stack.extend((each, False) for each in sub)
                elif key in _NAMED:
                    if not isinstance(sub, dict):
                        raise Unsupported(f"{doc_uri}: {key} must be an object")
                    stack.extend((each, False) for each in sub.values())
                elif key == "$ref":
                    _resolve(schemas, urljoin(doc_uri, sub))
                elif key == "pattern":
                    _pattern(sub)


# --------------------------------------------------------------------------- rewriting


def _pattern(pattern: Any) -> str:
    if not isinstance(pattern, str):
        raise Unsupported(f"pattern {pattern!r}")
    body = pattern[:-1] if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    if "$" in body:
        raise Unsupported(f"pattern {pattern!r}: $ other than at the end")
    return body + _DOLLAR if body != pattern else pattern


def rewrite(schema: Any) -> Any:
    """A copy of ``schema`` whose draft-7 meaning (as fastjsonschema compiles it) is its 2020-12 meaning."""
    if not isinstance(schema, dict):
        return copy.deepcopy(schema)
    out: dict[str, Any] = {}
    for key, sub in schema.items():
        if key in _DATA:
            out[key] = copy.deepcopy(sub)
        elif key in _NAMED:
            out[key] = {name: rewrite(each) for name, each in sub.items()}
        elif key in _MANY:
            out[key] = [rewrite(each) for each in sub]
        elif key in _ONE:
            out[key] = rewrite(sub)
        elif key == "pattern":
            out[key] = _pattern(sub)
        else:
            out[key] = copy.deepcopy(sub)
    if "const" in out:
        if "enum" in out:  # both: allOf keeps both conditions
            out["allOf"] = [{"enum": [out.pop("const")]}, *out.get("allOf", [])]
        else:
            out["enum"] = [out.pop("const")]
    if "$ref" in out and set(out) - _PLAIN_NOTES - {"$ref"}:
        out["allOf"] = [{"$ref": out.pop("$ref")}, *out.get("allOf", [])]
    return out


# --------------------------------------------------------------------------- generating


def compile_schemas(schemas: dict[str, Any], root: str) -> str:
    """The Python source of a module validating ``schemas[root]`` (all of ``schemas`` registered by $id)."""
    import fastjsonschema

    vet(schemas)
    rewritten = {uri: rewrite(s) for uri, s in schemas.items()}

    def load(uri: str) -> Any:
        if uri not in rewritten:  # vet() saw every $ref resolve: never reached
            raise Unsupported(f"$ref to {uri!r}")
        return copy.deepcopy(rewritten[uri])

    handlers = {scheme: load for scheme in ("http", "https", "file", "urn")}
    code = fastjsonschema.compile_to_code(
        copy.deepcopy(rewritten[root]), handlers=handlers, use_default=False, use_formats=False,
        detailed_exceptions=False,
    )
    if code.count(_LIBRARY_IMPORT) != 1:
        raise Unsupported("fastjsonschema's code no longer imports its exceptions as expected: teach "
                          "tools/gen_validators.py the new form")
    return code.replace(_LIBRARY_IMPORT, _OWN_CLASSES)


def entry_point(root: str) -> str:
    """The name fastjsonschema gives the function that validates the schema ``root``."""
    from fastjsonschema.ref_resolver import RefResolver

    return RefResolver(root, {}, store={}).get_scope_name()


def module_text() -> str:
    import fastjsonschema

    schemas, root = _schemas()
    code = compile_schemas(schemas, root)
    header = (
        f'"""Validators of the JSON Schemas in grammars/, generated by ``python -m tools.gen_validators`` with\n'
        f"fastjsonschema {fastjsonschema.VERSION}: do not edit (tests/test_schema_validators.py fails when this file\n"
        "is not what the tool writes from the schemas).\n\n"
        ":func:`validate` returns its argument when it is valid and raises one of :data:`INVALID` when not,\n"
        "at the first violation, without saying much: :mod:`ddlc.frontend.schema` asks ``jsonschema`` for the\n"
        'full list of violations of an invalid document.\n"""\n'
        "# fmt: off\n# ruff: noqa\n# flake8: noqa\n"
    )
    footer = (
        "\n\n# ---- added by tools/gen_validators.py\n"
        f"validate = {entry_point(root)}\n"
        "INVALID = (JsonSchemaValueException, JsonSchemaValuesException)\n"
    )
    return header + code.rstrip("\n") + footer


def main() -> int:
    check = "--check" in sys.argv
    text = module_text()
    if OUT.exists() and OUT.read_text("utf-8") == text:
        return 0
    if check:
        print(f"out of date (run `python -m tools.gen_validators`): {OUT.relative_to(ROOT)}")
        return 1
    OUT.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
