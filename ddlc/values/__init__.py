"""openGauss value semantics: what the server makes of a value written in a partition bound.

The ``START/END/EVERY`` expander (:mod:`ddlc.passes.expand_partitions`) must produce exactly the
bounds the database computes, so the rules it computes with are the server's, re-stated here and kept
apart from the passes that use them:

* :mod:`.pg_datetime` -- dates, times and timestamps as the server stores them (microseconds, Julian
  days, time zones), and their output forms;
* :mod:`.pg_datetime_input` -- the server's datetime input parser (``date_in``, ``timestamp_in``,
  ``timestamptz_in``);
* :mod:`.pg_interval` -- interval input and interval arithmetic (``interval_in``, month/day/usecond
  parts, adding an interval to a timestamp);
* :mod:`.partition_values` -- a partition key's domain: casting a bound as written to the key's type,
  range checks before any arithmetic, the next value after ``EVERY``, the text the server prints.

Nothing here parses SQL or knows a target; it reads the IR's bound values and nothing above the IR.
"""
