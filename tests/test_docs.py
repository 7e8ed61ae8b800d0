"""The pages stay true: docs/rules.md's checked tables and examples, and what every page names.

Every table or code block marked ``<!-- checked: NAME -->`` in docs/rules.md is read
here and checked against kiosk/, so a change of a rule that forgets the documentation
(or a documentation edit that gets a number wrong) fails a test. Of the README and every
page of docs/: each path, link, picture, module, ``semedori`` command and option, ``make``
target and setting they name must exist (and the owner's guide's settings are the code's).
"""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from kiosk import config as configuration
from kiosk.config import Config
from kiosk.events import _FIELDS, GAME_KINDS, dump_line, parse_history, parse_line
from kiosk.handicap import DEFAULT_SIZE_RULES, EVEN, KOMI, MOVE_POINTS, Handicap, handicap_for, table
from kiosk.replay import replay
from kiosk.rules import ARROWS, verdict
from kiosk.scale import as_number, fields, from_grade, move_arrows, nearest_field, quarters

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
DESIGN = ROOT / "docs" / "design.md"
TEXT = RULES.read_text(encoding="utf-8")


# --- reading the page --------------------------------------------------------------------


def _after_marker(name: str) -> list[str]:
    """The lines after ``<!-- checked: NAME -->``."""
    marker = f"<!-- checked: {name} -->"
    assert TEXT.count(marker) == 1, f"docs/rules.md must mark exactly one {marker}"
    return TEXT.split(marker, 1)[1].splitlines()


def checked_table(name: str) -> list[list[str]]:
    """The rows (without header and rule) of the table that follows the marker."""
    rows: list[list[str]] = []
    started = False
    for line in _after_marker(name):
        line = line.strip()
        if line.startswith("|"):
            started = True
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif started:
            break
    assert len(rows) > 2, f"no table after the marker {name!r}"
    return rows[2:]


