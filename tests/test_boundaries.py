"""The house's import rules (docs/design.md, "The shape"), read from the source with ``ast``.

Every import counts, at the top of a module or inside a function: a function-level import
is still a dependency, only a later one. Imports under ``if TYPE_CHECKING:`` are left out
(they are never run). The checks read files, not ``sys.modules``, so they fail on the line
that breaks a rule even where nothing imports that module yet.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kiosk", "web", "display")

# The one module of web/ that may draw the wall: /board.png, the wall's picture in a phone.
WALL_PICTURE = "web.pictures"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


MODULES = modules()


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            for other in node.orelse:
                yield from _import_nodes(other)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _import_nodes(node)


def imports(module: str) -> set[str]:
    """Every module ``module`` imports, as written (``from display import columns`` gives ``display.columns``)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*anchor, base] if base else anchor)
        # ``from display import columns`` imports the module display.columns, not a name in display/__init__.
        submodules = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
        found |= submodules
        if len(submodules) < len(node.names):
            found.add(base)
    return found


def top(name: str) -> str:
    return name.partition(".")[0]


def offenders(package: str, forbidden: set[str], allowed: frozenset[str] = frozenset()) -> list[str]:
    return sorted(
        f"{module} imports {name}"
        for module in MODULES
        if top(module) == package and module not in allowed
        for name in imports(module)
        if top(name) in forbidden
    )


def test_the_core_imports_no_web_no_pillow_and_no_hardware() -> None:
    assert offenders("kiosk", {"flask", "flask_babel", "flask_wtf", "PIL", "gpiozero", "inky", "display", "web"}) == []


def test_the_core_needs_only_the_standard_library_click_platformdirs_and_tomli_w() -> None:
    # docs/design.md, "Packages": what keeps the rules testable anywhere and `semedori replay` quick to start.
    import sys

    outside = {top(name) for module in MODULES if top(module) == "kiosk" for name in imports(module)}
    outside -= {*sys.stdlib_module_names, "kiosk", "__future__"}
    assert outside == {"click", "platformdirs", "tomli_w"}


def test_web_reaches_display_only_for_the_wall_picture() -> None:
    assert WALL_PICTURE in MODULES
    assert offenders("web", {"display", "PIL", "gpiozero", "inky"}, allowed=frozenset({WALL_PICTURE})) == []


def test_the_wall_picture_is_drawn_only_when_asked_for() -> None:
    # docs/design.md: display/ is imported inside web.pictures' functions, so the app starts without Pillow.
    tree = ast.parse(MODULES[WALL_PICTURE].read_text(encoding="utf-8"))
    at_the_top = {node.module or "" for node in tree.body if isinstance(node, ast.ImportFrom)} | {
        alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names
    }
    assert sorted(name for name in at_the_top if top(name) in {"display", "PIL"}) == []
    assert "display.render" in imports(WALL_PICTURE)


def test_the_wall_does_not_import_the_web_app() -> None:
    assert offenders("display", {"web", "flask", "flask_babel", "flask_wtf"}) == []


def test_the_json_api_reaches_no_page_module() -> None:
    """A rule the API shares with a page lives in the core (e.g. the handicap a board shows:
    ``kiosk.tournament.played_boards``), not in a page's view the API would import."""
    pages = {m for m, path in MODULES.items() if top(m) == "web" and "Blueprint(" in path.read_text(encoding="utf-8")}
    assert "web.event" in pages and "web.api" in pages
    assert sorted(imports("web.api") & (pages - {"web.api"})) == []


def test_the_checks_see_function_level_imports() -> None:
    # The rules above would pass vacuously if function-level imports were missed.
    assert "display.render" in imports("web.pictures")
    assert "kiosk.store" in imports("display.cli")


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph as a path (first module repeated at the end), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        stack: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        path = [start]
        on_path = {start}
        while stack:
            node, edges = stack[-1]
            step = next(edges, None)
            if step is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif step in on_path:
                return [*path[path.index(step) :], step]
            elif step not in done:
                stack.append((step, iter(sorted(graph[step]))))
                path.append(step)
                on_path.add(step)
    return None


