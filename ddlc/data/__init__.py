"""Data files shipped with ddlc (keyword tables)."""
