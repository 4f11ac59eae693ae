"""Real database engines started by the test suite itself (no external services)."""
