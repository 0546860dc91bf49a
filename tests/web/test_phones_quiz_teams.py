"""Team sign-up on a phone, in a real (headless) Chromium: in a team quiz's
lobby a player's page says their team (its colour, its players) and offers
the other teams; a tap moves them, on the big screen's view and in the
engine, and a typed name names their team; once the host arms the first question the page offers no team."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from controller import protocol as p
from games.base import Action
from games.i18n import _, set_language
from games.quiz.teams import team_name
from tests.fits import LONG_NAMES, LONG_TEAMS
from tests.web.conftest import Served
from tests.web.phones import SCREENS

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def test_a_phone_joins_the_other_team_in_the_lobby_and_not_after_the_first_question(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 4, NAMES, rules="teams")  # pairs: Anna and Ben, Cleo and Dan
    page = s.take_seat(phone(), 3)
    heading = page.locator(".w-heading")
    expect(heading.locator("h2")).to_have_text("Your team: Team 2")
    expect(heading.locator(".detail")).to_have_text("sky blue: Cleo, Dan")
    join = page.locator(".w-buttons button", has_text="Join Team 1")
    expect(join).to_contain_text("orange: Anna, Ben")
    join.click()
    expect(heading.locator("h2")).to_have_text("Your team: Team 1")
    expect(heading.locator(".detail")).to_have_text("orange: Anna, Ben, Dan")
    page.locator(".w-text input").fill("Owls")  # and names the team it joined
    page.locator(".w-text button").click()
    expect(heading.locator("h2")).to_have_text("Your team: Owls")
    # the big screen's view says it too (the page's heading came from the deciding process's snapshot)
    s.wait(lambda: s.public["team_names"] == ["Owls", ""])
    assert s.public["teams"] == [0, 0, 1, 0]
    s.host("arm")
    expect(page.locator(".w-note")).to_have_text("Nothing to do right now: wait for your turn.")
    expect(page.locator(".w-buttons button, .w-text input")).to_have_count(0)


def test_a_typed_text_goes_only_where_a_move_leaves_room_for_it() -> None:
    from controller.box.views import move_key
    from controller.web.server import typed_in
    from games.panels import TYPED

    offered = frozenset({move_key("team", {"team": 1, "name": TYPED}), move_key("team", {"team": 0})})
    assert typed_in("team", {"team": 1, "name": "Owls"}, offered)
    assert not typed_in("team", {"team": 0, "name": "Owls"}, offered)  # another team's name: not offered
    assert not typed_in("team", {"team": "Owls"}, offered)


#: what of the page runs past a 360 px phone's width: the page itself, any element's box, and each element
#: whose own text is cut. The phone's width is the one the page is laid out for (the root's clientWidth):
#: an emulated phone (as a real one) widens its window (innerWidth) to whatever overflows, so measured
#: against innerWidth a 564 px page passed on a 360 px phone.
PAST_THE_EDGE = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (r.left < -0.5 || r.right > width + 0.5 || (own && el.scrollWidth > el.clientWidth + 1)) {
      out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.right)}: ${el.textContent.trim().slice(0, 40)}`);
    }
  }
  return {wide: document.scrollingElement.scrollWidth, window: width, cut: out};
}"""

#: the sign-up page's own words (msgids): none may be left in English on a Czech or Polish box
SIGN_UP_TEXTS = ["Your team: {team}", "Name your team", "Save", "Join another team", "Join {team}"]


