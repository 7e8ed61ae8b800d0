"""How `make test` spreads the suite over the machine's cores (pytest-xdist, ``-n auto``).

Each test file runs whole on one worker, in its own order, so a module's fixtures (a club built
once for a file's many tests, which later tests of the file read) are built once, as in a
serial run. The tests that time a phone's answer under a flood of requests share one worker
between them, so two floods never run at once and each measures what its own flood costs.

(xdist's own ``--dist loadgroup`` would say this with marks, but it renames the tests' node ids,
which pytest 9 no longer lets a plugin do: this scheduler groups by file instead.)
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

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


def work_unit(nodeid: str) -> str:
    """The unit one worker runs whole: the test's file, or the flood tests' shared one."""
    path = nodeid.split("::", 1)[0]
    return "timed-under-load" if PurePosixPath(path).name in TIMED_UNDER_LOAD else path


@pytest.hookimpl(optionalhook=True)  # only with pytest-xdist, which `make test` runs with -n auto
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "load":  # another --dist asked for by name: xdist's own
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return ByFile(config, log)
