"""What a pipeline run may do to its output directory (issue 20, item 2: a rerun destroyed earlier outputs).

The rule (:func:`ddlc.pipeline.outputs.check_output`, before any Spark work): a directory that does not
exist, is empty or holds only an unfinished run's leftovers (``.ddlc-tmp-*`` staging directories, ddlc's
files without a ``summary.json``) is accepted; a committed run (``summary.json``) is refused unless
``overwrite`` (``--overwrite``); a file ddlc does not write is refused always, and never removed.

The commit is tested without Spark, with a kill after every step (in-process by an injected failure, and
by a real SIGKILL in a subprocess): afterwards either the earlier committed set is whole (its
``summary.json`` lists exactly the ddlc files there, each with that run's bytes) or there is no
``summary.json`` and running again completes the new set. A few runs on the test session's Spark check
the reproduction: a second run into the same directory (``--state``) is refused with exit 2 and leaves
every earlier byte, and ``--overwrite --to postgres`` after ``--to postgres,spark`` leaves no ``spark.sql``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from ddlc.pipeline import outputs
from ddlc.pipeline.outputs import (SUMMARY, OutputRefused, check_output, commit, commit_steps, ddlc_files,
                                   staging)
from ddlc.pipeline.run import SUMMARY_FORMAT, PipelineError


def tree(d: Path) -> dict[str, bytes | None]:
    """Every entry under ``d`` (recursively): the bytes of each file, None for a directory, a link's target."""
    out: dict[str, bytes | None] = {}
    for p in sorted(d.rglob("*")):
        if p.is_symlink():
            out[str(p.relative_to(d))] = b"-> " + os.readlink(p).encode()
        else:
            out[str(p.relative_to(d))] = None if p.is_dir() else p.read_bytes()
    return out


def body(tag: str, name: str) -> bytes:
    return f"{tag}:{name}\n".encode()


def stage(out: Path, targets: list[str], tag: str) -> tuple[str, list[str]]:
    """A run's staged files as :func:`run` stages them (``summary.json`` last, listing the others)."""
    tmp = staging(str(out))
    names = [f"{t}.sql" for t in targets] + ["results.parquet", "quarantine.parquet"]
    for n in names:
        Path(tmp, n).write_bytes(body(tag, n))
    summary = {"format": SUMMARY_FORMAT, "version": 1, "outputs": names, "tag": tag}
    Path(tmp, SUMMARY).write_bytes(orjson.dumps(summary))
    return tmp, [*names, SUMMARY]


def committed(out: Path, targets: list[str], tag: str) -> None:
    tmp, names = stage(out, targets, tag)
    commit(tmp, str(out), names, overwrite=True)


def ddlc_entries(out: Path) -> set[str]:
    return {n for n in os.listdir(out) if n in ddlc_files()}


def assert_whole(out: Path, tag: str | None = None) -> str:
    """``out`` holds a committed set: its summary lists exactly the ddlc files there, each of its run.
    Returns the run's tag."""
    summary = json.loads((out / SUMMARY).read_text())
    assert tag is None or summary["tag"] == tag
    assert ddlc_entries(out) == {*summary["outputs"], SUMMARY}
    for n in summary["outputs"]:
        assert (out / n).read_bytes() == body(summary["tag"], n), n
    return summary["tag"]


# ---- the rule -------------------------------------------------------------------------------------------------
def make(d: Path, *entries: str) -> None:
    """``name/``: a directory; ``a/b``: a file in one; ``summary.json``: ddlc's summary; ``name=text``: a
    file holding text; ``name->target``: a symbolic link; else a file."""
    for e in entries:
        if e.endswith("/"):
            (d / e).mkdir()
        elif "->" in e:
            name, target = e.split("->")
            (d / name).symlink_to(d.parent / target)
        elif "=" in e:
            name, text = e.split("=", 1)
            (d / name).write_text(text)
        elif e == SUMMARY:
            (d / SUMMARY).write_bytes(orjson.dumps({"format": SUMMARY_FORMAT, "outputs": []}))
        else:
            (d / e).parent.mkdir(exist_ok=True)
            (d / e).write_text("x")


