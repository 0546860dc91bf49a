"""Team colours: stable by team index, named through the catalogue, members listed."""

from games.quiz.teams import OKABE_ITO, members_line, team_colour, team_members


def test_colours_are_stable_by_team_index_and_distinct() -> None:
    assert [team_colour(k).rgb for k in range(4)] == [c.rgb for c in OKABE_ITO[:4]]
    assert len({c.rgb for c in OKABE_ITO}) == len(OKABE_ITO)
    assert team_colour(len(OKABE_ITO)) == team_colour(0)


def test_members_and_a_team_of_nobody() -> None:
    teams = [0, 0, 2, 2]
    assert team_members(teams, 0) == [0, 1]
    assert team_members(teams, 1) == []
    assert members_line(0, ["Ann", "Bob"]) == "orange: Ann, Bob"
    assert members_line(1, []) == "sky blue: -"
