"""Fixtures of the job-operations tests: real local Spark for the jobs run in this process, real
driver processes for the commands' end-to-end tests."""

from __future__ import annotations

from tests._helpers.jobs import job_temp_dir, make_env  # noqa: F401 - fixtures of these tests
from tests._helpers.commands import drivers  # noqa: F401 - fixture of these tests
