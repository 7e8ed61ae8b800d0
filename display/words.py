"""The few words the wall shows, in the club's language (English or Polish)."""

from __future__ import annotations

from datetime import date

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
        "moves_word": "moves",
        "training": "training game",
        "training_from": "training game from {n} moves",
        "results": "Last results",
        "beat": "{winner} beat {loser}",
        "drew": "{a} and {b} drew",
        "guest": "guest",
        "week": "This week",
        "week_title": "The week from {start}",
        "games_played": "Games played: {n}",
        "climbers": "Up, in arrows",
        "milestones": "Milestones",
        "became_member": "{nick} is now a member",
        "now_even": "{a} and {b} now play even",
        "quiet_week": "No games this week yet.",
        "updated": "updated {time}",
        "more": "+{n} more",
        "earlier": "+{n} earlier results",
        "fallers": "Went down, in arrows",
        "newcomers": "Guests this week",
        "cells": "each cell: the smallest difference that gets it",
        "no_milestones": "none yet this week",
        "clock_phones": "time from phones {date}",
        "clock_unsure": "clock not checked",
        "damaged": "The kiosk's data is damaged. Results cannot be shown or saved.",
        "restore": "The club owner should restore a backup: {backup}",
        "no_backup": "The club owner should restore a backup (no good one was found in the backups folder).",
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
        "moves_word": "ruchy",
        "training": "partia szkoleniowa",
        "training_from": "szkoleniowa od {n} ruchów",
        "results": "Ostatnie wyniki",
        "beat": "{winner} wygr. z {loser}",
        "drew": "{a} i {b} remis",
        "guest": "gość",
        "week": "Ten tydzień",
        "week_title": "Tydzień od {start}",
        "games_played": "Rozegrane partie: {n}",
        "climbers": "W górę, w strzałkach",
        "milestones": "Wydarzenia",
        "became_member": "{nick} jest teraz członkiem",
        "now_even": "{a} i {b} grają teraz równo",
        "quiet_week": "W tym tygodniu jeszcze bez partii.",
        "updated": "odświeżono {time}",
        "more": "+{n} więcej",
        "earlier": "+{n} wcześniejszych wyników",
        "fallers": "W dół, w strzałkach",
        "newcomers": "Goście w tym tygodniu",
        "cells": "w polu: najmniejsza różnica, która je daje",
        "no_milestones": "w tym tygodniu jeszcze nic",
        "clock_phones": "czas z telefonów {date}",
        "clock_unsure": "zegar niesprawdzony",
        "damaged": "Dane kiosku są uszkodzone. Nie da się pokazać ani zapisać wyników.",
        "restore": "Właściciel klubu powinien przywrócić kopię zapasową: {backup}",
        "no_backup": "Właściciel klubu powinien przywrócić kopię zapasową (w folderze kopii nie ma dobrej).",
    },
}


def say(language: str, key: str, **values: object) -> str:
    """A phrase in the club's language (English when the language is unknown)."""
    return WORDS.get(language, WORDS["en"])[key].format(**values)


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_date(day: date, language: str) -> str:
    """A date as the club writes it: ``3 Nov 2026`` or ``3.11.2026``."""
    if language == "pl":
        return f"{day.day}.{day.month:02}.{day.year}"
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
