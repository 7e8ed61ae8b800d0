"""The club's settings as the store uses them: semedori.toml as read, and the rules in force now.

semedori.toml's rules are those in force from the beginning of the history; dated rule
changes in the history (``rules`` events) make the rules of now differ, and the replayed
cache keeps those as JSON (``kiosk.store_history.History.rules_now``). This module keeps
no table: the file is the settings, the history their dated changes.
"""

from __future__ import annotations

import json
from contextlib import suppress
from dataclasses import replace
from pathlib import Path

from kiosk import config as configuration
from kiosk.config import Config
from kiosk.rulechanges import with_rules_json


class Settings:
    """semedori.toml of one data folder, and the rules in force now read through it."""

    def __init__(self, folder: Path, config: Config) -> None:
        self.folder = folder
        # semedori.toml as read: its rules are those in force from the beginning of the history.
        self.file_config = config
        self._now: tuple[Config, str, Config] | None = None  # (file config, rules now's text, the config now)

    @staticmethod
    def first_read(folder: Path) -> Config:
        """semedori.toml of a data folder, written with the defaults when there is none yet."""
        config = configuration.load(folder)
        if not (folder / configuration.CONFIG_NAME).exists():
            # An organiser looks for the settings next to the data: write the defaults.
            with suppress(OSError):
                configuration.save(folder, config)
        return config

    def in_force(self, rules_now: str) -> Config:
        """The settings with the rules in force now (``rules_now``: the history's JSON of them, '' for the file's)."""
        if not rules_now:
            return self.file_config
        if self._now is None or self._now[0] is not self.file_config or self._now[1] != rules_now:
            self._now = (self.file_config, rules_now, with_rules_json(self.file_config, json.loads(rules_now)))
        return self._now[2]

    def reload(self) -> None:
        """Read semedori.toml again (after the owner changed a setting)."""
        self.file_config = configuration.load(self.folder)

    def keeping_beginning(self, config: Config) -> Config:
        """``config`` with semedori.toml's rules from the beginning (its rules are the same as now's)."""
        return replace(
            config,
            size_rules=self.file_config.size_rules,
            guest_losses=self.file_config.guest_losses,
            top=self.file_config.top,
        )

    def save(self, config: Config) -> None:
        """Write semedori.toml."""
        configuration.save(self.folder, config)
