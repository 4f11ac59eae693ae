"""Issue 26 item 3, the compiled-core experiment: compile a COPY of ddlc's modules in place with Cython 3
(pure-Python mode: the sources as they are, no type declarations), to measure it against the pure tree.
Never run it in a working tree you edit: the ``.so`` files take precedence over the ``.py`` files.

    d=$(mktemp -d) && git archive HEAD | tar -x -C "$d" && cp bench/*.py "$d/bench/"
    python3 -m venv "$d/.venv" && "$d/.venv/bin/pip" install -q -e "$d[dev]" "cython>=3.0,<3.2"
    (cd "$d" && .venv/bin/python bench/cython_build.py build_ext --inplace -j 2)     # ~20 min on 2 cores
    (cd "$d" && .venv/bin/python bench/same_outputs.py --compare BASE.json)           # the same outputs
    (cd "$d" && .venv/bin/python bench/bench_ratio.py --vs /path/to/pure/export --corpora unique,varied)

``CY_ONLY=ddlc/compiler.py,ddlc/ir/base.py`` compiles only those. Both directives below are required:
``annotation_typing=False`` (``lazyre.compile(flags: int)`` is handed ``re.I``, a subclass Cython refuses
for an annotated ``int``) and ``binding=True`` (``ir/base.py`` and ``sql/pgparse.py`` install functions as
methods; ``api.py`` sets a function's ``__doc__``). Figures: docs/performance.md, "Throughput round 6".
"""

from __future__ import annotations

import os

from Cython.Build import cythonize
from Cython.Build.Dependencies import default_create_extension
from setuptools import setup


def _extension(template, kwds):  # type: ignore[no-untyped-def]
    kwds["extra_compile_args"] = ["-g0"]  # (no debug information: a third of the build time)
    return default_create_extension(template, kwds)


ONLY = [p for p in os.environ.get("CY_ONLY", "").split(",") if p]

setup(
    name="ddlc-cython-experiment",
    ext_modules=cythonize(
        ONLY or ["ddlc/**/*.py"],
        exclude=["ddlc/__main__.py"],  # `python -m ddlc` needs its code object
        compiler_directives={"language_level": 3, "binding": True, "annotation_typing": False},
        nthreads=2,
        quiet=True,
        create_extension=_extension,
    ),
)
