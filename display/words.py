"""The few words the wall shows, in the club's language (English or Polish).

``WORDS`` names each phrase by a key; its English text is its id in the one catalogue
(kiosk/catalogue.py), where the Polish is.
"""

from __future__ import annotations

from datetime import date

from kiosk.catalogue import N_, translate

WORDS: dict[str, str] = {
    "last_game": N_("last game {date}"),
    "no_games": N_("no games yet"),
    "empty": N_("No magnets on {size}×{size} yet."),
    "enter": N_("Enter a result"),
    "handicap": N_("Handicap {size}×{size}"),
    "handicap_title": N_("Handicap {size}×{size}: difference of strength → Black's start"),
    "difference": N_("difference"),
    "even": N_("even"),
    "moves": N_("{n} moves"),
    "move": N_("1 move"),
    "prisoners": N_("prisoners"),
    "moves_word": N_("moves"),
    "training": N_("training game"),
    "training_from": N_("training game from {n} moves"),
    "results": N_("Last results"),
    "beat": N_("{winner} beat {loser}"),
    "drew": N_("{a} and {b} drew"),
    "guest": N_("guest"),
    "week": N_("This week"),
    "week_title": N_("The week from {start}"),
    "games_played": N_("Games played: {n}"),
    "climbers": N_("Up, in arrows"),
    "milestones": N_("Milestones"),
    "became_member": N_("{nick} is now a member"),
    "now_even": N_("{a} and {b} now play even"),
    "quiet_week": N_("No games this week yet."),
    "updated": N_("updated {time}"),
    "more": N_("+{n} more"),
    "earlier": N_("+{n} earlier results"),
    "fallers": N_("Went down, in arrows"),
    "newcomers": N_("Guests this week"),
    "cells": N_("each cell: the smallest difference that gets it"),
    "no_milestones": N_("none yet this week"),
    "clock_phones": N_("time from phones {date}"),
    "clock_unsure": N_("clock not checked"),
    "damaged": N_("The kiosk's data is damaged. Results cannot be shown or saved."),
    "restore": N_("The club owner should restore a backup: {backup}"),
    "no_backup": N_("The club owner should restore a backup (no good one was found in the backups folder)."),
}


def say(language: str, key: str, **values: object) -> str:
    """A phrase in the club's language (English when the language is unknown)."""
    return translate(language, WORDS[key], **values)


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_date(day: date, language: str) -> str:
    """A date as the club writes it: ``3 Nov 2026`` or ``3.11.2026``."""
    if language == "pl":
        return f"{day.day}.{day.month:02}.{day.year}"
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