def code_blocks(name: str, count: int) -> list[str]:
    """The first ``count`` fenced code blocks after the marker."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", "\n".join(_after_marker(name)), flags=re.DOTALL)
    assert len(blocks) >= count, f"the marker {name!r} needs {count} code blocks after it"
    return blocks[:count]


def number(text: str) -> Fraction:
    """A number as the page writes it (``34.5``, ``−5`` with a real minus sign)."""
    return Fraction(text.replace("−", "-"))


def q(text: str) -> int:
    """Quarters of a strength written on the page."""
    return quarters(number(text))


# --- §1 and §2: fields, arrows, grades ----------------------------------------------------


def test_the_scale_has_the_fields_the_page_counts() -> None:
    assert "115 fields from 0 to 56" in TEXT
    assert len(fields()) == 115
    assert (fields()[0], fields()[-1]) == (0, q("56"))


@pytest.mark.parametrize("row", checked_table("arrows"), ids=lambda row: row[0])
def test_arrows_table_of_section_1(row: list[str]) -> None:
    field, up, down, up2, down2 = (q(cell) for cell in row)
    assert move_arrows(field, 1) == up
    assert move_arrows(field, -1) == down
    assert move_arrows(field, 2) == up2
    assert move_arrows(field, -2) == down2


@pytest.mark.parametrize("row", checked_table("grades"), ids=lambda row: row[0])
def test_starting_fields_from_a_grade_of_section_2(row: list[str]) -> None:
    declared, converts, starts = row
    count, unit = declared.split()
    grade = 50 - int(count) if unit == "kyu" else 49 + int(count)
    assert grade == int(converts)
    given = {"kyu": int(count)} if unit == "kyu" else {"dan": int(count)}
    assert from_grade(**given) == q(starts)


# --- §3: the numbers, the worked values, the tables --------------------------------------


def test_every_number_of_section_3_is_the_default_in_code(tmp_path: Path) -> None:
    configuration.save(tmp_path, Config())
    saved = tomllib.loads((tmp_path / configuration.CONFIG_NAME).read_text(encoding="utf-8"))
    fixed = {"points of a move": MOVE_POINTS, "komi": KOMI}
    rows = checked_table("numbers")
    for name, default, setting, _why in rows:
        if setting == "fixed":
            assert fixed.pop(name) == number(default), name
            continue
        section, key = re.fullmatch(r"`\[([\w.]+)\] (\w+)`", setting).groups()  # type: ignore[union-attr]
        value = saved
        for part in section.split("."):
            value = value[part]
        assert number(str(value[key])) == number(default), setting
    assert not fixed, f"docs/rules.md §3 misses {sorted(fixed)}"
    # Every setting of the rules a club can change is in the table.
    documented = {row[2] for row in rows}
    for size in DEFAULT_SIZE_RULES:
        for key in ("points_per_strength", "clear_margin", "training_moves"):
            assert f"`[handicap.{size}] {key}`" in documented
    assert {"`[club] top`", "`[club] guest_losses`"} <= documented


def parse_handicap(text: str) -> Handicap:
    """``even`` or ``2 moves, 1 prisoner, training game`` as a Handicap."""
    if text == "even":
        return EVEN
    match = re.fullmatch(r"(\d+) moves?, (\d+) prisoners?(, training game)?", text)
    assert match, f"cannot read the handicap {text!r}"
    moves, prisoners, training = match.groups()
    return Handicap(even=False, moves=int(moves), prisoners=int(prisoners), training=training is not None)


@pytest.mark.parametrize("row", checked_table("worked-values"), ids=lambda row: f"{row[0]}x{row[0]}-d{row[1]}")
def test_worked_values_of_section_3(row: list[str]) -> None:
    size, difference, expected = row
    assert handicap_for(q(difference), DEFAULT_SIZE_RULES[int(size)]) == parse_handicap(expected)


def test_the_worked_values_cover_every_size_and_both_kinds() -> None:
    rows = checked_table("worked-values")
    for size in ("9", "13", "19"):
        results = [parse_handicap(r[2]) for r in rows if r[0] == size]
        assert any(h.even for h in results) and any(h.training for h in results), size


@pytest.mark.parametrize("size", [9, 13, 19])
def test_handicap_table_of_section_3(size: int) -> None:
    rules = DEFAULT_SIZE_RULES[size]
    cells = table(rules)
    expected = {(c.handicap.moves, c.handicap.prisoners): c.lowest for c in cells if not c.handicap.even}
    documented: dict[tuple[int, int], int] = {}
    rows = checked_table(f"table {size}")
    assert len(rows) == rules.training_moves
    for row in rows:
        label, *cells_text = row
        assert len(cells_text) == MOVE_POINTS, "one column per prisoner count, 0 to 12"
        moves = int(label.split()[0])
        assert label.endswith(" T") == (moves >= rules.training_moves), f"training mark of row {label!r}"
        for prisoners, cell in enumerate(cells_text):
            if cell != "—":
                documented[(moves, prisoners)] = q(cell)
    assert documented == expected
    first = min(expected.values())
    assert f"{size}x{size}: even below {as_number(first)}." in TEXT
    assert handicap_for(first - 1, rules).even


# --- §4 and §2: magnets after games, as replayed ------------------------------------------


def replayed(name: str) -> tuple[dict[str, object], dict[str, object]]:
    """The replay output of a checked example, and the output the page shows for it."""
    history, output = code_blocks(name, 2)
    board = replay(parse_history(history.splitlines()))
    return json.loads(json.dumps(board.to_json())), json.loads(output)


def test_the_clubs_own_example_of_section_4_replays_as_shown() -> None:
    actual, shown = replayed("replay club-example")
    assert actual == shown


def test_the_week_of_exceptions_of_section_4_replays_as_shown() -> None:
    actual, shown = replayed("replay exceptions")
    assert actual == shown


def test_a_guest_losing_at_zero_of_section_2_replays_as_shown() -> None:
    actual, shown = replayed("replay guest-at-zero")
    assert actual == shown


def test_games_that_are_not_rated_of_section_4_replay_as_shown() -> None:
    actual, shown = replayed("replay kinds")
    assert actual == shown


def test_the_kinds_table_of_section_4_is_every_kind_the_core_knows() -> None:
    rows = checked_table("kinds")
    assert tuple(row[0].strip("`") for row in rows) == GAME_KINDS
    assert [row[2] for row in rows] == ["yes, by this section"] + ["no"] * (len(GAME_KINDS) - 1)


def test_every_why_the_rules_can_give_is_documented_and_no_other() -> None:
    sentence = " ".join(_after_marker("why")[:3])
    documented = set(re.findall(r"`([a-z-]+)`", sentence.split("is one of", 1)[1]))
    handicaps = [EVEN, Handicap(False, 2, 0, False), Handicap(False, 8, 0, True)]
    given = {
        verdict(result, h, *flags).why
        for result, h, flags in itertools.product(ARROWS, handicaps, itertools.product((False, True), repeat=6))
    }
    assert documented == given


# --- §5: shifts -----------------------------------------------------------------------------


@pytest.mark.parametrize("row", checked_table("shift"), ids=lambda row: f"{row[0]}{row[1]}")
def test_where_a_shift_lands_of_section_5(row: list[str]) -> None:
    strength, amount, lands, _why = row
    assert nearest_field(q(strength) + q(amount)) == q(lands.split("→")[-1])


# --- §7: the history file ---------------------------------------------------------------------


def test_every_line_of_section_7_parses_and_writes_back_byte_for_byte() -> None:
    (block,) = code_blocks("lines", 1)
    lines = block.splitlines()
    kinds = set()
    for line in lines:
        event = parse_line(line)
        assert dump_line(event) == line
        kinds.add(json.loads(line)["type"])
    assert kinds == set(_FIELDS), "one example line of every type"


def test_the_types_table_of_section_7_is_what_the_core_reads() -> None:
    documented = {}
    for kind, required, optional, _meaning in checked_table("types"):
        names = [set(re.findall(r"`(\w+)`", cell)) for cell in (required, optional)]
        documented[kind.strip("`")] = (names[0], names[1])
    common = {"type", "at", "note"}
    actual = {kind: (required - {"at"}, allowed - required - common) for kind, (required, allowed) in _FIELDS.items()}
    assert documented == actual


# --- the citations ------------------------------------------------------------------------------


def test_every_section_a_citation_names_exists() -> None:
    sections = set(re.findall(r"^## (\d)\. ", TEXT, flags=re.MULTILINE))
    assert sections == {str(n) for n in range(1, 9)}
    cited = set()
    for folder in ("kiosk", "web", "display", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for match in re.finditer(r"rules\.md (§\d(?:, §\d)*(?:[–-]§?\d)?)", text, flags=re.IGNORECASE):
                cited.update(re.findall(r"\d", match.group(1)))
    assert cited, "the code cites the rules by section"
    assert cited <= sections


def test_every_house_rule_a_citation_names_exists() -> None:
    design = DESIGN.read_text(encoding="utf-8")
    rules = set(re.findall(r"^(\d+)\. \*\*", design, flags=re.MULTILINE))
    assert rules == {str(n) for n in range(1, len(rules) + 1)} and len(rules) >= 11
    for folder in ("kiosk", "web", "display", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            for cited in re.findall(r"house rule (\d+)", path.read_text(encoding="utf-8")):
                assert cited in rules, f"{path.name} cites house rule {cited}"


def test_what_the_kiosk_keeps_about_a_person_of_section_2_is_every_column_it_has() -> None:
    # A new column about a player must be written in docs/rules.md §2 first.
    import sqlite3

    from kiosk.store_privacy import TABLES

    db = sqlite3.connect(":memory:")
    db.executescript(TABLES)
    columns = {row[1] for row in db.execute("PRAGMA table_info(privacy_player)")} - {"identity", "at"}
    assert {row[0] for row in checked_table("person")} == columns


# --- every page of docs/ and the README: what they name exists -------------------------------------

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FOLDERS = ("kiosk", "web", "display", "tests", "bench", "systemd", "docs", "stubs", "seeds")


def _quoted(page: Path) -> list[str]:
    """Everything a page writes as code (between backticks), fenced blocks left out."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return re.findall(r"`([^`\n]+)`", text)


def named_paths(page: Path) -> set[str]:
    """The repository's paths a page names, as code or in its prose: ``kiosk/store.py``, ``docs/phone/``, ..."""
    found = set()
    text = page.read_text(encoding="utf-8")
    for path in re.findall(rf"(?<![\w./~$-])((?:{'|'.join(FOLDERS)})/[^\s`'\"(),;\]]*)", text):
        path = path.split("::")[0].rstrip(".:")
        # A pattern (test_web_<feature>.py, kiosk/X.py), not a path.
        if not any(mark in path for mark in "<*{|…") and not re.search(r"(\b|_)X\.py$", path):
            found.add(path)
    return found


