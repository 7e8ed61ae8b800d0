"""The clock's state in the data folder, and what the system says about NTP."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kiosk import clockfile
from kiosk.clock import KEEP, PHONES, ClockState, Reading

PI = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
REAL = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


def millis(moment: datetime) -> str:
    return str(int(moment.timestamp() * 1000))


def test_the_state_survives_a_restart_of_the_services(tmp_path: Path) -> None:
    state = ClockState(
        boot="b",
        offset=timedelta(days=9, seconds=1.5),
        readings=(Reading(PI, REAL),),
        latest=REAL,
        trusted_at=REAL,
        trusted_by=PHONES,
        skew=timedelta(days=9),
    )
    clockfile.save(tmp_path, state)
    assert clockfile.load(tmp_path) == state
    assert [p.name for p in tmp_path.iterdir()] == ["clock.json"]


def test_a_missing_or_damaged_file_is_a_clock_that_knows_nothing(tmp_path: Path) -> None:
    assert clockfile.load(tmp_path) == ClockState()
    for damage in ("", "{", "[]", '{"offset": "soon"}', '{"readings": [[1, 2]]}', '{"latest": "yesterday"}'):
        (tmp_path / "clock.json").write_text(damage)
        assert clockfile.load(tmp_path) == ClockState(), damage


def test_a_phone_sets_the_time_while_the_pi_is_not_synchronised(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    told = clockfile.heard(tmp_path, millis(REAL), PI, flag)
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
        threading.Thread(target=clockfile.heard, args=(tmp_path, millis(REAL + timedelta(seconds=i)), PI, flag))
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
        clockfile.heard(tmp_path, millis(REAL), PI, flag)
        clockfile.heard(tmp_path, millis(REAL + timedelta(minutes=1)), PI + timedelta(minutes=1), flag)
    (record,) = caplog.records
    assert "9 days" in record.getMessage() and "no NTP" in record.getMessage()
