"""What a pipeline run can fail with, and the summary's format name (shared by :mod:`.run` and :mod:`.outputs`)."""

from __future__ import annotations

__all__ = ["PipelineError", "CheckFailed", "SUMMARY_FORMAT"]

SUMMARY_FORMAT = "ddlc-pipeline-summary"


class PipelineError(Exception):
    """A run that could not start (bad inputs, options or state): nothing was written."""


class CheckFailed(PipelineError):
    """The counts do not add up: a record was lost or doubled. Nothing was committed."""
