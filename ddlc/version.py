"""The version of ddlc (one place: the package, the CLI and the state files read it)."""

__version__ = "0.1.0"
