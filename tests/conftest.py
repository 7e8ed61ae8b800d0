"""How `make test` spreads the suite over the machine's cores (pytest-xdist, ``-n auto --dist loadgroup``).

Each test file runs whole on one worker, so a module's fixtures (a club built once for a file's
many tests) are built once, as in a serial run. The tests that time a phone's answer under a
flood of requests share one worker between them, so two floods never run at once and each
measures what its own flood costs, not another test's.
"""

from __future__ import annotations

import pytest

# The files whose tests assert how long a phone waits while scripts flood the server.
TIMED_UNDER_LOAD = frozenset(
    {
        "test_busy.py",
        "test_faults.py",
        "test_flood.py",
        "test_load_server.py",
        "test_pin_race.py",
        "test_refused_late_writes.py",
        "test_refused_writes.py",
        "test_trickle.py",
    }
)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups off the items
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = "timed-under-load" if item.path.name in TIMED_UNDER_LOAD else item.path.stem
        item.add_marker(pytest.mark.xdist_group(group))
