# The two commands of the README. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Debian packages the tests drive for real: the browser tests' Chromium, and
# systemd-analyze and shellcheck for the units and scripts. (command : package)
SYSTEM_TOOLS := chromium:chromium systemd-analyze:systemd shellcheck:shellcheck curl:curl git:git
# Files from Debian packages: the wall's fallback fonts for CJK and emoji nicknames. (file : package)
SYSTEM_FILES := /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf:fonts-droid-fallback \
  /usr/share/fonts/opentype/unifont/unifont_upper.otf:fonts-unifont

.PHONY: run test system bench clean pi-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The web app and the wall (drawn into .demo/wall.png) on the demo club; Ctrl-C stops both.
run: $(STAMP)
	systemd/run-local.sh

# Installs what is missing when run as root (CI, a fresh Debian box); otherwise
# names the packages to install, rather than letting the browser tests fail later.
system:
	@missing=""; \
	for pair in $(SYSTEM_TOOLS); do \
	  command -v "$${pair%%:*}" >/dev/null 2>&1 || missing="$$missing $${pair##*:}"; \
	done; \
	for pair in $(SYSTEM_FILES); do \
	  [ -e "$${pair%%:*}" ] || missing="$$missing $${pair##*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "make test needs these Debian packages:$$missing"; \
	    echo "install them with: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi

test: $(STAMP) system
	$(BIN)/ruff check kiosk web display tests bench
	$(BIN)/ruff format --check kiosk web display tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto

# Figures to compare, not timed tests (see docs/benchmarks.md).
bench: $(STAMP)
	$(BIN)/python bench/bench_core.py
	$(BIN)/python bench/bench_names.py
	$(BIN)/python bench/bench_web.py
	$(BIN)/python bench/bench_render.py
	$(BIN)/python bench/bench_print.py
	$(BIN)/python bench/bench_load.py
	$(BIN)/python bench/bench_late.py
	$(BIN)/python bench/bench_memory.py
	$(BIN)/python bench/bench_api_body.py
	$(BIN)/python bench/bench_import.py
	$(BIN)/python bench/bench_tonight.py
	$(BIN)/python bench/bench_event.py
	$(BIN)/python bench/bench_league.py
	$(BIN)/python bench/bench_accelerated.py
	$(BIN)/python bench/bench_fairness.py
	$(BIN)/python bench/bench_privacy.py
	$(BIN)/python bench/bench_make_run.py
	$(BIN)/python bench/bench_ideal_pages.py

# The emulated Pi (not part of `make test`: tens of minutes, as root): boots Bookworm and Trixie
# with systemd-nspawn and runs the installer in them as the guide says (systemd/pi-check.sh).
# PI_RELEASES="bookworm" PI_ARCHES="amd64" make pi-check for one of them.
pi-check:
	systemd/pi-check.sh

clean:
	rm -rf $(VENV) .demo tests/artifacts
