"""Each companion page names itself in its browser tab, in the box's
language: a host with the scoreboard, the host page and a seat open in
three tabs tells them apart (before, the pages said English titles until
their texts came, then every tab the box's name alone). Chromium on
``play --web --lang cs``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from controller.web.server import TAB_TITLE
from tests.web.conftest import Served
from tests.web.test_split_language import said


def titled(language: str, page: str) -> str:
    """The tab title of ``page`` (its name, the catalogue's id) as a box in ``language`` words it."""
    return said(language, TAB_TITLE).format(page=said(language, page), box=said(language, "Buzzer box"))


def test_each_page_names_itself_in_its_tab_in_the_boxs_language(served: Callable[..., Served], phone: Any) -> None:
    s = served("hands", 2, lang="cs")
    tabs = {"Scoreboard": s.server.board_url(), "Host remote": s.server.host_url(), "Your hand": s.server.join_url()}
    for name, url in tabs.items():
        page = phone()
        page.goto(url)
        page.wait_for_selector("#title:not(:empty)")  # its texts came (before, they renamed the tab)
        expect(page).to_have_title(titled("cs", name))
    assert len({titled("cs", name) for name in tabs}) == 3  # three tabs of one box, told apart
    assert titled("cs", "Scoreboard") == "Výsledková tabule · Bzučáková krabička"  # Czech, not English
