"""The library's entry points take every option as a typed keyword argument (help() and editors list
them; mypy catches a typo) and stay in step with Options."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

import ddlc
from ddlc import api

DOC = '{"fmt": "ALTER SCHEMA %{identity}I RENAME TO %{newname}I", "newname": "sales_old", "identity": "sales"}'


@pytest.mark.parametrize("fn", [api.translate, api.translate_many])
def test_keyword_arguments_are_the_options(fn):
    params = inspect.signature(fn).parameters
    # the options every target shares are typed keywords; a target's own options (declared on its backend
    # class: issue 21) come as <target>_<option> keywords, checked by the declaration
    options = [f.name for f in dataclasses.fields(api.Options) if f.name != "target_options"]
    named = [n for n, p in params.items() if p.kind is p.KEYWORD_ONLY and n not in ("state", "options")]
    assert named == options
    assert params["target_options"].kind is inspect.Parameter.VAR_KEYWORD
    from ddlc.backends import backend_class, target_names

    declared = [kw for t in target_names() for kw in backend_class(t).option_keywords()]
    assert declared == ["spark_catalog", "spark_partitioning", "spark_column_mapping", "spark_varchar",
                        "spark_constraints"]
    assert "Targets: ``gaussdb``" in fn.__doc__ and all(f"``{o}``" in fn.__doc__ for o in options + declared)
    hints = typing.get_type_hints(fn)
    assert hints["target"] is str  # any registered target (tests/test_fourth_target.py)
    assert typing.get_args(hints["on_unsupported"]) == api.ON_UNSUPPORTED
    assert typing.get_args(hints["mode"]) == api.MODES


def test_typed_calls_work_and_typos_fail():
    assert ddlc.translate(DOC, "postgres", schema_map={"sales": "x"}).sql == "ALTER SCHEMA x RENAME TO sales_old;\n"
    opts = api.Options.of(schema_map={"sales": "y"})
    assert ddlc.translate(DOC, "postgres", options=opts).sql == "ALTER SCHEMA y RENAME TO sales_old;\n"
    with pytest.raises(TypeError):
        ddlc.translate(DOC, "postgres", mdoe="raw")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="mode must be one of"):
        ddlc.translate(DOC, "postgres", mode="rwa")  # type: ignore[arg-type]