def import_graph() -> dict[str, set[str]]:
    """Who imports whom among our modules; a package's ``__init__`` assembling its own modules is left out.

    (web's app factory imports every blueprint, and the blueprints take ``csrf`` from it: that
    is Flask's app factory, not a cycle of two modules.)
    """
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        assembles = path.name == "__init__.py"
        graph[module] = {
            name
            for name in imports(module)
            if name in MODULES and name != module and not (assembles and name.startswith(f"{module}."))
        }
    return graph


def test_no_module_imports_itself_through_others() -> None:
    cycle = _cycle(import_graph())
    assert cycle is None, " -> ".join(cycle or [])


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
    ],
)
def test_the_cycle_check_finds_cycles(graph: dict[str, set[str]], expected: list[str] | None) -> None:
    assert _cycle(graph) == expected


# The module names more than one package has, each one feature in its layers (docs/design.md,
# "A name shared across packages"): kiosk/tonight.py the rule, web/tonight.py its phone page,
# display/tonight.py its wall page. Where the roles differ the names differ (kiosk/store.py and
# web/request_store.py, kiosk/errors.py and web/error_pages.py, web/pages.py and display/week.py).
LAYERED_FEATURES = {
    *("awards", "cli", "clock", "drift", "fairness", "privacy", "recording", "tonight", "words"),
    "league",  # late starters, returns, leagues across evenings (the rules, then their pages)
}


def test_a_module_name_shared_by_packages_is_one_feature_in_its_layers() -> None:
    packages_of: dict[str, set[str]] = {}
    for name in MODULES:
        package, _, base = name.partition(".")
        if base and "." not in base:
            packages_of.setdefault(base, set()).add(package)
    shared = {base for base, packages in packages_of.items() if len(packages) > 1}
    assert shared - LAYERED_FEATURES == set(), "name the new module for its role, or add it to LAYERED_FEATURES"
    assert LAYERED_FEATURES - shared == set(), "no longer shared: take it out of LAYERED_FEATURES"


# --- one way into the database, one way for every write ---------------------------------

# The store: Store, the unit of work, and the modules it commits together (docs/design.md, "The store").
STORE_MODULES = {
    "kiosk.store",
    "kiosk.store_history",
    "kiosk.store_settings",
    "kiosk.store_tonight",
    "kiosk.store_privacy",
    "kiosk.store_tournaments",
    "kiosk.store_matches",  # this club's id and the match files kept beside the history
}
# Modules that open copies of the database file, never the store's connection: backups, restores, the quick check.
COPIES = {"kiosk.copies", "kiosk.backup"}
# Still running SQL on the store's connection, to be converted (a shrinking list: an entry no longer
# needed fails too, so take it out). kiosk.tournament_store reads the evenings' events from the history
# through Store methods, and web.recent reads its game ids through Store methods: none is left.
SQL_STILL: set[str] = set()
SQL_CALLS = {"execute", "executemany", "executescript"}


