"""The README's examples, and those of the documents the README's reference moved to, are real: console
blocks are run, python blocks are doctests."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

# README.md and the documents that hold its reference (every command shown in them must work)
DOCUMENTS = ["README.md", "docs/cli.md", "docs/targets.md", "docs/library.md", "docs/check.md",
             "docs/replay.md", "docs/decoding-logs.md"]
TEXTS = {name: (ROOT / name).read_text("utf-8") for name in DOCUMENTS}
README = TEXTS["README.md"]


def _console_examples(text):
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        cmd, out = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if cmd is not None:
                    yield cmd, "\n".join(out)
                cmd, out = line[2:], []
            else:
                out.append(line)
        if cmd is not None:
            yield cmd, "\n".join(out)


EXAMPLES = [(name, cmd, out) for name in DOCUMENTS for cmd, out in _console_examples(TEXTS[name])]


def test_the_readme_and_each_document_have_examples():
    for name in DOCUMENTS:
        assert "```console\n$ ddlc " in TEXTS[name] or "```python\n>>> " in TEXTS[name], name


@pytest.mark.parametrize("name,cmd,expected", EXAMPLES, ids=[f"{n}: {c}" for n, c, _ in EXAMPLES])
def test_console_example(name, cmd, expected):
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    p = subprocess.run(cmd, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    lines = (p.stdout + p.stderr).splitlines()
    lines = [x for x in lines if not x.startswith(("note:", "info:"))]
    assert "\n".join(lines) == expected


@pytest.mark.parametrize("name", [n for n in DOCUMENTS if "```python\n>>> " in TEXTS[n]])
def test_python_examples(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name files relative to the checkout
    blocks = re.findall(r"```python\n(.*?)```", TEXTS[name], re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"{name}[{i}]", name, 0)
        runner.run(test)
    assert runner.failures == 0


def test_readme_has_python_examples():
    assert re.findall(r"```python\n>>> ", README)
