"""Fixtures of the fault tests: the job fixtures the integration tests use."""

from __future__ import annotations

from tests._helpers.jobs import job_temp_dir, make_env  # noqa: F401 - fixtures of these tests
