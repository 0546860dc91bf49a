"""The playoff after the round robin: the table's top 4, seeded 1 v 4 and 2 v 3,
the winners in a final, in room a; results through the same broker, hub,
ledger and rules as the round robin; a draw needs a decider."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from controller.league import bracket as bracket_mod
from controller.league import messages
from controller.league.bracket import Tie
from controller.league.commands import box_link, room_folder
from controller.league.hub import Hub
from controller.league.link import BoxLink
from controller.league.messages import Result
from controller.league.outbox import RoomFolder
from controller.league.pages import HubService
from controller.league.simulated import play_next
from controller.league.standings import Correction, Row
from controller.league.tournament import Tournament, load, problems
from tests.league.conftest import PLAYOFF, WAIT_S, Mosquitto, play_round_robin


@pytest.fixture
def cup(broker: Mosquitto, tmp_path: Path) -> Tournament:
    """The broker's tournament with a playoff: its top 4 play on in room a."""
    path = tmp_path / "cup.toml"
    path.write_text(path.read_text() + PLAYOFF)
    return load(path)


@contextmanager
def box_links(t: Tournament, folders: dict[str, RoomFolder]) -> Iterator[dict[str, BoxLink]]:
    """Each room's box link, subscribed to the broker; stopped at the end, whatever happened."""
    links = {room: box_link(t, folder, reconnect_s=(1, 1)).start() for room, folder in folders.items()}
    try:
        for link in links.values():
            assert link.conn.subscribed.wait(WAIT_S)
        yield links
    finally:
        for link in links.values():
            link.stop()


@contextmanager
def running_hub(t: Tournament, tmp_path: Path) -> Iterator[HubService]:
    """The hub's service, subscribed to the broker; stopped at the end, whatever happened."""
    service = HubService(t, tmp_path / "hub.jsonl", port=0, bind="127.0.0.1", reconnect_s=(1, 1)).start()
    try:
        assert service.conn.subscribed.wait(WAIT_S)
        yield service
    finally:
        service.stop()


def room_a_played(t: Tournament, tmp_path: Path) -> RoomFolder:
    """Room a (the playoff's) with its round robin played offline."""
    folder = room_folder(t, "a", tmp_path / "journals")
    play_round_robin(folder)
    return folder


def other_rooms_reported(hub: Hub, t: Tournament) -> None:
    """The results of every round-robin match outside room a, taken by the hub."""
    for k, m in enumerate(x for x in t.matches if x.room != "a"):
        r = Result(m.room, m.id, 1, "quiz", m.teams, (k % 3, 1), True, f"{k:016x}", 3)
        assert hub.take(messages.result_topic(t.id, m.room, m.id), messages.encode(r.to_json())) == "taken"


def wait_for(hub: Hub, what: Callable[[], bool], why: str) -> None:
    with hub.changed:
        assert hub.changed.wait_for(what, WAIT_S), why


def drawn(link: BoxLink, folder: RoomFolder, match_id: str) -> None:
    """Wait until the box has the hub's draw for ``match_id`` (readiness: the bracket message handled)."""
    with link.schedule_handled:
        assert link.schedule_handled.wait_for(lambda: match_id in folder.bracket.matches, WAIT_S), \
            f"room {folder.room} never learnt who plays {match_id}"


