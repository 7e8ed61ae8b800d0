"""The clock's state in the data folder, and what the system says about NTP."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk import clockfile
from kiosk.clock import KEEP, PHONES, QUORUM, ClockState, Reading

PI = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
REAL = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


def millis(moment: datetime) -> str:
    return str(int(moment.timestamp() * 1000))


def test_the_state_survives_a_restart_of_the_services(tmp_path: Path) -> None:
    state = ClockState(
        boot="b",
        offset=timedelta(days=9, seconds=1.5),
        readings=(Reading(PI, REAL, "10.0.0.7"),),
        latest=REAL,
        trusted_at=REAL,
        trusted_by=PHONES,
        skew=timedelta(days=9),
        base=timedelta(hours=1),
        follows=PHONES,
        pending=timedelta(days=70),
    )
    clockfile.save(tmp_path, state)
    assert clockfile.load(tmp_path) == state
    assert [p.name for p in tmp_path.iterdir()] == ["clock.json"]


def test_a_missing_or_damaged_file_is_a_clock_that_knows_nothing(tmp_path: Path) -> None:
    assert clockfile.load(tmp_path) == ClockState()
    for damage in ("", "{", "[]", '{"offset": "soon"}', '{"readings": [[1, 2]]}', '{"latest": "yesterday"}'):
        (tmp_path / "clock.json").write_text(damage)
        assert clockfile.load(tmp_path) == ClockState(), damage


def test_an_old_file_without_addresses_still_loads(tmp_path: Path) -> None:
    (tmp_path / "clock.json").write_text(f'{{"boot": "b", "readings": [["{PI.isoformat()}", "{REAL.isoformat()}"]]}}')
    assert clockfile.load(tmp_path).readings == (Reading(PI, REAL),)


def test_phones_from_three_addresses_set_the_time_while_the_pi_is_not_synchronised(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    for n in range(QUORUM):
        told = clockfile.heard(tmp_path, millis(REAL), PI, flag, f"10.0.0.{n}")
    assert abs(told - REAL) < timedelta(seconds=1)
    # The wall and the owner page read the same time, a minute later by the Pi's clock.
    later, state = clockfile.current(tmp_path, PI + timedelta(minutes=1), flag)
    assert abs(later - (REAL + timedelta(minutes=1))) < timedelta(seconds=1)
    assert state.trusted_by == PHONES


def test_once_ntp_has_synchronised_the_pis_own_clock_counts(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    flag.touch()
    told = clockfile.heard(tmp_path, millis(REAL + timedelta(hours=1)), REAL, flag)
    assert told == REAL
    assert clockfile.current(tmp_path, REAL, flag)[1].trusted_by == "ntp"


def test_sixteen_phones_at_once_lose_no_reading(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    threads = [
        threading.Thread(
            target=clockfile.heard, args=(tmp_path, millis(REAL + timedelta(seconds=i)), PI, flag, f"10.0.0.{i}")
        )
        for i in range(16)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    state = clockfile.load(tmp_path)
    assert len(state.readings) == KEEP
    # Each kept reading is one of the newest nine that arrived: none was overwritten by a race.
    assert len({r.phone for r in state.readings}) == KEEP


def test_the_boot_id_is_this_boots() -> None:
    assert clockfile.boot_id() == Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    assert clockfile.boot_id(Path("/nonexistent")) == ""


def test_a_skew_is_noticed_once_in_the_log(tmp_path: Path, caplog) -> None:
    flag = tmp_path / "synchronized"
    with caplog.at_level("WARNING", logger="kiosk.clockfile"):
        for n in range(QUORUM + 1):
            clockfile.heard(
                tmp_path, millis(REAL + timedelta(minutes=n)), PI + timedelta(minutes=n), flag, f"10.0.0.{n}"
            )
    (record,) = caplog.records
    assert "9 days" in record.getMessage() and "no NTP" in record.getMessage()


def test_ntp_arriving_is_said_once_in_the_log(tmp_path: Path, caplog) -> None:
    flag = tmp_path / "synchronized"
    for n in range(QUORUM):
        clockfile.heard(tmp_path, millis(REAL), PI, flag, f"10.0.0.{n}")
    flag.touch()
    caplog.clear()
    with caplog.at_level("WARNING", logger="kiosk.clockfile"):
        assert clockfile.heard(tmp_path, millis(REAL), PI, flag, "10.0.0.1") == PI
        clockfile.heard(tmp_path, millis(REAL), PI, flag, "10.0.0.2")
    (record,) = caplog.records
    assert "internet time (NTP)" in record.getMessage() and "9 days" in record.getMessage()


def test_the_owner_sets_the_time_unless_the_pi_has_internet_time(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    state = clockfile.set_by_owner(tmp_path, REAL, PI, flag)
    assert clockfile.load(tmp_path) == state and state.trusted_by == "owner"
    assert abs(clockfile.current(tmp_path, PI, flag)[0] - REAL) < timedelta(seconds=1)
    flag.touch()
    with pytest.raises(ValueError):
        clockfile.set_by_owner(tmp_path, REAL, PI, flag)
