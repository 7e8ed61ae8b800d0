"""The few words the wall shows, in the club's language (English or Polish).

``WORDS`` names each phrase by a key; its English text is its id in the one catalogue
(kiosk/catalogue.py), where the Polish is.
"""

from __future__ import annotations

from datetime import date

from kiosk.catalogue import N_, translate, translate_plural

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
    "tonight_badge": N_("Tonight {size}×{size}"),
    "pairs_title": N_("Suggested pairs"),
    "here_count": N_("{n} here"),
    "white_is": N_("White: {nick}"),
    "even_game": N_("Even game: nigiri, komi {komi}"),
    "training_game": N_("training game: White does not move"),
    "bye": N_("Sits out this round: {nick}"),
    "went_home": N_("went home"),  # a player withdrawn mid-event, in the standings (as on the phone)
    "waiting": N_("Waiting for someone else to arrive: {nicks}"),
    "waiting_one": N_("Waiting for a partner: {nick}"),
    "in_event": N_("Playing in tonight's event: {nicks}"),
    "off_board": N_("Not on the board any more (renamed?): {nicks}"),
    "played_tonight": N_("Played tonight ({n})"),
    "nobody_here": N_("Nobody has checked in yet tonight."),
    "how_to_check_in": N_(
        "Check in on your phone: scan the code (or open Tonight on the club's page) and tap “I'm here”. The pairs "
        "appear here."
    ),
    "two_needed": N_("When two players are here on {size}×{size}, their pairs appear here."),
    "awards_title": N_("Awards · {month}"),
    "grades_title": N_("Strength → official grade"),
    "award_improved": N_("Most improved"),
    "award_games": N_("Most games"),
    "award_opponents": N_("Most different opponents"),
    "award_even": N_("First even game with a stronger player"),
    "award_line_improved": N_("Most improved: {nicks} ↑{n}"),
    "award_line_games": N_("Most games: {nicks} ({n})"),
    "award_line_opponents": N_("Most opponents: {nicks} ({n})"),
    "award_line_even": N_("First even game with a stronger player: {nick} (with {other})"),
    "award_line_even_more": N_("{nick} (with {other})"),
    "certificate_for": N_("awarded to"),
    "certificate_improved": N_("{n} arrows up, net, in {month}"),
    "certificate_improved_one": N_("1 arrow up, net, in {month}"),
    "certificate_games": N_("{n} games in {month}"),
    "certificate_opponents": N_("{n} different opponents in {month}"),
    "certificate_even": N_("an even game with {other} on {date}"),
    "event_badge": N_("Event {size}×{size}"),
    "event_title": N_("Tonight's event"),
    "format_double": N_("double round-robin"),
    "format_round_robin": N_("round-robin"),
    "format_swiss": N_("Swiss"),
    "round_of": N_("Round {round} of {rounds}"),
    "all_played": N_("all rounds are played"),
    "still_playing": N_("still playing: {n}"),
    "bye_counts": N_("Sits out this round: {nick} (it counts as a win)"),
    "standings": N_("Standings"),
    "points_short": N_("Pts"),
    "tie_break": N_(
        "Points: a win 1, a draw ½, sitting out 1. Equal points: SOS decides (the opponents' points), then SODOS (the "
        "points of the opponents one beat)."
    ),
    "no_event": N_("No event is on tonight."),
    # the owner's tie-breaks and the prizes of a finished event
    "short_direct": N_("Dir."),
    "short_progress": N_("Prog."),
    "long_direct": N_("direct encounter"),
    "long_progress": N_("progressive score"),
    "shared_place": N_("a shared place"),
    "tie_break_chain": N_("Points: a win 1, a draw ½, sitting out 1. Equal points: {chain}, in this order."),
    "prizes": N_("Prizes"),
    "prize_place": N_("Place {place}"),
    "prize_wins": N_("The most wins ({n})"),
    "prize_class_below": N_("Best below field {high} ({grade} and weaker)"),
    "prize_class_from": N_("Best from field {low} ({grade} and stronger)"),
    "prize_class": N_("Best of fields {low} to {top} ({first} to {last})"),
    # accel: the accelerated handicap event's page (kiosk.accelerated)
    "format_accelerated": N_("accelerated handicap event"),
    "bye_level": N_("Sits out this round: {nick} (the level stays)"),
    "level_short": N_("Level"),
    "tie_break_levels": N_(
        "A win lifts the level by as many arrows as there are wins in a row, a loss leaves it; the handicap comes "
        "from the levels. Equal levels: FUS (how the levels moved after each game), then the wins."
    ),
    # league: a late starter in the standings, as on the phone
    "joined_from": N_("from round {round}"),
    # tonightwall: the ruler of who is here tonight (display/tonight_ruler.py), a player's line under their name
    "ruler_vs": N_("vs {nick}"),
    "ruler_legend": N_("Ala = Ola: an even game · ○ White · ● Black · ↑↓ tonight"),
    "ruler_training": N_("training game"),
    "ruler_bye": N_("sits out this round"),
    "ruler_waiting": N_("waits for a partner"),
    "ruler_in_event": N_("plays in tonight's event"),
    "even_legend": N_("Ala = Ola: an even game (nigiri, komi {komi})"),
}


def say(language: str, key: str, **values: object) -> str:
    """A phrase in the club's language (English when the language is unknown)."""
    return translate(language, WORDS[key], **values)


def counted(language: str, key: str, n: int) -> str:
    """A number with its noun in the right form for ``n`` (Polish: 1 ruch, 2–4 ruchy, 5 ruchów)."""
    if key == "moves_n":
        return translate_plural(language, "{n} move", "{n} moves", n)
    if key == "prisoners_n":
        return translate_plural(language, "{n} prisoner", "{n} prisoners", n)
    if key == "here_n":  # tonight's ruler's badge: no colon, so a narrow header breaks it at its dot
        return translate_plural(language, "{n} player here", "{n} players here", n)
    raise KeyError(key)


def resting_note(language: str, n: int, weeks: int) -> str:
    """The board's line for its sleepers: "12 magnets resting: no game for 12 weeks" (never a silent gap)."""
    return translate_plural(
        language,
        "{n} magnet resting: no game for {weeks} weeks; back with a game or a check-in",
        "{n} magnets resting: no game for {weeks} weeks; back with a game or a check-in",
        n,
        weeks=weeks,
    )


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_date(day: date, language: str) -> str:
    """A date as the club writes it: ``3 Nov 2026`` or ``3.11.2026``."""
    if language == "pl":
        return f"{day.day}.{day.month:02}.{day.year}"
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
