"""The README's examples are real: console blocks are run, python blocks are doctests."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

README = (ROOT / "README.md").read_text("utf-8")


def _console_examples():
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
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


EXAMPLES = list(_console_examples())


@pytest.mark.parametrize("cmd,expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_console_example(cmd, expected):
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    p = subprocess.run(cmd, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    lines = (p.stdout + p.stderr).splitlines()
    lines = [x for x in lines if not x.startswith(("note:", "info:"))]
    assert "\n".join(lines) == expected


def test_python_examples():
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README[{i}]", "README.md", 0)
        runner.run(test)
    assert runner.failures == 0
