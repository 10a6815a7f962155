"""The stateful, model-based test of issue 8: keepers play card nights at random through
the test client (tests/web/stateful_model.py says what they do and what must hold).

Bounded in the normal suite (on SQLite, and on PostgreSQL when
SCOREKEEPER_TEST_DATABASE_URL is set); ``SCOREKEEPER_STATEFUL_EXAMPLES=500`` runs a longer
profile. A failure prints the steps and a ``@reproduce_failure`` blob to replay it."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.web.stateful_model import machine_for

EXAMPLES = int(os.environ.get("SCOREKEEPER_STATEFUL_EXAMPLES", "0") or 0)
STEPS = int(os.environ.get("SCOREKEEPER_STATEFUL_STEPS", "0") or 0)


@pytest.mark.slow
def test_keepers_at_random_cannot_corrupt_a_number(app) -> None:
    run_state_machine_as_test(
        machine_for(app),
        settings=settings(
            max_examples=EXAMPLES or 15,
            stateful_step_count=STEPS or 25,
            deadline=None,
            derandomize=False,
            print_blob=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            database=None,
        ),
    )