def assert_fits_the_phone(page: Any) -> None:
    seen = page.evaluate(PAST_THE_EDGE)
    assert seen["wide"] <= seen["window"], f"the page is {seen['wide']} px wide on a {seen['window']} px phone"
    assert not seen["cut"], f"past the phone's edge: {seen['cut']}"


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_the_sign_up_page_is_in_the_box_s_language_and_fits_a_small_phone(served: Any, phone: Any, language: str) -> None:
    """The longest names a profile allows and a 24-character team name typed in:
    every word translated, nothing wider than the 360 px phone (screenshots under SCREENS)."""
    set_language(language)  # the texts this test expects: the box's language
    s: Served = served("quiz", 4, LONG_NAMES[:4], rules="teams", lang=language)
    page = s.take_seat(phone(), 3)
    heading = page.locator(".w-heading h2")
    expect(heading).to_have_text(_("Your team: {team}").format(team=team_name(1, [])))
    assert page.evaluate("document.documentElement.lang") == language  # read aloud as the language it is in
    expect(page.locator(".w-buttons button", has_text=_("Join {team}").format(team=team_name(0, [])))).to_have_count(1)
    expect(page.locator(".w-text button")).to_have_text(_("Save"))
    said = page.locator("body").inner_text()
    for text in (_("Name your team"), _("Join another team")):
        assert text in said, f"{text!r} missing: {said}"
    translated = {_(m).split("{")[0].strip() for m in SIGN_UP_TEXTS}
    set_language("en")
    english = {_(m).split("{")[0].strip() for m in SIGN_UP_TEXTS}
    set_language(language)
    assert not english & translated and not any(word in said for word in english), f"English left: {said}"
    assert_fits_the_phone(page)
    page.screenshot(path=str(SCREENS / f"phone-quiz-teams-{language}.png"), full_page=True)
    typed = page.locator(".w-text input")
    typed.fill(LONG_TEAMS[1 if language == "pl" else 0])
    # the name being typed reads whole in its field (spaced out like a PIN, it ran past the field's edge)
    assert typed.evaluate("(el) => el.scrollWidth <= el.clientWidth"), "the typed name runs past its field"
    page.locator(".w-text button").click()
    expect(heading).to_have_text(_("Your team: {team}").format(team=LONG_TEAMS[1 if language == "pl" else 0]))
    assert_fits_the_phone(page)
    page.screenshot(path=str(SCREENS / f"phone-quiz-teams-named-{language}.png"), full_page=True)


def test_the_host_page_renames_a_team_for_the_tv_and_the_phones_and_refuses_a_bad_name(served: Any, phone: Any) -> None:
    """The host picks a team on the host page and types its name: the phones
    and the TV's view name it so; a name the TV cannot show is refused in one
    line on the host page and changes nothing. Once play begins, a team left
    empty in the lobby is no longer offered."""
    from tests.web.test_host_pages import log_in

    set_language("en")
    s: Served = served("quiz", 4, NAMES, rules="teams")
    host, page = phone(), s.take_seat(phone(), 0)
    heading = page.locator(".w-heading h2")
    expect(heading).to_have_text("Your team: Team 1")
    log_in(host, s)
    teams = host.locator("#teams .team")
    expect(teams).to_have_count(2)
    expect(teams.nth(0).locator(".members")).to_have_text("Anna, Ben")
    expect(teams.nth(1).locator(".members")).to_have_text("Cleo, Dan")
    host.fill("#teams input[data-team='0']", "Sovy z Horní Dolní Lhoty")
    host.click("#teams button[data-team-rename='0']")
    expect(heading).to_have_text("Your team: Sovy z Horní Dolní Lhoty")  # Anna's phone
    expect(host.locator("#teams input[data-team='0']")).to_have_value("Sovy z Horní Dolní Lhoty")
    s.wait(lambda: s.public["team_names"] == ["Sovy z Horní Dolní Lhoty", ""])  # what the TV draws
    assert_fits_the_phone(host)
    host.screenshot(path=str(SCREENS / "companion-host-teams.png"), full_page=True)

    host.fill("#teams input[data-team='1']", "   ")
    host.click("#teams button[data-team-rename='1']")
    expect(host.locator("#status")).to_have_text(
        "a team's name is 1 to 24 letters, digits or signs, with no line breaks: type another name")
    assert s.public["team_names"] == ["Sovy z Horní Dolní Lhoty", ""]

    page.locator(".w-buttons button", has_text="Join Team 2").click()  # Anna and then Ben go over to Team 2
    expect(heading).to_have_text("Your team: Team 2")
    s.send(p.ActionInput(Action("team", s.now_us(), 1, {"team": 1})))  # Ben's phone, as its server sends it
    s.wait(lambda: s.public["teams"] == [1, 1, 1, 1])
    s.host("arm")
    expect(teams).to_have_count(1)  # the owls' team has nobody in it now: nothing to name
    expect(teams.nth(0).locator(".members")).to_have_text("Anna, Ben, Cleo, Dan")