def _calls(module: str) -> Iterator[tuple[str, ast.Call]]:
    """Every call of a method by name (``x.name(...)``) in a module, with the name."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            yield node.func.attr, node


def _runs_sql(module: str) -> bool:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SQL_CALLS:
            return True
        if isinstance(node, ast.Attribute) and node.attr == "db":  # the store's raw connection
            return True
        if isinstance(node, ast.Attribute) and node.attr == "connect" and ast.unparse(node.value) == "sqlite3":
            return True
    return False


def test_nothing_outside_the_store_runs_sql() -> None:
    running = {module for module in MODULES if _runs_sql(module)}
    assert running - STORE_MODULES - COPIES - SQL_STILL == set(), "go through a Store method (kiosk/store.py)"
    assert SQL_STILL - running == set(), "converted: take it out of SQL_STILL"
    assert running >= STORE_MODULES - {"kiosk.store_settings"}  # it sees SQL where there is (the settings: a file)


# Store's methods that write (the history, tonight's list, the privacy settings, semedori.toml).
STORE_WRITES = {
    "record",
    "import_history",
    "save_config",
    "rebuild",
    "check_in",
    "check_out",
    "refuse",
    "unrefuse",
    "set_club_privacy",
    "set_player_privacy",
    "record_decided",
    "set_minors_privacy",
    "keep_match",
    "record_unless",
    "_write",
}
# Views that still call a Store write method themselves instead of a use case of kiosk/services/ (a
# shrinking list, for engineers "games" and "events" converting theirs: an entry no longer needed fails
# too). Each is (view module, method).
VIEWS_STILL_WRITING: set[tuple[str, str]] = set()


def _services_bound(module: str) -> set[str]:
    """The names a module binds to kiosk/services/ modules (``from kiosk.services import settings``)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kiosk.services")
        for alias in node.names
    }


def _store_writes_in(module: str) -> set[tuple[str, str]]:
    """The Store write methods a module calls (a use case of the same name, ``settings.check_in``, is not one)."""
    services = _services_bound(module)
    return {
        (module, name)
        for name, call in _calls(module)
        if name in STORE_WRITES
        and not (isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) in services)
    }


def test_no_view_calls_a_store_write_method_only_the_services_do() -> None:
    views = {m for m in MODULES if top(m) == "web" and m != "web.request_store"}  # it opens and reloads the store
    writing = set().union(*(_store_writes_in(m) for m in views))
    assert writing - VIEWS_STILL_WRITING == set(), "call a use case of kiosk/services/ instead"
    # docs/design.md says every view goes through kiosk/services/: true while nothing is still to convert.
    assert not VIEWS_STILL_WRITING or "every view goes through" not in DESIGN.read_text(encoding="utf-8")
    assert VIEWS_STILL_WRITING - writing == set(), "converted: take it out of VIEWS_STILL_WRITING"
    assert _store_writes_in("kiosk.services.settings")  # the check sees the writes where they are


def test_the_undo_window_is_defined_once_in_the_core() -> None:
    defined = sorted(
        module
        for module, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "UNDO_MINUTES" for t in node.targets)
    )
    assert defined == ["kiosk.rules"], "import kiosk.rules.UNDO_MINUTES"


def test_files_are_replaced_through_the_one_atomic_write() -> None:
    # kiosk.copies syncs a folder after a rename; kiosk.backup's restore moves a checked copy in (one rename).
    allowed = {"kiosk.files", "kiosk.copies", "kiosk.backup"}
    using = {
        module
        for module in MODULES
        for name, _call in _calls(module)
        if name in {"replace", "fsync", "mkstemp"} and module not in allowed
    }
    # str.replace and datetime.replace are calls of "replace" too: only os.replace counts.
    found = sorted(
        module
        for module in using
        for name, call in _calls(module)
        if name in {"replace", "fsync", "mkstemp"} and ast.unparse(call.func.value) in {"os", "tempfile"}
    )
    assert found == ["kiosk.store"], "write through kiosk.files.write_atomically"  # the import's scratch database


# --- the evenings' events: one truth, written one way ------------------------------------------------


def test_the_events_are_written_only_by_their_services_and_read_without_sql() -> None:
    """Only kiosk/services/tournaments.py (and kiosk/services/league.py, its late starters, returns and leagues)
    writes an event (``Store.record_decided``); kiosk/tournament_store.py reads
    through the store's methods, with no SQL, no ``_write`` and no raw connection; and no module imports it as
    ``events``, the name of the history's lines (kiosk.events)."""
    writers = []
    for name, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if "record_decided(" in text and name not in {
            "kiosk.store",
            "kiosk.services.tournaments",
            "kiosk.services.league",
        }:
            writers.append(name)
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "kiosk":
                assert not any(a.name == "tournament_store" and a.asname == "events" for a in node.names), name
    assert writers == []
    reads = (ROOT / "kiosk" / "tournament_store.py").read_text(encoding="utf-8")
    for forbidden in (".db.", "._write", "execute(", "SELECT ", "UPDATE ", "INSERT "):
        assert forbidden not in reads, forbidden


