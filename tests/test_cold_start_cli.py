"""Cold start of ``ddlc check`` (issue 26 item 4): the commands that live in their own modules are imported when
named, listed or completed, never at start-up, and the command line behaves as when all were registered at import
(help, completion, "Did you mean", every command's own help)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "ddl" / "sales_schema.json"
ALL = ["apply", "check", "completion", "explain", "format", "pipeline", "replay", "targets", "translate", "validate"]
ELSEWHERE = ("ddlc.cli.apply", "ddlc.cli.check", "ddlc.cli.pipeline", "ddlc.cli.replay")


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)


def test_check_imports_no_other_command_module():
    code = ("import sys, json\n"
            "sys.argv = ['ddlc', 'check', '--no-config', '--targets', 'postgres,spark', sys.argv[1]]\n"
            "from ddlc.cli import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
            "print(json.dumps([code, sorted(m for m in sys.modules if m.startswith('ddlc.cli.'))]))\n")
    p = _python(code, str(SAMPLE))
    code, modules = json.loads(p.stdout.splitlines()[-1])
    assert code == 0, p.stderr
    assert "ddlc.cli.check" in modules
    assert not {"ddlc.cli.apply", "ddlc.cli.pipeline", "ddlc.cli.replay"} & set(modules)


def test_importing_the_cli_imports_no_command_module():
    p = _python("import sys, ddlc.cli\nprint(sorted(m for m in sys.modules if m.startswith('ddlc.cli.')))")
    assert p.returncode == 0, p.stderr
    assert not set(eval(p.stdout)) & set(ELSEWHERE)  # noqa: S307 - a list of names printed above


def test_the_group_lists_and_finds_every_command():
    code = ("import click, json\nfrom ddlc.cli import cli\n"
            "ctx = click.Context(cli)\n"
            "names = cli.list_commands(ctx)\n"
            "found = {n: cli.get_command(ctx, n).name for n in names}\n"
            "print(json.dumps([names, found, sorted(cli.commands)]))\n")
    p = _python(code)
    names, found, loaded = json.loads(p.stdout)
    assert names == ALL and found == {n: n for n in ALL} and loaded == ALL


def test_help_is_the_same_loaded_lazily_or_all_at_once():
    """``ddlc --help`` and each command's help, from a fresh import, equal the same with every command loaded
    first (what registering them all at import gave)."""
    code = ("import click, json, sys\nfrom click.testing import CliRunner\nfrom ddlc.cli import cli\n"
            "if sys.argv[1] == 'eager':\n"
            "    ctx = click.Context(cli)\n"
            "    for n in ['check', 'format', 'replay', 'pipeline', 'apply']:\n"
            "        cli.get_command(ctx, n)\n"
            "out = {}\n"
            "for args in [['--help'], ['chek'], ['nosuch'], ['pipelin']] + [[n, '--help'] for n in sys.argv[2:]]:\n"
            "    r = CliRunner().invoke(cli, args, terminal_width=100)\n"
            "    out[' '.join(args)] = [r.exit_code, r.output]\n"
            "print(json.dumps(out))\n")
    lazy = _python(code, "lazy", *ALL)
    eager = _python(code, "eager", *ALL)
    assert lazy.returncode == 0 and eager.returncode == 0, lazy.stderr + eager.stderr
    a, b = json.loads(lazy.stdout), json.loads(eager.stdout)
    assert a == b
    assert "Did you mean 'check'?" in a["chek"][1] and "Did you mean 'pipeline'?" in a["pipelin"][1]
    assert all(f"  {n} " in a["--help"][1] for n in ALL)


def test_completion_lists_every_command():
    env = {**os.environ, "_DDLC_COMPLETE": "bash_complete", "COMP_WORDS": "ddlc ", "COMP_CWORD": "1"}
    p = subprocess.run([sys.executable, "-m", "ddlc"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert p.stdout.split() == [f"plain,{n}" for n in ALL]
    env.update(COMP_WORDS="ddlc p", COMP_CWORD="1")
    p = subprocess.run([sys.executable, "-m", "ddlc"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert p.stdout.split() == ["plain,pipeline"]