def test_every_path_the_pages_name_exists() -> None:
    named = {(page.name, path) for page in PAGES for path in named_paths(page)}
    assert len(named) > 150  # the check reads the pages
    assert sorted(f"{page}: {path}" for page, path in named if not (ROOT / path).exists()) == []


def test_every_link_and_picture_of_the_pages_is_there() -> None:
    missing, checked = [], 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):  # http(s) and mailto: outside the repository
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            checked += 1
            if not linked.exists():
                missing.append(f"{page.name}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                missing.append(f"{page.name}: {target} (no such heading)")
    assert checked > 20
    assert missing == []


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings (lower case, spaces to hyphens, punctuation dropped)."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_every_module_the_pages_name_is_there() -> None:
    import importlib

    missing, checked = [], 0
    for page in PAGES:
        for quoted in _quoted(page):
            for dotted in re.findall(r"(?<![\w./-])((?:kiosk|web|display)(?:\.\w+)+)", quoted):
                parts = dotted.split(".")
                checked += 1
                for cut in range(len(parts), 0, -1):  # the longest module, then its attributes
                    try:
                        found: object = importlib.import_module(".".join(parts[:cut]))
                    except ImportError:
                        continue
                    break
                for name in parts[cut:]:
                    found = getattr(found, name, None)
                if found is None:
                    missing.append(f"{page.name}: {dotted}")
    assert checked > 10
    assert missing == []


def _commands() -> dict[str, object]:
    """Every ``semedori`` command (the core's and the entry points'), by name."""
    import click

    from kiosk.cli import main

    context = click.Context(main)
    return {name: main.get_command(context, name) for name in main.list_commands(context)}


def _options(command: object) -> set[str]:
    import click

    assert isinstance(command, click.Command)
    options = {name for param in command.params for name in (*param.opts, *param.secondary_opts)}
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            options |= _options(sub)
    return options | {"--help"}


def test_every_semedori_command_and_option_the_pages_name_exists() -> None:
    import click

    commands = _commands()
    wrong, checked = [], 0
    for page in PAGES:
        for quoted in _quoted(page):
            for name, rest in re.findall(r"(?:^|[\s/])semedori ([a-z][a-z-]*)((?: [^|]*)?)", quoted):
                checked += 1
                command = commands.get(name)
                if command is None:
                    wrong.append(f"{page.name}: semedori {name}")
                    continue
                words = rest.split()
                if isinstance(command, click.Group) and words and words[0] in command.commands:
                    command = command.commands[words[0]]
                for option in re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", rest):
                    if option not in _options(command):
                        wrong.append(f"{page.name}: semedori {name} {option}")
    assert checked > 60
    assert wrong == []


def test_every_make_target_the_pages_name_is_in_the_makefile() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.MULTILINE))
    named = {
        (page.name, target)
        for page in PAGES
        for quoted in _quoted(page)
        for target in re.findall(r"(?:^|\s)make ([a-z][\w-]*)", quoted)
    }
    assert {"run", "test"} <= {target for _page, target in named}
    assert sorted(f"{page}: make {target}" for page, target in named if target not in targets) == []


