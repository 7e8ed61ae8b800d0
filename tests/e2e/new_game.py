"""The new-game form as a phone fills it: waiting for the handicap box it redraws."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def box_redrawn(page: Page) -> None:
    """Wait until the handicap box answers what is typed and ticked now.

    The box stands above the winner and result buttons and grows when its answer comes in: a
    tap in that moment lands where a button was (a CI run once lost the winner's tap so). The
    form's script marks the box ``aria-busy`` from the first key typed until the answer shows.
    """
    expect(page.locator("#handicap-slot")).not_to_have_attribute("aria-busy", "true")
