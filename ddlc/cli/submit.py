"""The script ``spark-submit`` runs: ``spark-submit [options] $(ddlc pipeline script) run --input ...``.

Under spark-submit the master and the cluster's settings are spark-submit's; the arguments after
the script are those of ``ddlc pipeline`` (``run --input ... --output ...``). ddlc must be
installed on the executors too (or shipped with ``--py-files``). It is a command line, so it sits with
the command line, above :mod:`ddlc.pipeline` (which never imports it).
"""

from ddlc.cli.pipeline import pipeline

if __name__ == "__main__":
    pipeline(prog_name="ddlc pipeline")