def _toml_blocks(page: Path) -> list[dict[str, object]]:
    return [tomllib.loads(block) for block in re.findall(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), re.S)]


def test_every_setting_the_pages_name_is_one_the_code_reads() -> None:
    from display.settings import DisplaySettings
    from kiosk.config import _to_toml

    written = _to_toml(Config())
    known = {
        "club": set(written["club"]),
        **{f"handicap.{size}": set(rules) for size, rules in written["handicap"].items()},
        "display": set(DisplaySettings.__dataclass_fields__) - {"pins_chosen"},
        "web": {"hosts"},
    }
    named = {
        (page.name, section, key)
        for page in PAGES
        for quoted in _quoted(page)
        for section, key in re.findall(r"^\[([\w.]+)\] (\w+)$", quoted)
    }
    assert len(named) > 5
    assert sorted(f"{p}: [{s}] {k}" for p, s, k in named if k not in known.get(s, set())) == []
    # web.hosts reads the one [web] setting named.
    assert 'get("hosts"' in (ROOT / "web" / "hosts.py").read_text(encoding="utf-8")


def test_the_owner_guides_settings_are_the_codes_defaults_and_the_wall_takes_them() -> None:
    from display.settings import parse
    from kiosk.config import _from_toml, _to_toml

    blocks = _toml_blocks(ROOT / "docs" / "owner-guide.md")
    club = next(block for block in blocks if "club" in block)
    written = _to_toml(Config())
    # Every [club] setting, each at its default, and [handicap.9] as the code's.
    assert club["club"] == written["club"]
    assert club["handicap"] == {"9": written["handicap"]["9"]}
    assert _from_toml(club) == Config()
    display = next(block for block in blocks if "display" in block)
    parse(display["display"])  # an unknown or impossible setting would raise, naming it
    web = next(block for block in blocks if "web" in block)
    assert set(web["web"]) == {"hosts"}


