"""The kiosk's clock: the phones' median while the Pi has no NTP, never backwards, NTP wins."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import example, given
from hypothesis import strategies as st

from kiosk.clock import EARLIEST, KEEP, LATEST, NTP, PHONES, TOLERANCE, ClockState, Reading, now, observe, phone_reading

BOOT = "boot-1"
# The Pi came up at its last shutdown time: nine days behind the phones.
PI = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
REAL = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
BEHIND = REAL - PI

seconds = st.integers(min_value=-30 * 24 * 3600, max_value=30 * 24 * 3600)
pi_times = st.integers(min_value=0, max_value=400 * 24 * 3600).map(lambda s: PI + timedelta(seconds=s))


def phones_say(state: ClockState, *offsets: timedelta, synchronized: bool = False, boot: str = BOOT) -> ClockState:
    """Phones with these clocks record games a minute apart, while the Pi is not synchronised."""
    for i, offset in enumerate(offsets):
        pi = PI + timedelta(minutes=i)
        state = observe(state, Reading(pi=pi, phone=pi + offset), boot, synchronized)
    return state


def test_one_phone_puts_a_pi_that_is_nine_days_behind_right() -> None:
    state = phones_say(ClockState(), BEHIND + timedelta(seconds=3))
    told, _ = now(state, PI + timedelta(minutes=5), BOOT, synchronized=False)
    assert abs(told - (REAL + timedelta(minutes=5))) < timedelta(seconds=10)
    assert state.trusted_by == PHONES
    assert state.skew > timedelta(days=8)


def test_without_phones_or_ntp_the_pi_is_not_trusted() -> None:
    told, state = now(ClockState(), PI, BOOT, synchronized=False)
    assert told == PI
    assert state.trusted_at is None and state.trusted_by == ""


@given(st.lists(st.tuples(pi_times, st.one_of(st.none(), seconds), st.booleans(), st.sampled_from(["a", "b"]))))
def test_the_clock_never_moves_backwards(steps: list[tuple[datetime, int | None, bool, str]]) -> None:
    # Whatever the Pi's own clock does (fake-hwclock after a reboot, NTP stepping it back)
    # and whatever the phones say, each time handed out is at least the one before.
    state = ClockState()
    last = None
    for pi, phone_offset, synchronized, boot in steps:
        reading = None if phone_offset is None else Reading(pi=pi, phone=pi + timedelta(seconds=phone_offset))
        state = observe(state, reading, boot, synchronized)
        told, state = now(state, pi, boot, synchronized)
        if last is not None:
            assert told >= last
        last = told


@given(
    st.integers(min_value=-10 * 24 * 3600, max_value=10 * 24 * 3600),
    st.lists(st.integers(min_value=0, max_value=30), min_size=2, max_size=KEEP),
    st.lists(seconds, max_size=KEEP),
    st.randoms(use_true_random=False),
)
def test_a_minority_of_wrong_phones_is_ignored(true: int, small: list[int], wild: list[int], rnd) -> None:
    # Phones that agree (within 30 s) outnumber those set by hand, in any order.
    wild = wild[: min(len(small) - 1, KEEP - len(small))]
    offsets = [timedelta(seconds=true + s) for s in small] + [timedelta(seconds=w) for w in wild]
    rnd.shuffle(offsets)
    state = phones_say(ClockState(), *offsets)
    assert abs(state.offset - timedelta(seconds=true)) <= TOLERANCE + timedelta(seconds=30)
    assert state.trusted_by == PHONES


def test_two_phones_that_disagree_change_nothing() -> None:
    state = phones_say(ClockState(), BEHIND)
    before = state.offset
    state = phones_say(state, timedelta(hours=-5))
    assert state.offset == before
    # A third phone settles it.
    state = phones_say(state, BEHIND + timedelta(seconds=20))
    assert abs(state.offset - BEHIND) <= timedelta(seconds=20)


@given(st.lists(seconds, max_size=KEEP), pi_times)
def test_ntp_wins_when_synchronised(offsets: list[int], pi: datetime) -> None:
    state = phones_say(ClockState(), *(timedelta(seconds=s) for s in offsets))
    state = observe(state, Reading(pi=pi, phone=pi + timedelta(days=3)), BOOT, synchronized=True)
    told, state = now(state, pi, BOOT, synchronized=True)
    assert state.offset == timedelta(0)
    assert state.trusted_by == NTP and state.trusted_at == pi
    assert told == pi  # the phones' offset is gone: the Pi's own, synchronised time


def test_ntp_after_phones_that_were_ahead_holds_the_clock_until_it_catches_up() -> None:
    state = phones_say(ClockState(), timedelta(minutes=10))
    ahead, state = now(state, PI, BOOT, synchronized=False)
    told, state = now(state, PI + timedelta(minutes=1), BOOT, synchronized=True)
    assert told == ahead  # never backwards
    told, state = now(state, PI + timedelta(minutes=11), BOOT, synchronized=True)
    assert told == PI + timedelta(minutes=11)  # and then NTP's time


def test_after_a_reboot_the_old_offset_no_longer_counts() -> None:
    state = phones_say(ClockState(), BEHIND, BEHIND)
    told_before, state = now(state, PI + timedelta(minutes=3), BOOT, synchronized=False)
    # fake-hwclock set a new wrong time at boot; the offset learned before means nothing now.
    after_boot = PI + timedelta(hours=2)
    told, state = now(state, after_boot, "boot-2", synchronized=False)
    assert state.offset == timedelta(0) and state.readings == ()
    assert told == told_before  # held at the last time handed out until a phone speaks
    state = phones_say(state, REAL + timedelta(hours=3) - after_boot, boot="boot-2")
    assert state.boot == "boot-2" and len(state.readings) == 1


def test_only_the_newest_readings_count() -> None:
    state = phones_say(ClockState(), *([timedelta(hours=1)] * KEEP), *([BEHIND] * KEEP))
    assert len(state.readings) == KEEP
    assert state.offset == BEHIND


def test_a_phone_reading_comes_from_javascripts_milliseconds() -> None:
    assert phone_reading(str(int(REAL.timestamp() * 1000)), PI) == Reading(pi=PI, phone=REAL)
    for bad in ("", "abc", "-5", "1e12", "12.5", "0", "99999999999999999999", str(4_200_000_000_000), "١٢٣"):
        assert phone_reading(bad, PI) is None, bad


@given(st.text(max_size=40))
def test_any_text_in_the_hidden_field_is_a_reading_or_none_never_an_error(text: str) -> None:
    reading = phone_reading(text, PI)
    assert reading is None or EARLIEST <= reading.phone < LATEST


@given(st.integers(min_value=0, max_value=10**20))
@example(999_999_999_999_999)  # the year 33658: past what a datetime holds
@example(253_402_300_800_000)  # the first millisecond of the year 10000
def test_any_number_of_milliseconds_is_a_reading_or_none(ms: int) -> None:
    reading = phone_reading(str(ms), PI)
    assert reading is None or EARLIEST <= reading.phone < LATEST
