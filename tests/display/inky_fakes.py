"""Fake SPI, GPIO and I2C objects for the real ``inky`` driver classes (no hardware needed)."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

from gpiod.line import Value


class Wire:
    """What went over the SPI bus, cut into command and data segments by the DC and CS lines."""

    def __init__(self) -> None:
        self.segments: list[tuple[str, bytearray]] = []
        self.kind = "command"
        self.open = False

    def switch(self, kind: str) -> None:
        """The DC line changed: the next bytes start a new segment."""
        if kind != self.kind:
            self.kind, self.open = kind, False

    def close(self) -> None:
        """A chip-select line went high: the transaction ended."""
        self.open = False

    def add(self, values: list[int] | bytes) -> None:
        """Bytes on the bus."""
        if not self.open:
            self.segments.append((self.kind, bytearray()))
            self.open = True
        # spidev keeps the low byte of each value (the SSD1683 driver sends 299 for 43).
        self.segments[-1][1].extend(value & 0xFF for value in values)

    def commands(self) -> list[tuple[int, bytes]]:
        """Each command byte with the data that followed it."""
        found: list[tuple[int, bytes]] = []
        for kind, data in self.segments:
            if kind == "command":
                found.extend((byte, b"") for byte in data)
            elif found:
                found[-1] = (found[-1][0], found[-1][1] + bytes(data))
        return found


class FakeSpi:
    """Stands in for ``spidev.SpiDev``: records every byte."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.max_speed_hz = 0
        self.no_cs = False

    def open(self, bus: int, device: int) -> None:
        """Nothing to open."""

    def xfer3(self, values: list[int]) -> None:
        """Record bytes."""
        self.wire.add(values)

    xfer = xfer3
    writebytes = xfer3


class FakeTime:
    """Stands in for a driver module's ``time``: its sleeps pass at once, on a clock the panel also reads."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        """Seconds on the fake clock."""
        return self.now

    time = monotonic

    def sleep(self, seconds: float) -> None:
        """Let the seconds pass at once."""
        self.now += seconds


class FakeGpio:
    """Stands in for a ``gpiod`` line request: output lines are recorded, BUSY answers as told.

    ``busy``: "edge" (low, and a rising edge whenever waited for), "toggle" (alternates low and
    high, for drivers that poll), "stuck" (the refresh never ends: BUSY stays at ``stuck_value``;
    high is an unplugged panel, whose BUSY only the Pi's pull-up drives), or "held-high" (high
    while the controller settles after power on/off, low until a rising edge during the refresh
    ``refresh_command``: the 5.7" and 4" as they are). A ``clock`` lets a wait for an edge that
    never comes take its whole timeout.
    """

    def __init__(
        self,
        wire: Wire,
        dc_pin: int,
        cs_pins: tuple[int, ...],
        busy_pin: int,
        busy: str = "edge",
        stuck_value: Value = Value.INACTIVE,
        clock: FakeTime | None = None,
        refresh_command: int = 0x12,
    ) -> None:
        self.wire = wire
        self.dc_pin, self.cs_pins, self.busy_pin = dc_pin, cs_pins, busy_pin
        self.busy = busy
        self.stuck_value = stuck_value
        self.clock = clock
        self.refresh_command = refresh_command
        self.reads = 0

    def set_value(self, line: int, value: Value) -> None:
        """Follow the DC and CS lines to cut the wire's segments."""
        if line == self.dc_pin:
            self.wire.switch("data" if value == Value.ACTIVE else "command")
        elif line in self.cs_pins and value == Value.ACTIVE:
            self.wire.close()

    def get_value(self, line: int) -> Value:
        """The BUSY line as the mode says."""
        if self.busy == "stuck":
            return self.stuck_value
        if self.busy == "held-high":
            commands = self.wire.commands()
            refreshing = bool(commands) and commands[-1][0] == self.refresh_command
            return Value.INACTIVE if refreshing else Value.ACTIVE
        if self.busy == "toggle":
            self.reads += 1
            return Value.ACTIVE if self.reads % 2 == 0 else Value.INACTIVE
        return Value.INACTIVE

    def wait_edge_events(self, timeout: timedelta | None = None) -> bool:
        """An edge arrives at once, or (stuck) never: the timeout has passed."""
        if self.busy != "stuck":
            return True
        if self.clock is not None and timeout is not None:
            self.clock.sleep(timeout.total_seconds())
        return False

    def read_edge_events(self) -> list[SimpleNamespace]:
        """The rising edge of BUSY."""
        return [SimpleNamespace(line_offset=self.busy_pin)]


class NoEeprom:
    """An I2C bus with nothing on it."""

    def write_i2c_block_data(self, *args: object) -> None:
        """No device answers."""
        raise OSError("no device at 0x50")


class Eeprom:
    """An I2C bus with an Inky EEPROM saying which panel is attached."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def write_i2c_block_data(self, *args: object) -> None:
        """Set the read address (ignored)."""

    def read_i2c_block_data(self, address: int, register: int, length: int) -> list[int]:
        """The EEPROM's bytes."""
        return list(self.data[:length])


class FakeChip:
    """Stands in for a ``gpiod.Chip`` in gpiodevice's pin check: some lines are claimed by others."""

    def __init__(self, claimed: dict[int, str], lines: FakeGpio | None = None) -> None:
        self.claimed = claimed  # line → its consumer, e.g. {8: "spi0 CS0"}
        self.lines = lines  # what the driver gets once its lines are free

    def request_lines(self, consumer: str, config: dict[int, object]) -> FakeGpio:
        """The driver's lines, once none is claimed."""
        assert self.lines is not None and not set(config) & set(self.claimed)
        return self.lines

    def get_line_info(self, line: int) -> SimpleNamespace:
        """What the kernel says about a line."""
        consumer = self.claimed.get(line, "")
        return SimpleNamespace(used=bool(consumer), name=f"GPIO{line}", consumer=consumer)

    def line_offset_from_id(self, name: object) -> int:
        """Lines are numbered as their BCM pins, as on a Pi."""
        return int(str(name).removeprefix("GPIO"))