def test_what_else_the_kiosk_keeps_of_section_2_is_what_the_code_keeps() -> None:
    from kiosk import clock, clockfile
    from web import lockout

    said = " ".join(TEXT.split("Besides these, the kiosk keeps", 1)[1].split("\n\n", 1)[0].split())
    assert f"(`{clockfile.NAME}`, the latest {clock.KEEP} of this boot)" in said
    assert f"(`{lockout.FILE_NAME}`, forgotten a day" in said and lockout.FORGET_AFTER == 24 * 3600
    assert "`checkin` and `refusal`" in said


def test_the_owner_guides_history_table_names_every_type_the_core_reads() -> None:
    guide = (ROOT / "docs" / "owner-guide.md").read_text(encoding="utf-8")
    table = guide.split("## The history file", 1)[1].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    named: set[str] = set()
    for row in table.splitlines()[2:]:
        for kind in re.findall(r"`(-?[a-z-]+)`", row.split("|")[1]):
            named.add(f"tournament{kind}" if kind.startswith("-") else kind)
    assert named == set(_FIELDS)


def test_every_figure_of_the_benchmarks_names_the_script_that_measures_it() -> None:
    rows = [line for line in (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8").splitlines()]
    rows = [row for row in rows if row.startswith("| ") and not row.startswith("| benchmark |")]
    assert len(rows) > 15
    unnamed = [row[:60] for row in rows if not re.search(r"`bench/bench_\w+\.py", row.split(" | ")[0])]
    assert unnamed == [], "say which script in bench/ gives the figure"
    # "`make bench` prints the figures": each script the page names is one it runs.
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    bench = set(re.findall(r"bench/(bench_\w+\.py)", makefile.split("\nbench:", 1)[1].split("\n\n", 1)[0]))
    named = {script for row in rows for script in re.findall(r"bench/(bench_\w+\.py)", row.split(" | ")[0])}
    assert sorted(named - bench) == []
    assert all((ROOT / "bench" / script).is_file() for script in bench)


# --- the README: a newcomer's page, its figures from the scripts that measure them -------------------

README = ROOT / "README.md"


def _pages_of(panel: str) -> dict[int, int]:
    """Landscape pages for each club size, from docs/panels.md's table (bench/bench_pages.py --write)."""
    table = (ROOT / "docs" / "panels.md").read_text(encoding="utf-8")
    row = next(line for line in table.splitlines() if line.startswith(f"| Inky Impression {panel} "))
    counts = row.split(" | ")[3].split(" · ")
    return {magnets: int(count.split("/")[0]) for magnets, count in zip((30, 120, 250), counts, strict=True)}


def test_the_readmes_panel_figures_are_the_measured_ones() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    big, small = _pages_of('13.3"'), _pages_of('7.3"')
    assert f'13.3" a club of 120 magnets on a size fits on {big[120]} page (250 take {big[250]})' in text
    assert f'7.3" a club of 30 fits on {small[30]} page (120 take {small[120]})' in text
    assert big[120] == 1 and small[30] == 1  # "fits on 1 page" reads right


def test_the_readme_is_a_newcomers_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) < 8000, "keep the README short: the rest goes into docs/"
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    assert headings[:2] == ["The two commands", "Which panel"] and "Where to go next" in headings
    assert text.index("make run") < text.index("## Which panel")  # the commands before the panels
    # Its pictures are the wall's, written by the script named in their marker.
    block = text.split("<!-- wall-pictures: bench/bench_pages.py --write -->", 1)[1].split("<!-- wall-pictures end")[0]
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", block)
    assert pictures and all((ROOT / picture).is_file() for picture in pictures)
    assert "README.md" in (ROOT / "bench" / "bench_pages.py").read_text(encoding="utf-8")


def test_every_test_the_pages_name_exists() -> None:
    """``test_crash_safety.py`` (a file of tests/, by its name) and ``file.py::test_name`` (a test of that file)."""
    files = {path.name: path for path in (ROOT / "tests").rglob("test_*.py")}
    anywhere = " ".join(path.read_text(encoding="utf-8") for path in files.values())
    missing, checked = [], 0
    for page in PAGES:
        for quoted in _quoted(page):
            for match in re.finditer(r"(?:[\w/]*/)?(test_\w+\.py)?(?:::(test_\w+))?", quoted):
                name, test = match.groups()
                if not name and not test:
                    continue
                checked += 1
                if name and name not in files:
                    missing.append(f"{page.name}: {name}")
                elif test and f"def {test}(" not in (files[name].read_text(encoding="utf-8") if name else anywhere):
                    missing.append(f"{page.name}: {name or ''}::{test}")
    assert checked > 40
    assert missing == []


def test_the_schema_version_the_pages_call_todays_is_the_stores() -> None:
    from kiosk.store_history import MIGRATIONS, SCHEMA_VERSION

    architecture = " ".join((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split())
    assert f"version {SCHEMA_VERSION} (today's) the index of the evenings' events (`event_tournament`)" in architecture
    assert "event_tournament" in MIGRATIONS[SCHEMA_VERSION]
    events = " ".join((ROOT / "docs" / "events.md").read_text(encoding="utf-8").split())
    assert "`event_tournament` (schema version 3)" in events and "event_tournament" in MIGRATIONS[3]


def test_the_pi_guides_figures_are_the_units_and_the_backups() -> None:
    from kiosk.backup import KEEP

    guide = " ".join((ROOT / "docs" / "pi-guide.md").read_text(encoding="utf-8").split())
    units = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / "systemd").iterdir() if path.is_file()}

    def setting(unit: str, name: str) -> str:
        found = re.search(rf"^{name}=(.+)$", units[unit], flags=re.MULTILINE)
        assert found, f"{unit}: {name}"
        return found.group(1)

    assert f"keeps the newest {KEEP}." in guide
    assert setting("semedori-backup.timer", "OnCalendar").endswith("03:30") and "at about 3:30" in guide
    assert setting("semedori-display.service", "WatchdogSec") == "180s" and "within three minutes" in guide
    limit = (
        setting("semedori-display.service", "StartLimitBurst"),
        setting("semedori-display.service", "StartLimitIntervalSec"),
    )
    assert limit == ("5", "5min") and "crashes five times within five minutes" in guide
    for unit in ("semedori-web.service", "semedori-display.service", "semedori-backup.service"):
        assert (setting(unit, "LogRateLimitBurst"), setting(unit, "LogRateLimitIntervalSec")) == ("200", "30s"), unit
    assert "at most 200 lines to the system log in 30 seconds" in guide
    assert setting("journald-semedori.conf", "SystemMaxUse") == "64M" and "under 64 MB" in guide