ACCEPTED = {
    "empty": (),
    "a killed run's staging": (".ddlc-tmp-x1/postgres.sql",),
    "an unfinished commit": ("postgres.sql", "spark.sql", "results.parquet", ".ddlc-tmp-y/"),
}
COMMITTED = {
    "a committed run": ("postgres.sql", "results.parquet", SUMMARY),
    "a committed run's summary alone": (SUMMARY,),
    "a committed run and a killed run's staging": ("gaussdb.sql", SUMMARY, ".ddlc-tmp-z/"),
}
FOREIGN = {  # what is in the directory, and the name the refusal says
    "a file of the user's": (("notes.txt",), "notes.txt"),
    "beside an unfinished run": (("postgres.sql", "x.sql"), "x.sql"),
    "beside a committed run": ((SUMMARY, "keep.csv"), "keep.csv"),
    "a directory": (("data/",), "data/"),
    "a hidden file": ((".DS_Store",), ".DS_Store"),
    "a summary.json that is not ddlc's": (('summary.json={"rows": 3}',), SUMMARY),
    "a broken summary.json": (('summary.json={"format": "ddlc-pip',), SUMMARY),
    "a ddlc name that is a directory": (("results.parquet/",), "results.parquet/"),
    "a ddlc name that is a link": (("postgres.sql->elsewhere.sql",), "postgres.sql"),
    "a staging name that is a file": ((".ddlc-tmp-z",), ".ddlc-tmp-z"),
}


def test_a_directory_that_does_not_exist_is_accepted_and_not_created(tmp_path):
    check_output(str(tmp_path / "new"))
    check_output(str(tmp_path / "new"), overwrite=True)
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("case", list(ACCEPTED))
def test_empty_or_unfinished_is_accepted_without_overwrite(tmp_path, case):
    out = tmp_path / "out"
    out.mkdir()
    make(out, *ACCEPTED[case])
    before = tree(out)
    check_output(str(out))
    check_output(str(out), overwrite=True)
    assert tree(out) == before  # the check changes nothing


@pytest.mark.parametrize("case", list(COMMITTED))
def test_a_committed_run_is_refused_unless_overwrite(tmp_path, case):
    out = tmp_path / "out"
    out.mkdir()
    make(out, *COMMITTED[case])
    before = tree(out)
    with pytest.raises(OutputRefused) as e:
        check_output(str(out))
    said = str(e.value)
    assert str(out) in said and SUMMARY in said and "--overwrite" in said and "another --output" in said
    assert isinstance(e.value, PipelineError)  # the CLI's exit 2
    check_output(str(out), overwrite=True)
    assert tree(out) == before


@pytest.mark.parametrize("case", list(FOREIGN))
@pytest.mark.parametrize("overwrite", [False, True])
def test_a_file_ddlc_did_not_write_is_refused_even_with_overwrite(tmp_path, case, overwrite):
    out = tmp_path / "out"
    out.mkdir()
    entries, named = FOREIGN[case]
    make(out, *entries)
    before = tree(out)
    with pytest.raises(OutputRefused) as e:
        check_output(str(out), overwrite=overwrite)
    said = str(e.value)
    assert str(out) in said and named in said and "not a pipeline run's outputs" in said, said
    assert tree(out) == before


def test_an_output_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "out").write_text("x")
    with pytest.raises(OutputRefused, match="not a directory"):
        check_output(str(tmp_path / "out"), overwrite=True)


