"""The kiosk's clock: phones by address while the Pi has no NTP, a bounded step, the owner by hand, NTP wins."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kiosk.clock import (
    EARLIEST,
    KEEP,
    LATEST,
    MAX_STEP,
    NTP,
    OWNER,
    PHONES,
    QUORUM,
    TOLERANCE,
    ClockState,
    Reading,
    now,
    observe,
    phone_reading,
    set_by_owner,
)

BOOT = "boot-1"
# The Pi came up at its last shutdown time: nine days behind the phones.
PI = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
REAL = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
BEHIND = REAL - PI

seconds = st.integers(min_value=-30 * 24 * 3600, max_value=30 * 24 * 3600)
pi_times = st.integers(min_value=0, max_value=400 * 24 * 3600).map(lambda s: PI + timedelta(seconds=s))


def phones_say(
    state: ClockState, *offsets: timedelta, synchronized: bool = False, boot: str = BOOT, source: str | None = None
) -> ClockState:
    """Phones with these clocks record games a minute apart, each from its own address unless ``source`` is given."""
    for i, offset in enumerate(offsets):
        pi = PI + timedelta(minutes=i)
        reading = Reading(pi=pi, phone=pi + offset, source=source or f"10.0.0.{i + 1}")
        state = observe(state, reading, boot, synchronized)
    return state


def test_three_phones_from_three_addresses_put_a_pi_that_is_nine_days_behind_right() -> None:
    state = phones_say(ClockState(), BEHIND + timedelta(seconds=3), BEHIND, BEHIND - timedelta(seconds=5))
    told, _ = now(state, PI + timedelta(minutes=5), BOOT, synchronized=False)
    assert abs(told - (REAL + timedelta(minutes=5))) < timedelta(seconds=10)
    assert state.trusted_by == PHONES == state.follows
    assert state.skew > timedelta(days=8)


def test_fewer_addresses_than_the_quorum_move_nothing_however_many_forms_they_send() -> None:
    state = phones_say(ClockState(), *[timedelta(days=6)] * 50, source="10.0.0.66")  # One phone set +6 d
    state = phones_say(state, *[timedelta(days=6)] * 50, source="10.0.0.67")
    assert state.offset == timedelta(0) and len(state.readings) == 2 and QUORUM > 2
    assert now(state, PI, BOOT, synchronized=False)[0] == PI


def test_without_phones_or_ntp_the_pi_is_not_trusted() -> None:
    told, state = now(ClockState(), PI, BOOT, synchronized=False)
    assert told == PI
    assert state.trusted_at is None and state.trusted_by == ""


@settings(deadline=None)  # long sequences; a busy machine must not fail them on time alone
@given(st.lists(st.tuples(pi_times, st.one_of(st.none(), seconds), st.booleans(), st.sampled_from(["a", "b"]))))
def test_the_clock_never_moves_backwards_on_one_footing(steps: list[tuple[datetime, int | None, bool, str]]) -> None:
    # Whatever the Pi's own clock does and whatever the phones say, each time handed out is at
    # least the one before, until a correction (phones, NTP) or a boot puts the clock on a new footing.
    state = ClockState()
    last = None
    for n, (pi, phone_offset, synchronized, boot) in enumerate(steps):
        before = state
        source = f"10.0.0.{n % 5}"
        reading = None if phone_offset is None else Reading(pi, pi + timedelta(seconds=phone_offset), source)
        state = observe(state, reading, boot, synchronized)
        told, state = now(state, pi, boot, synchronized)
        same_footing = before.boot == boot and before.follows == state.follows
        if last is not None and same_footing and abs(state.offset - before.offset) <= TOLERANCE:
            assert told >= last
        last = told


def test_a_correction_and_a_boot_let_never_backwards_go() -> None:
    # Three kids a week ahead, then four honest phones: the kiosk goes back to today.
    ahead = phones_say(ClockState(), *[BEHIND + timedelta(days=7)] * 3)
    told_ahead, ahead = now(ahead, PI + timedelta(minutes=3), BOOT, synchronized=False)
    assert told_ahead > REAL + timedelta(days=6)
    state = ahead
    for n in range(4):
        state = observe(
            state, Reading(PI + timedelta(minutes=4), REAL + timedelta(minutes=4), f"10.1.0.{n}"), BOOT, False
        )
    told, state = now(state, PI + timedelta(minutes=5), BOOT, synchronized=False)
    assert abs(told - (REAL + timedelta(minutes=5))) < timedelta(seconds=10)
    # A reboot: the Pi's own clock, not the last time handed out before it.
    told, _ = now(ahead, PI + timedelta(hours=1), "boot-2", synchronized=False)
    assert told == PI + timedelta(hours=1)


@given(
    st.integers(min_value=-10 * 24 * 3600, max_value=10 * 24 * 3600),
    st.lists(st.integers(min_value=0, max_value=30), min_size=QUORUM, max_size=KEEP),
    st.lists(seconds, max_size=KEEP),
    st.randoms(use_true_random=False),
)
def test_a_minority_of_wrong_phones_is_ignored(true: int, small: list[int], wild: list[int], rnd) -> None:
    # Phones that agree (within 30 s) outnumber those set by hand, in any order, each from its own address.
    wild = wild[: min(len(small) - 1, KEEP - len(small))]
    offsets = [timedelta(seconds=true + s) for s in small] + [timedelta(seconds=w) for w in wild]
    rnd.shuffle(offsets)
    state = phones_say(ClockState(), *offsets)
    assert abs(state.offset - timedelta(seconds=true)) <= TOLERANCE + timedelta(seconds=30)
    assert state.trusted_by == PHONES


lies = st.integers(min_value=int((EARLIEST - PI).total_seconds()), max_value=int((LATEST - PI).total_seconds()) - 1)


@settings(deadline=None)
@given(
    true=st.integers(min_value=-int(MAX_STEP.total_seconds()), max_value=int(MAX_STEP.total_seconds())),
    honest=st.integers(min_value=QUORUM, max_value=KEEP - 1),
    steps=st.lists(st.tuples(st.integers(min_value=0, max_value=KEEP - 1), lies, st.integers(0, 30)), max_size=60),
    last=st.permutations(range(KEEP - 1)),
)
def test_one_lying_address_leaves_the_kiosk_within_minutes_of_the_honest_phones(
    true: int, honest: int, steps: list[tuple[int, int, int]], last: list[int]
) -> None:
    # Any sequence of forms, from honest phones (their clocks within 30 s of the truth)
    # and from one address that says anything, as often as it likes; once every honest phone has
    # spoken, the kiosk is within minutes of them.
    truth = timedelta(seconds=true)
    pi, state = PI, ClockState()
    spoken = [n for n in last if n < honest]  # every honest phone speaks at least once, in any order
    for who, lie, noise in [*steps, *((n, 0, 0) for n in spoken)]:
        pi += timedelta(seconds=7)
        if who < honest:
            reading = Reading(pi, pi + truth + timedelta(seconds=noise), f"10.0.0.{who}")
        else:
            reading = Reading(pi, PI + timedelta(seconds=lie), "10.6.6.6")
        state = observe(state, reading, BOOT, synchronized=False)
        _, state = now(state, pi, BOOT, synchronized=False)
    told, _ = now(state, pi, BOOT, synchronized=False)
    assert abs(told - (pi + truth)) <= TOLERANCE + timedelta(seconds=30)


def test_phones_agreeing_on_more_than_the_step_wait_for_the_owner() -> None:
    state = phones_say(ClockState(), *[timedelta(days=365 * 70)] * 3)  # three kids set 2096
    assert state.offset == timedelta(0) and state.pending == timedelta(days=365 * 70)
    state = phones_say(state, *[MAX_STEP - timedelta(days=1)] * 4)  # a Pi off for a month: within the step
    assert state.offset == MAX_STEP - timedelta(days=1) and state.pending is None


def test_the_owner_sets_the_time_by_hand_and_phones_step_from_it() -> None:
    state = phones_say(ClockState(), *[timedelta(days=90)] * 3)  # after a summer break: too far for phones
    state = set_by_owner(state, REAL, PI, BOOT)
    told, state = now(state, PI + timedelta(minutes=1), BOOT, synchronized=False)
    assert told == REAL + timedelta(minutes=1) and state.trusted_by == OWNER and state.base == BEHIND
    set_back = set_by_owner(state, REAL - timedelta(hours=1), PI + timedelta(minutes=2), BOOT)
    assert now(set_back, PI + timedelta(minutes=2), BOOT, False)[0] == REAL - timedelta(hours=1)  # back: allowed
    state = phones_say(state, *[BEHIND + timedelta(days=20)] * 3)  # within the step of the owner's time
    assert state.offset == BEHIND + timedelta(days=20)


def test_most_addresses_decide() -> None:
    state = phones_say(ClockState(), BEHIND, BEHIND, BEHIND)
    other = timedelta(hours=-5)
    for address in ("10.0.1.1", "10.0.1.2"):  # two phones set otherwise: three against two, nothing moves
        state = observe(state, Reading(PI, PI + other, address), BOOT, False)
    assert state.offset == BEHIND
    for address in ("10.0.1.3", "10.0.1.4"):  # four against three: most addresses now say otherwise
        state = observe(state, Reading(PI, PI + other, address), BOOT, False)
    assert state.offset == other


@given(st.lists(seconds, max_size=KEEP), pi_times)
def test_ntp_wins_when_synchronised(offsets: list[int], pi: datetime) -> None:
    state = phones_say(ClockState(), *(timedelta(seconds=s) for s in offsets))
    state = observe(state, Reading(pi=pi, phone=pi + timedelta(days=3)), BOOT, synchronized=True)
    told, state = now(state, pi, BOOT, synchronized=True)
    assert state.offset == timedelta(0)
    assert state.trusted_by == NTP == state.follows and state.trusted_at == pi
    assert told == pi  # the phones' offset is gone: the Pi's own, synchronised time


def test_ntp_wins_at_once_over_phones_that_were_ahead() -> None:
    state = phones_say(ClockState(), *[timedelta(days=6)] * 3)
    ahead, state = now(state, PI, BOOT, synchronized=False)
    assert ahead == PI + timedelta(days=6)
    told, state = now(state, PI + timedelta(minutes=1), BOOT, synchronized=True)
    assert told == PI + timedelta(minutes=1)  # not held at the phones' time: NTP is right
    assert now(state, PI + timedelta(minutes=1), BOOT, synchronized=True)[0] == told  # and on NTP, never backwards


def test_after_a_reboot_the_old_offset_no_longer_counts() -> None:
    state = phones_say(ClockState(), BEHIND, BEHIND, BEHIND)
    _, state = now(state, PI + timedelta(minutes=3), BOOT, synchronized=False)
    # fake-hwclock set a new wrong time at boot; the offset learned before means nothing now.
    after_boot = PI + timedelta(hours=2)
    told, state = now(state, after_boot, "boot-2", synchronized=False)
    assert state.offset == timedelta(0) and state.readings == ()
    assert told == after_boot  # the Pi's own clock: the last time of the old boot does not hold it
    state = phones_say(state, REAL + timedelta(hours=3) - after_boot, boot="boot-2")
    assert state.boot == "boot-2" and len(state.readings) == 1


def test_only_the_newest_reading_of_each_address_counts() -> None:
    state = phones_say(ClockState(), *([timedelta(hours=1)] * KEEP), source="10.0.0.9")
    assert len(state.readings) == 1
    state = phones_say(state, *([BEHIND] * 3))
    assert len(state.readings) == 4 and state.offset == BEHIND
    state = phones_say(state, *[BEHIND] * 20, source=None)  # twenty addresses: the newest KEEP are kept
    assert len(state.readings) == KEEP


def test_a_phone_reading_comes_from_javascripts_milliseconds() -> None:
    assert phone_reading(str(int(REAL.timestamp() * 1000)), PI) == Reading(pi=PI, phone=REAL)
    assert phone_reading(str(int(REAL.timestamp() * 1000)), PI, "10.0.0.5") == Reading(PI, REAL, "10.0.0.5")
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