def test_every_default_the_pages_give_a_setting_is_the_codes() -> None:
    from kiosk.rules import UNDO_MINUTES

    defaults = Config()
    said, checked = [], 0
    for page in PAGES:
        text = " ".join(page.read_text(encoding="utf-8").split())
        for name, value in re.findall(r"`(?:\[club\] )?(\w+)`[^.;`]{0,20}\(default (\d+)", text):
            checked += 1
            if str(getattr(defaults, name)) != value:
                said.append(f"{page.name}: {name} default {value}")
        for value in re.findall(r"undo window \((\d+) minutes", text):
            checked += 1
            if int(value) != UNDO_MINUTES:
                said.append(f"{page.name}: undo window {value} minutes")
    assert checked >= 4
    assert said == []
    hours = f"{defaults.evening_starts:%H:%M}–{defaults.evening_ends:%H:%M}"
    assert f"`[club] evening_starts`/`evening_ends`, default {hours}" in DESIGN.read_text(encoding="utf-8")


def test_every_option_of_a_benchmark_the_pages_name_is_the_scripts() -> None:
    named = {
        (script, option)
        for page in PAGES
        for script, options in re.findall(
            r"bench/(bench_\w+\.py)((?: --?[a-z][a-z-]*)+)", page.read_text(encoding="utf-8")
        )
        for option in options.split()
    }
    assert ("bench_pages.py", "--write") in named
    assert (
        sorted(f"{s} {o}" for s, o in named if f'"{o}"' not in (ROOT / "bench" / s).read_text(encoding="utf-8")) == []
    )