def test_many_files_are_named_in_part(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for i in range(10):
        (out / f"f{i}").write_text("x")
    with pytest.raises(OutputRefused, match=r"f0, f1, f2, f3, f4, f5 and 4 more"):
        check_output(str(out))


# ---- the commit's steps ---------------------------------------------------------------------------------------
def test_the_steps_old_summary_first_new_files_stale_files_new_summary_last(tmp_path):
    out = tmp_path / "out"
    committed(out, ["postgres", "spark"], "old")
    tmp, names = stage(out, ["postgres"], "new")
    assert commit_steps(str(out), names) == [
        ("unlink", SUMMARY), ("move", "postgres.sql"), ("move", "results.parquet"),
        ("move", "quarantine.parquet"), ("unlink", "spark.sql"), ("move", SUMMARY)]
    # into a new directory: only moves
    assert commit_steps(str(tmp_path / "new"), names) == [("move", n) for n in names]


def test_overwrite_leaves_exactly_the_new_runs_files(tmp_path):
    out = tmp_path / "out"
    committed(out, ["postgres", "spark", "gaussdb"], "old")
    tmp, names = stage(out, ["postgres"], "new")
    commit(tmp, str(out), names, overwrite=True)
    assert sorted(os.listdir(out)) == sorted(names)
    assert assert_whole(out) == "new"


def test_a_run_committed_meanwhile_refuses_the_commit_and_is_left_alone(tmp_path):
    """The check runs again at the commit: a run that committed into the directory while this one worked
    is not replaced (without overwrite); this run's staged files are removed."""
    out = tmp_path / "out"
    check_output(str(out))  # this run starts: the directory is new
    tmp, names = stage(out, ["postgres"], "mine")
    other, other_names = tempfile_stage(out, ["spark"], "theirs")
    commit(other, str(out), other_names)  # another run commits meanwhile
    before = tree(out)
    with pytest.raises(OutputRefused, match="--overwrite"):
        commit(tmp, str(out), names)
    after = tree(out)
    assert {k: v for k, v in before.items() if not k.startswith(".ddlc-tmp-")} == after
    assert assert_whole(out) == "theirs"


def tempfile_stage(out: Path, targets: list[str], tag: str) -> tuple[str, list[str]]:
    """Staged like :func:`stage`, without removing the other runs' staging directories."""
    import tempfile

    tmp = tempfile.mkdtemp(prefix=".ddlc-tmp-", dir=out)
    names = [f"{t}.sql" for t in targets] + ["results.parquet", "quarantine.parquet"]
    for n in names:
        Path(tmp, n).write_bytes(body(tag, n))
    Path(tmp, SUMMARY).write_bytes(orjson.dumps({"format": SUMMARY_FORMAT, "outputs": names, "tag": tag}))
    return tmp, [*names, SUMMARY]


# ---- a kill after every step ----------------------------------------------------------------------------------
class Killed(BaseException):
    """Stands for SIGKILL: nothing of the commit runs after it (it is no Exception: nothing catches it)."""


def _before(out: Path, old: str) -> bool:
    """Sets ``out`` up as ``old`` says; True when it holds a committed run."""
    if old == "none":
        return False
    if old == "unfinished":  # a run killed half way through its commit, and a killed run's staging
        out.mkdir()
        for n in ("postgres.sql", "spark.sql", "results.parquet"):
            (out / n).write_bytes(body("dead", n))
        (out / ".ddlc-tmp-dead").mkdir()
        (out / ".ddlc-tmp-dead" / "gaussdb.sql").write_bytes(b"x")
        return False
    committed(out, old.split(","), "old")
    return True


SCENARIOS = [  # (what out holds, the new run's targets)
    ("none", "postgres,spark"),
    ("postgres,spark", "postgres"),  # the case: spark.sql must go
    ("postgres", "postgres,spark,gaussdb"),
    ("gaussdb,spark", "postgres"),
    ("unfinished", "postgres"),
]


def _steps_of(tmp_path: Path, old: str, new: str) -> int:
    probe = tmp_path / "probe"
    _before(probe, old)
    _, names = stage(probe, new.split(","), "new")
    return len(commit_steps(str(probe), names))


def _after_kill(out: Path, new: list[str], overwrite: bool) -> None:
    """After a kill: a summary lists exactly the files of its run (the old, or the new when the kill came
    after the last step), or there is none and a rerun without --overwrite completes the new set; a
    rerun (with the killed run's own flag, or --overwrite after a completed one) leaves exactly it."""
    if (out / SUMMARY).exists():
        tag = assert_whole(out)
        if tag == "old":  # nothing of the old set touched: refused again without --overwrite
            with pytest.raises(OutputRefused):
                check_output(str(out))
        else:  # the commit ended; only its staging directory was left
            assert tag == "new"
            assert all(n.startswith(".ddlc-tmp-") for n in set(os.listdir(out)) - ddlc_entries(out))
            overwrite = True
    else:
        check_output(str(out))  # unfinished: accepted without --overwrite
        overwrite = False
    tmp, names = stage(out, new, "new")
    commit(tmp, str(out), names, overwrite=overwrite)
    assert sorted(os.listdir(out)) == sorted(names)  # no staging directory, no stale file left
    assert assert_whole(out) == "new"


@pytest.mark.parametrize(("old", "new"), SCENARIOS)
def test_killed_after_any_step_of_the_commit_the_old_set_is_whole_or_a_rerun_completes(tmp_path, monkeypatch,
                                                                                        old, new):
    n = _steps_of(tmp_path, old, new)
    assert n >= 4
    for k in range(n + 1):
        out = tmp_path / f"out{k}"
        had_summary = _before(out, old)

        def die(done: int, k: int = k) -> None:
            if done == k:
                raise Killed

        monkeypatch.setattr(outputs, "_after_step", die)
        tmp, names = stage(out, new.split(","), "new")
        with pytest.raises(Killed):
            commit(tmp, str(out), names, overwrite=had_summary)
        monkeypatch.undo()
        if k == 0 and had_summary:
            assert assert_whole(out) == "old"
        if 0 < k < n:
            assert not (out / SUMMARY).exists(), k
        _after_kill(out, new.split(","), had_summary)


_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from test_pipeline_outputs import stage
from ddlc.pipeline.outputs import commit
out = Path(sys.argv[1])
tmp, names = stage(out, sys.argv[2].split(","), "new")
commit(tmp, str(out), names, overwrite=sys.argv[3] == "1")
"""


@pytest.mark.parametrize(("old", "new"), [("postgres,spark", "postgres"), ("unfinished", "postgres,gaussdb")])
def test_killed_by_sigkill_after_any_step_of_the_commit(tmp_path, old, new):
    """The same with a real SIGKILL (``DDLC_PIPELINE_CRASH_AFTER``, as the Spark kill test uses) in a process
    that only commits."""
    n = _steps_of(tmp_path, old, new)
    code = _CHILD.format(tests=str(Path(__file__).parent))
    for k in range(n + 1):
        out = tmp_path / f"out{k}"
        had_summary = _before(out, old)
        out.mkdir(exist_ok=True)
        p = subprocess.run([sys.executable, "-c", code, str(out), new, "1" if had_summary else "0"],
                           env={**os.environ, "DDLC_PIPELINE_CRASH_AFTER": str(k)}, capture_output=True)
        assert p.returncode == -signal.SIGKILL, p.stderr.decode()
        if 0 < k < n:
            assert not (out / SUMMARY).exists(), k
        _after_kill(out, new.split(","), had_summary)


# ---- on Spark: the reproduction -------------------------------------------------------------------------------
def _cli(monkeypatch, spark, *args: str):
    """``ddlc pipeline run ARGS`` in this process, on the test session's Spark."""
    import ddlc.pipeline.run as pipeline_run
    from ddlc.cli.pipeline import pipeline

    monkeypatch.setattr(pipeline_run, "session", lambda master=None, ui=False, verbose=False: spark.session)
    return CliRunner().invoke(pipeline, ["run", *args])


def test_a_rerun_is_refused_and_overwrite_leaves_only_the_new_runs_files(spark, tmp_path, monkeypatch):
    from test_pipeline import log_rows, rows_jsonl

    log = tmp_path / "log.jsonl"
    log.write_bytes(rows_jsonl(log_rows(1)))
    out, state = tmp_path / "out", tmp_path / "s.json"
    args = ["--input", str(log), "--to", "postgres,spark", "--output", str(out), "--state", str(state)]
    r = _cli(monkeypatch, spark, *args)
    assert isinstance(r.exception, SystemExit), r.exc_info  # ended as the CLI ends, not by an exception
    assert r.exit_code == 1, r.output  # the shape no version has is quarantined
    first, saved = tree(out), state.read_bytes()
    assert set(first) == {"postgres.sql", "spark.sql", "results.parquet", "quarantine.parquet", SUMMARY}
    assert first["postgres.sql"] and first["spark.sql"]
    assert json.loads(first[SUMMARY])["outputs"] == ["postgres.sql", "spark.sql", "results.parquet",
                                                     "quarantine.parquet"]
    # the same command again (everything already seen): refused, every byte kept, the state too
    p = subprocess.run([sys.executable, "-m", "ddlc", "pipeline", "run", *args], capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert str(out) in p.stderr and SUMMARY in p.stderr and "--overwrite" in p.stderr, p.stderr
    assert tree(out) == first and state.read_bytes() == saved
    # and refused before any Spark work (no session asked for)
    import ddlc.pipeline.run as pipeline_run

    monkeypatch.setattr(pipeline_run, "session", lambda *a, **k: pytest.fail("Spark started"))
    with pytest.raises(OutputRefused):
        pipeline_run.run([str(log)], str(out), ["postgres", "spark"], state=str(state))
    monkeypatch.undo()
    assert tree(out) == first and state.read_bytes() == saved
    # --overwrite --to postgres: exactly the new run's files, no spark.sql left
    r = _cli(monkeypatch, spark, "--input", str(log), "--to", "postgres", "--output", str(out), "--overwrite")
    assert isinstance(r.exception, SystemExit) and r.exit_code == 1, r.exc_info
    second = tree(out)
    assert set(second) == {"postgres.sql", "results.parquet", "quarantine.parquet", SUMMARY}
    assert json.loads(second[SUMMARY])["outputs"] == ["postgres.sql", "results.parquet", "quarantine.parquet"]
    assert second["postgres.sql"] == first["postgres.sql"]  # no state: the whole log again