# --- comments say why, not where a request came from -----------------------------------------------------------

TEXT_SUFFIXES = {".py", ".pyi", ".html", ".js", ".css", ".po", ".md", ".toml", ".sh", ".txt", ".json"}


def test_no_comment_or_page_cites_a_tracker_number_instead_of_the_reason() -> None:
    """A tracker's number in a comment or in docs/ tells the next engineer nothing: the tracker is elsewhere."""
    cited = re.compile(r"\bissues?\s+\d+", re.IGNORECASE)
    # The code and the pages written for the next engineer and the club (README.md, docs/).
    files = [path for folder in (*PACKAGES, "tests", "bench", "stubs", "docs") for path in (ROOT / folder).rglob("*")]
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted([*files, ROOT / "README.md"])
        if path.suffix in TEXT_SUFFIXES and path.is_file()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if cited.search(line)
    ]
    assert found == [], "say the reason instead of the issue's number"
    assert cited.search(f"as issue {21} asked") and cited.search(f"(Issue {11}, item 2)")  # the check can fail


# --- docs/design.md's map is the code's --------------------------------------------------------------------------

DESIGN = ROOT / "docs" / "design.md"


def _the_map() -> str:
    text = DESIGN.read_text(encoding="utf-8")
    start = text.index("## The map (start here)")
    return text[start : text.index("\n## ", start + 1)]


def _defines(path: Path, name: str) -> bool:
    """A function, class or method of that name anywhere in the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return any(isinstance(node, kinds) and node.name == name for node in ast.walk(tree))


def test_every_module_and_function_the_map_names_exists() -> None:
    text = _the_map()
    named = set(re.findall(r"`((?:kiosk|web|display|tests)/[\w/]+\.py)`", text))
    assert len(named) > 20  # the check reads the map
    assert sorted(path for path in named if not (ROOT / path).is_file()) == []
    # "`web/recording.py` (`record_game`)": the function is the module's.
    pairs = re.findall(r"`((?:kiosk|web|display)/[\w/]+\.py)` \(((?:`\w+`(?:, )?)+)\)", text)
    assert len(pairs) >= 8
    missing = [
        f"{path}: {name}"
        for path, names in pairs
        for name in re.findall(r"`(\w+)`", names)
        if not _defines(ROOT / path, name)
    ]
    assert missing == [], "the map names a function its module does not have"


def _created_tables() -> dict[str, str]:
    """Every table a module of kiosk/ creates, with the module (as a path)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "kiosk").rglob("*.py")):
        for table in re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", path.read_text(encoding="utf-8")):
            assert table not in found, f"{table} is created by {found[table]} and {path.relative_to(ROOT)}"
            found[table] = str(path.relative_to(ROOT))
    return found


def test_every_table_is_on_the_map_beside_the_module_that_creates_it() -> None:
    rows = re.findall(r"^\| (.+) \| `(kiosk/[\w/]+\.py)` \|$", _the_map(), flags=re.MULTILINE)
    on_the_map = {table: module for tables, module in rows for table in re.findall(r"`(\w+)`", tables)}
    created = _created_tables()
    assert "event" in created and "checkin" in created  # the check reads the schema
    assert on_the_map == created, "put the table on docs/design.md's map, beside the module that creates it"


