"""A fourth target, declared in this test module only (issue 21: no file of the package is edited).

Registering the class is all it takes for it to be a ``--to`` choice of every command, a library
target (``translate``, ``translate_many``, ``check``), with its own options as library keywords and
flags made from its declaration, and a column of the support matrix.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ddlc
from ddlc.backends import backend_class, register, target_names, unregister
from ddlc.backends.base import Backend, Dialect, Emitted, OptionKind, TargetOption, line_comment
from ddlc.backends.coverage import writes_whole
from ddlc.backends.writer import pg_ident, pg_literal
from ddlc.ir import statement_classes
from ddlc.ir.rules import Refusal

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "fixtures" / "cases" / "drop" / "table-if-exists-cascade" / "input.json"


@writes_whole  # every statement, its subcommands included, is written as one piece (coverage.check_nodes)
def _echo(n, e):  # pragma: no cover - the backend's emit writes every statement itself
    return []


class EchoBackend(Backend):
    """Writes the IR class and the object of each statement: ``ECHO Drop public.orders``."""

    name = "echo"
    title = "Echo (a test target)"
    dialect = Dialect("echo", pg_ident, pg_literal, line_comment)
    emitters = {c: _echo for c in statement_classes() if c.__name__ != "CreateEvent"}
    refused = {c: Refusal(c, "DDLC-W999", "echo has no events") for c in statement_classes()
               if c.__name__ == "CreateEvent"}
    options = (
        TargetOption("style", OptionKind.CHOICE, "plain", ("plain", "upper"), help="How to write the words."),
        TargetOption("shout", OptionKind.FLAG, False, help="End each statement with an exclamation mark."),
    )

    def emit(self, stmt, ctx):
        from ddlc.filters import object_of

        text = f"echo {type(stmt).__name__} {object_of(stmt)}"
        st = ctx.settings
        if st.style == "upper":
            text = text.upper()
        return Emitted([text + ("!" if st.shout else "")])


@pytest.fixture
def echo():
    register(EchoBackend)
    try:
        yield EchoBackend
    finally:
        unregister("echo")


def test_a_registered_class_is_a_library_target_with_its_options(echo):
    assert "echo" in target_names() and backend_class("echo") is EchoBackend
    assert ddlc.translate(DOC.read_text(), target="echo").statements == ("echo Drop public.orders",)
    t = ddlc.translate(DOC.read_text(), target="echo", echo_style="upper", echo_shout=True)
    assert t.statements == ("ECHO DROP PUBLIC.ORDERS!",)
    out = list(ddlc.translate_many([DOC.read_text()] * 2, target="echo", echo_style="upper"))
    assert [r.statements for r in out] == [("ECHO DROP PUBLIC.ORDERS",)] * 2
    with pytest.raises(ValueError, match="echo_style must be one of plain, upper, not 'loud'"):
        ddlc.translate(DOC.read_text(), target="echo", echo_style="loud")
    with pytest.raises(TypeError, match="echo_shout must be True or False"):
        ddlc.translate(DOC.read_text(), target="echo", echo_shout="yes")
    assert ddlc.Options.of(echo_style="upper").echo_style == "upper"
    assert ddlc.Options.of().echo_style == "plain"  # the declared default


def test_it_is_a_cli_choice_with_its_flags(echo):
    from ddlc.cli import cli

    r = CliRunner().invoke(cli, ["translate", "--to", "echo", "--echo-style", "upper", "--echo-shout", str(DOC)])
    assert r.exit_code == 0, r.output
    assert r.stdout == "ECHO DROP PUBLIC.ORDERS!;\n"
    r = CliRunner().invoke(cli, ["translate", "--help"])
    assert "--echo-style [plain|upper]" in r.output and "echo" in r.output
    r = CliRunner().invoke(cli, ["targets"])
    assert "echo: Echo (a test target)" in r.output and "--echo-shout" in r.output
    r = CliRunner().invoke(cli, ["check", "--no-config", "--targets", "echo,postgres", "--format", "json", str(DOC)])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout[: r.stdout.rindex("}") + 1])
    assert report["targets"] == ["echo", "postgres"] and report["passed"]


def test_it_is_a_column_of_the_support_matrix(echo):
    from ddlc import support

    assert "echo" in support.targets()
    rows = dict(support.matrix_rows())
    assert rows["`DROP`"]["echo"] == "✅" and rows["`CREATE EVENT`"]["echo"] == "❌"


def test_gone_when_unregistered():
    from ddlc.cli import cli

    assert "echo" not in target_names()
    r = CliRunner().invoke(cli, ["translate", "--to", "echo", str(DOC)])
    assert r.exit_code == 2 and "'echo' is not one of" in r.output
    with pytest.raises(TypeError, match="unknown option"):
        ddlc.translate(DOC.read_text(), target="postgres", echo_style="upper")


def test_a_target_that_lacks_a_statement_class_is_refused_when_the_class_is_built():
    with pytest.raises(TypeError, match="no emitter and no refusal for"):
        class Partial(Backend):  # noqa: F841
            name = "partial"
            dialect = EchoBackend.dialect
            emitters = {}
    with pytest.raises(TypeError, match="subcommands neither handled nor dropped"):
        class NoSubcommands(Backend):  # noqa: F841 - its ALTER emitter says nothing of the subcommands
            name = "nosubs"
            dialect = EchoBackend.dialect
            emitters = {c: (lambda n, e: []) for c in EchoBackend.emitters}
            refused = EchoBackend.refused
    with pytest.raises(TypeError, match="default 'x' is not a choice"):
        class BadOption(EchoBackend):  # noqa: F841
            name = "badopt"
            options = (TargetOption("style", OptionKind.CHOICE, "x", ("plain",)),)
    with pytest.raises(ValueError, match="already registered"):
        class Postgres2(EchoBackend):
            name = "postgres"
        register(Postgres2)
