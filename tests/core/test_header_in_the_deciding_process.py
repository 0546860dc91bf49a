"""The journal's session header is built by the deciding process, from the
typed game its screen sends (``protocol.NewGame``: the game, players, seed,
options, names, mode) and its own profile: ``play``'s process builds none
(it used to build the header and send it as an untyped dict), and the line
is what a box of the same game journals, byte for byte (names unnamed as
"Player n" in the box's language)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.box import session
from controller.cli import main
from games.i18n import current_language, set_language
from games.registry import get

pytestmark = pytest.mark.usefixtures("mock_pins")


def header_of(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0]


@pytest.mark.parametrize(("game", "language", "names"), [("quiz", "en", ["Ana", "Bára", "Cyril"]),
                                                          ("reaction", "cs", None)])
def test_plays_journal_header_is_built_by_the_deciding_process_as_a_box_journals_it(
        game: str, language: str, names: list[str] | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if names is not None:  # as the menu saves them (session.names_path)
        (tmp_path / "data" / "buzzerbox").mkdir(parents=True)
        (tmp_path / "data" / "buzzerbox" / "players.json").write_text(json.dumps({"keyboard": names}))

    def built_here(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the screen's process built the journal's session header")

    real_header = session.people_header
    monkeypatch.setattr(session, "people_header", built_here)
    path, was = tmp_path / "played.jsonl", current_language()
    try:
        assert main(["--lang", language, "play", game, "--headless", "--players", "3", "--seed", "7",
                     "--seconds", "0.3", "--journal", str(path)]) == 0
        monkeypatch.setattr(session, "people_header", real_header)
        spec = get(game)  # the same game as a box in this process journals it, in the box's language
        box = session.new_box(spec, session.game_settings(spec, 3, 7, {}, None), None, tmp_path / "box.jsonl",
                              station_names=names)
        box.journal.close()
    finally:
        set_language(was)
    assert header_of(path) == header_of(tmp_path / "box.jsonl")
    header = json.loads(header_of(path))
    assert header["mode"] == "play" and header["settings"]["seed"] == 7 and header["game"] == game
    if names is None:
        assert header["station_names"] == ["Hráč 1", "Hráč 2", "Hráč 3"]