def test_the_design_names_every_store_module_and_only_those_run_sql() -> None:
    """docs/design.md's "The store and its cache" names the modules that run SQL on the store's connection:
    the same as STORE_MODULES above, which test_nothing_outside_the_store_runs_sql holds the code to."""
    text = DESIGN.read_text(encoding="utf-8")
    start = text.index("## The store and its cache")
    paragraph = text[start : text.index("\n\n- ", start)]
    named = {f"kiosk.{name}" for name in re.findall(r"`(?:kiosk/)?(store(?:_\w+)?)\.py`", paragraph)}
    assert named == STORE_MODULES
    # The others it names open the file only to copy or check it: COPIES, which the SQL test allows.
    others = {f"kiosk.{name}" for name in re.findall(r"`kiosk/(\w+)\.py`", paragraph)} - STORE_MODULES
    assert others - {"kiosk.tournament_store"} == COPIES


# --- types: every check mypy is told to skip says why ----------------------------------------------------------


def _unexplained_ignores(lines: list[str]) -> list[int]:
    """Line numbers of ``# type: ignore`` with no reason: none after it, and no comment above naming the ignore."""
    found = []
    for number, line in enumerate(lines, start=1):
        match = re.search(r"#\s*type:\s*ignore(\[[\w-]+(?:,\s*[\w-]+)*\])?(.*)$", line)
        if match is None:
            continue
        after = match.group(2).strip()
        above = lines[number - 2].strip() if number > 1 else ""
        if not (after.startswith("#") and len(after) > 3) and not (above.startswith("#") and "ignore" in above):
            found.append(number)
    return found


def test_every_type_ignore_says_why() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for number in _unexplained_ignores(path.read_text(encoding="utf-8").splitlines())
    ]
    assert found == [], "say why mypy is wrong there, after the ignore (`# type: ignore[code]  # why`)"
    # The check can fail, and it reads a reason where there is one.
    assert _unexplained_ignores(["x = f()  # type: ignore[misc]"]) == [1]
    assert _unexplained_ignores(["x = f()  # type: ignore[misc]  # f is untyped"]) == []
    assert _unexplained_ignores(["# f is untyped: the ignore below", "x = f()  # type: ignore[misc]"]) == []


def test_every_page_of_the_wall_is_drawn_and_counted_where_the_map_says() -> None:
    """The map's "To add a page to the wall": a name in display/wall.py's PAGES, a branch in render, and
    a page that pages has its count in display/render.py, asked in display/refresh.py's _refresh."""
    wall = ast.parse(MODULES["display.wall"].read_text(encoding="utf-8"))
    pages = next(
        ast.literal_eval(node.value)
        for node in ast.walk(wall)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "PAGES" for t in node.targets)
    )
    assert "board" in pages and "week" in pages
    render = MODULES["display.render"].read_text(encoding="utf-8")
    refresh = ast.parse(MODULES["display.refresh"].read_text(encoding="utf-8"))
    asked = next(n for n in ast.walk(refresh) if isinstance(n, ast.FunctionDef) and n.name == "_refresh")
    counted = {
        key.value: ast.unparse(value)
        for node in ast.walk(asked)
        if isinstance(node, ast.Dict)
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant)
    }
    assert sorted(page for page in pages if f'view.page == "{page}"' not in render) == []
    assert all(_defines(MODULES["display.render"], count) for count in counted.values())
    assert set(counted) <= set(pages) and {"handicap", "tonight"} <= set(counted)


def test_a_game_goes_from_the_phone_to_the_wall_by_the_maps_steps() -> None:
    """The map's "A game from the phone to the wall": each step reaches the next, as the map says."""
    calls = {module: {name for name, _call in _calls(module)} for module in MODULES}
    assert "kiosk.services.games" in imports("web.recording")  # the view calls one use case
    assert "record_unless" in calls["kiosk.services.games"]  # the unit of work, under the write's lock
    assert "kiosk.store_history" in imports("kiosk.store") and "kiosk.replay" in imports("kiosk.store_history")
    assert {"display.wall", "display.render"} <= imports("display.refresh")  # what the wall reads, the picture
    assert "change_counter" in calls["display.refresh"]  # the loop polls the counter alone
    assert "kiosk.board_source" in imports("display.wall")
    # The API, the owner's pages and the CLI go into the same use cases.
    for face in ("web.api", "web.owner", "kiosk.cli"):
        assert any(name.startswith("kiosk.services") for name in imports(face)), face