@pytest.mark.runtime("mosquitto")
def test_the_top_four_play_off_to_a_final_through_the_hub(cup: Tournament, tmp_path: Path) -> None:
    t = cup
    assert t.playoff is not None and t.playoff.ids() == ["sf1", "sf2", "final"]
    folders = {room.id: room_folder(t, room.id, tmp_path / "journals") for room in t.rooms}
    with box_links(t, folders) as links, running_hub(t, tmp_path) as service:
        hub = service.hub
        seed = 1
        group = {m.id for m in t.matches}

        def round_robin_left(folder: RoomFolder) -> bool:
            match = folder.next_match()
            # no playoff match before the table is complete (the hub's results only grow: no race)
            assert match is None or match.id in group or len(hub.results) == len(group)
            return match is not None and match.id in group

        while any(round_robin_left(folder) for folder in folders.values()):  # the round robin, room by room
            for room, folder in folders.items():
                if round_robin_left(folder):
                    play_next(folder, seed, watch=links[room].watch)
                    links[room].publish_results()
                    seed += 1
        wait_for(hub, lambda: len(hub.results) == 15, "the round robin's results never reached the hub")
        table = [row.team for row in hub.standings()]
        sf1, sf2, final = hub.bracket()
        assert (sf1.teams, sf2.teams) == ((table[0], table[3]), (table[1], table[2]))  # seeded 1 v 4, 2 v 3
        assert final.teams is None and final.state == "waiting"

        # room b's password cannot score the playoff (it is room a's), nor can anyone before it is drawn
        forged = Result("b", "sf1", 1, "quiz", sf1.teams or ("", ""), (9, 0), True, "f" * 16, 3)
        assert hub.take(messages.result_topic(t.id, "b", "sf1"), messages.encode(forged.to_json())) == "refused"
        early = Result("a", "final", 1, "quiz", (table[0], table[1]), (9, 0), True, "e" * 16, 3)
        assert hub.take(messages.result_topic(t.id, "a", "final"), messages.encode(early.to_json())) == "refused"

        a, link = folders["a"], links["a"]
        for match_id in ("sf1", "sf2", "final"):
            drawn(link, a, match_id)
            while (match := a.next_match()) is not None and match.id == match_id:  # a draw: its decider next
                play_next(a, seed, watch=link.watch)
                link.publish_results()
                seed += 1
            wait_for(hub, lambda m=match_id: next(x for x in hub.bracket() if x.id == m).winner is not None,
                     f"the hub never had {match_id}'s winner")
        sf1, sf2, final = hub.bracket()
        assert final.teams == (sf1.winner, sf2.winner)
        assert bracket_mod.champion(hub.bracket()) in final.teams
        assert a.next_match() is None and all(f.next_match() is None for f in folders.values())
        assert [row.played for row in hub.standings()] == [5] * 6  # the playoff is not in the table
        assert sum(1 for r in hub.ledger.records if r["type"] == "result" and r["result"]["match"] in
                   ("sf1", "sf2", "final")) >= 3  # journaled like every result
        board = hub.board()
        assert [x["state"] for x in board["bracket"]] == ["done", "done", "done"]


def rows(*teams: str) -> list[Row]:
    return [Row(team, team.capitalize(), rank=k) for k, team in enumerate(teams, start=1)]


def result(match: str, teams: tuple[str, str], scores: tuple[int, int], seq: int = 1) -> Result:
    return Result("a", match, seq, "quiz", teams, scores, True, f"{seq:016x}", 3)


def test_a_drawn_playoff_match_needs_a_decider(tmp_path: Path, league_file: Callable[..., Path]) -> None:
    """A draw cannot stand: the match is 'decider' and the bracket waits; its decider (the next seq)
    or the organiser's correction (a tiebreak played by hand, or a forfeit) gives the winner."""
    path = league_file(1883)
    path.write_text(path.read_text() + PLAYOFF.replace("4", "8"))
    assert problems(path)[1] == ["playoffs.teams: 8 teams play on, but the tournament has 6"]
    path.write_text(path.read_text().replace("teams = 8", "teams = 4"))
    t = load(path)
    everything = {m.id: result(m.id, (m.teams[0], m.teams[1]), (1, 0)) for m in t.matches}
    table = rows("owls", "foxes", "bees", "moles", "hares", "crows")

    def tie(match: str, counted: dict[str, Result], corrections: dict[str, Correction] | None = None) -> Tie:
        return next(x for x in bracket_mod.draw(t, table, counted, corrections or {}) if x.id == match)

    missing = dict(everything)
    missing.pop("m15")
    assert tie("sf1", missing).state == "waiting"  # the round robin is not over
    drawn_sf1 = {**everything, "sf1": result("sf1", ("owls", "moles"), (3, 3))}
    assert tie("sf1", drawn_sf1).state == "decider" and tie("final", drawn_sf1).teams is None
    decided = {**everything, "sf1": result("sf1", ("owls", "moles"), (2, 4), seq=2),
               "sf2": result("sf2", ("foxes", "bees"), (5, 1))}
    assert tie("sf1", decided).winner == "moles"
    assert tie("final", decided).teams == ("moles", "foxes")
    by_hand = Correction("sf1", (4, 3), "tiebreak question: owls first", "organiser", 1)
    assert tie("sf1", drawn_sf1, {"sf1": by_hand}).winner == "owls"
    forfeit = Correction("sf1", (0, 0), "owls went home", "organiser", 1, forfeit="owls")
    assert tie("sf1", everything, {"sf1": forfeit}).winner == "moles"


