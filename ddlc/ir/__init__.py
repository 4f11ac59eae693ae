"""Typed, immutable intermediate representation of DDL statements."""