def test_the_owners_pin_and_sessions_work_without_a_request() -> None:
    """docs/design.md: web/pin.py, web/sessions.py and web/lockout.py stay beside web/auth.py, not in it,
    because `semedori set-pin` and `semedori unlock` use them with no request: they import no Flask, and
    auth.py, the blueprint, puts them together."""
    helpers = ("web.pin", "web.sessions", "web.lockout")
    assert [m for m in helpers if {"flask", "flask_wtf", "flask_babel"} & {top(n) for n in imports(m)}] == []
    assert set(helpers) <= imports("web.auth") and set(helpers) <= imports("web.cli")


def test_test_tooling_and_review_rounds_leave_no_trace_in_where_things_live() -> None:
    """Tests are named for what they test, not for the round that wrote them; the product ships no test tooling;
    the club has one demo club (kiosk/demo.py; the wall's fixed test clubs are tests/display/wall_clubs.py)."""
    rounds = sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py") if re.search(r"_fix(es)?\b", p.stem)
    )
    assert rounds == [], "move these tests to the files of the features they test"
    tooling = sorted(m for m in MODULES if re.search(r"golden|wall_clubs|fake", m))
    assert tooling == [], "test tooling lives in tests/"
    demos = sorted(m for m in MODULES if m.rpartition(".")[2] == "demo")
    assert demos == ["kiosk.demo"]


def _kiosk_layers() -> list[set[str]]:
    """docs/design.md's table of kiosk's layers, top first: the modules of each row."""
    text = DESIGN.read_text(encoding="utf-8")
    start = text.index("Inside `kiosk`, the layers are")
    rows = [row for row in text[start : text.index("\n## ", start)].splitlines() if row.startswith("| `")]
    layers = []
    for row in rows:
        first = row.split(" | ")[0]
        names = {f"kiosk.{name.replace('/', '.')}" for name in re.findall(r"`([\w/]+)\.py`", first)}
        layers.append(names | ({"kiosk.services"} if "`services/`" in first else set()))
    return layers


def test_kiosk_is_layered_as_the_design_says_each_module_importing_only_those_above_it() -> None:
    layers = _kiosk_layers()
    listed = set().union(*layers)
    kiosk = {module for module in MODULES if top(module) == "kiosk"} - {"kiosk"}
    assert sorted(kiosk - listed) == [], "put the new module into docs/design.md's table of kiosk's layers"
    assert sorted(listed - kiosk) == []
    above: set[str] = set()
    wrong = []
    for layer in layers:
        for module in sorted(layer):
            wrong += [f"{module} imports {name}" for name in sorted(imports(module) & kiosk - above - layer)]
        above |= layer
    assert wrong == [], "move the row below what it imports, or the import out"


def test_every_module_of_web_and_display_is_on_the_designs_page() -> None:
    text = DESIGN.read_text(encoding="utf-8")
    web = text[text.index("## The web app") : text.index("\n## ", text.index("## The web app") + 1)]
    wall = text[text.index("## The display") : text.index("\n## ", text.index("## The display") + 1)]
    unnamed = [
        module
        for module, path in MODULES.items()
        if top(module) in {"web", "display"}
        and path.name != "__init__.py"
        and f"`{path.name}`" not in (web if top(module) == "web" else wall)
        and f"`{path.relative_to(ROOT)}`" not in text
    ]
    assert unnamed == [], "say in docs/design.md's 'The web app' or 'The display' what the new module is for"