def test_league_check_reads_the_playoff_section(tmp_path: Path, league_file: Callable[..., Path]) -> None:
    path = league_file(1883)
    base = path.read_text()
    for section, problem in [
        ("[playoffs]\nteams = 3\n", "playoffs.teams: must be 2, 4 or 8 (the top teams of the round robin that play on)"),
        ('[playoffs]\nteams = 2\nroom = "z"\n', "playoffs.room: no room 'z' (the rooms: a, b, c)"),
        ("[playoffs]\nteams = 2\nlegs = 2\n", "playoffs.legs: not a setting here (known: teams, room, game, options, decider)"),
    ]:
        path.write_text(base + "\n" + section)
        assert problems(path)[1] == [problem]
    path.write_text(base + "\n[playoffs]\nteams = 8\n")
    assert problems(path)[1] == ["playoffs.teams: 8 teams play on, but the tournament has 6"]
    path.write_text(base + '\n[playoffs]\nteams = 2\nroom = "b"\n')
    t = load(path)
    assert t.playoff is not None and t.playoff.room == "b" and t.playoff.ids() == ["final"]
    assert t.playoff.first_slot == max(m.slot for m in t.matches if m.room == "b") + 1


@pytest.mark.runtime("mosquitto")
def test_play_league_in_the_playoff_room_takes_the_hubs_draw(cup: Tournament, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`play --league` in the playoff's room with its round robin played: before the draw it says the
    playoff is not drawn yet (not "every match is played"); after it, the box connects, takes the hub's
    retained draw and its next match is the semi-final."""
    from controller.league.commands import all_played, await_draw, playoff_ahead

    t, folder = cup, room_a_played(cup, tmp_path)
    with running_hub(t, tmp_path) as service:
        assert playoff_ahead(t, folder) and await_draw(t, folder) is None
        assert all_played(t, folder, "a") == 0
        said = capsys.readouterr().err
        assert "a: the playoff's next match is not drawn yet" in said and "every match" not in said
        hub = service.hub
        other_rooms_reported(hub, t)
        wait_for(hub, lambda: len(hub.results) == 15, "room a's results (delivered by all_played) never came")
        sf1 = hub.bracket()[0]
        assert sf1.teams is not None
        match = await_draw(t, folder)
        assert match is not None and match.id == "sf1" and match.teams == sf1.teams and match.room == "a"
        assert folder.match("sf1") == match  # kept: the next start knows it without the broker


@pytest.mark.runtime("mosquitto")
def test_the_menu_in_the_playoff_room_takes_the_draw_on_its_link(cup: Tournament, tmp_path: Path) -> None:
    """`menu --league cup.toml --room a` (the room the playoff is in), its round robin played: Start before
    the draw is refused in one line that says so; the hub draws, the menu's running link takes the draw,
    and Start plays the drawn semi-final (its teams, its journal)."""
    import argparse

    from controller.league.commands import MenuRoom, in_league_menu
    from controller.screen.menu import Choice
    from games.base import OptionError

    t, folder = cup, room_a_played(cup, tmp_path)
    seen: dict[str, object] = {}
    chosen = Choice("reaction", 3, {"rounds": 5})

    def menu(args: argparse.Namespace) -> int:  # the menu's Start, as Evening.start calls it, with its running link
        room: MenuRoom = args.league_room
        assert room.link.conn.subscribed.wait(WAIT_S)
        wait_for(hub, lambda: len(hub.results) == 5, "room a's results (delivered by the menu's link) never came")
        with pytest.raises(OptionError) as refused:
            room.take(chosen)
        seen["refused"] = str(refused.value)
        assert room.path is None
        other_rooms_reported(hub, t)  # the hub draws
        drawn(room.link, room.folder, "sf1")
        seen["taken"] = room.take(chosen)
        seen["path"] = room.path
        return 0

    with running_hub(t, tmp_path) as service:
        hub = service.hub
        args = argparse.Namespace(league=str(t.path), room="a", journal_dir=str(tmp_path / "journals"))
        assert in_league_menu(menu)(args) == 0
        sf1 = hub.bracket()[0]
    assert seen["refused"] == ("the playoff's next match is not drawn yet (the matches before it are not all "
                               "decided): Start again once the hub shows it")
    taken = seen["taken"]
    assert isinstance(taken, Choice) and taken.game == "quiz" and taken.players == 2
    assert seen["path"] == folder.folder / "sf1-1.jsonl"  # the menu's journal folder: room a's
    kept = RoomFolder(t, "a", folder.folder).match("sf1")  # the draw kept for the next start
    assert sf1.teams is not None and kept is not None and kept.teams == sf1.teams