def test_the_name_heights_the_pages_give_are_the_walls() -> None:
    from display.profiles import NAME_CAP_MM
    from display.tonight_ruler import LARGEST_NAME_MM, NAME_MM

    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert f"Names are at least {NAME_CAP_MM:g} mm tall on every panel" in readme
    panels = " ".join((ROOT / "docs" / "panels.md").read_text(encoding="utf-8").split())
    assert f"**{NAME_MM:g} mm** tall" in panels and f'up to {LARGEST_NAME_MM:g} mm on the 13.3"' in panels
    assert f"names at least {NAME_MM:g} mm" in DESIGN.read_text(encoding="utf-8")


def test_the_readmes_figures_name_their_scripts() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert "about 5 seconds after the install (`bench/bench_make_run.py` measures it)" in text
    assert "`bench/bench_pages.py`" in text and "`systemd/pi-check.sh`" in text
    benchmarks = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    row = next(line for line in benchmarks.splitlines() if "bench/bench_make_run.py" in line)
    seconds = float(re.search(r"answers after median \*\*([\d.]+) s\*\*", row).group(1))  # type: ignore[union-attr]
    assert 4 <= seconds <= 6, "the README's 'about 5 seconds' is the benchmark's figure"


def test_the_drift_and_flag_figures_of_section_5_are_the_codes() -> None:
    from kiosk import drift, flags

    text = " ".join(TEXT.split())
    words = {2: "twice", 3: "three", 4: "four"}
    assert f"in the last {drift.WINDOW_WEEKS} weeks" in text
    assert f"pairs that met at least {words[drift.PAIR_GAMES]}, with at least {drift.SMALLEST_GROUP} players" in text
    assert "at least three games in four inside the group" in text and Fraction(3, 4) == drift.ALMOST_ONLY
    assert f"({flags.DEFAULT_AWAY_WEEKS} when sleepers are off)" in text
    assert f"the flag stays {words[flags.RECENT_WEEKS]} weeks" in text
    assert f"A **streak** is {flags.STREAK} or more wins, or {flags.STREAK} or more losses" in text


def test_the_fewest_pages_the_labels_could_take_are_the_ones_the_script_prints() -> None:
    """docs/panels.md's lower bound of pages (an ideal flow of the same labels) is bench/bench_ideal_pages.py's."""
    from bench.bench_ideal_pages import END, START, table

    page = (ROOT / "docs" / "panels.md").read_text(encoding="utf-8")
    assert page.split(START, 1)[1].split(END, 1)[0].strip() == table()
