"""The few words the wall shows, in the club's language (English or Polish)."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "last_game": "last game {date}",
        "no_games": "no games yet",
        "empty": "No magnets on {size}×{size} yet.",
        "enter": "Enter a result",
        "handicap": "Handicap {size}×{size}",
        "handicap_title": "Handicap {size}×{size}: difference of strength → Black's start",
        "difference": "difference",
        "even": "even",
        "moves": "{n} moves",
        "move": "1 move",
        "prisoners": "prisoners",
        "training": "training game",
        "training_from": "training game from {n} moves",
        "results": "Last results",
        "beat": "{winner} beat {loser}",
        "drew": "{a} and {b} drew",
        "guest": "guest",
        "week": "This week",
        "week_title": "The week from {start}",
        "games_played": "Games played: {n}",
        "climbers": "Biggest climbers",
        "milestones": "Milestones",
        "became_member": "{nick} is now a member",
        "now_even": "{a} and {b} now play even",
        "quiet_week": "No games this week yet.",
        "more": "+{n} more",
        "cells": "each cell: the smallest difference that gets it",
    },
    "pl": {
        "last_game": "ostatnia partia {date}",
        "no_games": "jeszcze bez partii",
        "empty": "Na {size}×{size} nie ma jeszcze magnesów.",
        "enter": "Wpisz wynik",
        "handicap": "Handicap {size}×{size}",
        "handicap_title": "Handicap {size}×{size}: różnica siły → start czarnego",
        "difference": "różnica",
        "even": "równa",
        "moves": "{n} ruchy",
        "move": "1 ruch",
        "prisoners": "jeńcy",
        "training": "partia szkoleniowa",
        "training_from": "szkoleniowa od {n} ruchów",
        "results": "Ostatnie wyniki",
        "beat": "{winner} wygr. z {loser}",
        "drew": "{a} i {b} remis",
        "guest": "gość",
        "week": "Ten tydzień",
        "week_title": "Tydzień od {start}",
        "games_played": "Rozegrane partie: {n}",
        "climbers": "Najwięcej w górę",
        "milestones": "Wydarzenia",
        "became_member": "{nick} jest teraz członkiem",
        "now_even": "{a} i {b} grają teraz równo",
        "quiet_week": "W tym tygodniu jeszcze bez partii.",
        "more": "+{n} więcej",
        "cells": "w polu: najmniejsza różnica, która je daje",
    },
}


def say(language: str, key: str, **values: object) -> str:
    """A phrase in the club's language (English when the language is unknown)."""
    return WORDS.get(language, WORDS["en"])[key].format(**values)
