"""The Viva Topo! board as data: another layout is a new ``Board`` value, not new code.

Geometry decisions (the rules file leaves these open; the engine relies on them):

* **Track.** Spaces are numbered ``1..spaces`` (20) in walking order. A mouse
  in the start house stands on position 0: a roll of ``n`` puts it on space
  ``n``. The **start exit** is space ``start_exit`` (1), the space the mice
  run out onto. Emmentalia lies past the last space: a mouse whose roll
  carries it beyond space 20 reaches it (no exact roll needed; the rest of
  the roll is lost). Emmentalia and the houses have room for every mouse.
* **Houses.** A house is entered from its cheese-arrow space. A mouse may turn
  into a house when its move reaches the arrow space with at least one step
  to spare (standing on the arrow space, any roll does; two spaces before
  it, a 3 or more). The rest of the roll is lost. Fullness of the arrow
  space does not matter, the mouse only runs through it.
* **Full spaces.** Only the space a move ends on counts: a move whose end
  space holds ``space_capacity`` mice stops on the nearest space before it
  with room; if there is none ahead of the mouse, that track move is not
  legal. Running through full spaces is fine.
* **The cat** runs beside the track on two rings whose symbols sit on the same
  track spaces (``cat_symbols``, every 2 spaces). It lurks on the symbol
  numbered with the player count (``cat_start``: symbol 2 on space 6, 3 on
  space 4, 4 on space 2; DECISIONS.md has the measurements) and counts its
  two laps from there: lap 1 on the inner ring, 1 symbol per cat roll, once
  round (passing the start exit: the mice still in the start are trapped);
  back on its start symbol it turns onto the outer ring, lap 2, 2 symbols per
  cat roll, once round, and its last move stops on its start symbol even if a
  step is left. Its run is then over and it leaves the board: it eats on that
  final move, then no more. Laps are counted in symbols, so the start exit
  must lie before the first cat symbol.
* **Passing.** A cat move *covers* every track space after its old space up
  to and including the space it lands on. Mice on covered spaces are eaten;
  if the start exit is covered, the mice still in the start house are
  trapped. A mouse may run past the cat: it is not eaten by its own move,
  only by a later cat move that covers its space. It may not end a move on
  the cat's space (it stops on the last space before, as before a full space).
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("red", "blue", "green", "yellow")  # seat order = the stations' default colours


@dataclass(frozen=True)
class House:
    """A corner house: entered from ``arrow_space``, pays its first ``pieces`` mice."""

    name: str
    arrow_space: int
    value: int
    pieces: int = 4


@dataclass(frozen=True)
class Board:
    """Everything about the layout and the components the rules refer to."""

    spaces: int
    start_exit: int
    houses: tuple[House, ...]
    emmentalia_wheels: int
    wheel_value: int
    cat_symbols: tuple[int, ...]
    #: (player count, start space of the cat): the cat symbols numbered 2, 3, 4;
    #: its two laps are counted from there
    cat_start: tuple[tuple[int, int], ...]
    #: symbols the cat moves per cat roll on lap 1 and on lap 2
    cat_speed: tuple[int, int]
    space_capacity: int
    #: (player count, mice per player)
    mice_per_player: tuple[tuple[int, int], ...]
    #: (player count, colours in seat order)
    colours: tuple[tuple[int, tuple[str, ...]], ...]

    def __post_init__(self) -> None:
        for house in self.houses:
            if not 1 <= house.arrow_space <= self.spaces:
                raise ValueError(f"{house.name}: arrow space {house.arrow_space} is off the track")
        if sorted(set(self.cat_symbols)) != list(self.cat_symbols):
            raise ValueError("cat_symbols must be increasing track spaces")
        if not self.start_exit < self.cat_symbols[0]:
            raise ValueError("the start exit must lie before the first cat symbol")
        for _, space in self.cat_start:
            if space not in self.cat_symbols:
                raise ValueError(f"cat start space {space} has no cat symbol")

    def house(self, name: str) -> House:
        for house in self.houses:
            if house.name == name:
                return house
        raise KeyError(f"no house {name!r}: the board has {', '.join(h.name for h in self.houses)}")

    def cat_start_space(self, players: int) -> int:
        return dict(self.cat_start)[players]

    def cat_start_route(self, players: int) -> int:
        """Which cat symbol (index into ``cat_symbols``) the cat starts on: its
        two laps are counted from there."""
        return self.cat_symbols.index(self.cat_start_space(players))

    def mice_count(self, players: int) -> int:
        return dict(self.mice_per_player)[players]

    def player_colours(self, players: int) -> tuple[str, ...]:
        return dict(self.colours)[players]

    def to_json(self) -> dict[str, object]:
        """What a scene needs to draw the board."""
        return {
            "spaces": self.spaces,
            "start_exit": self.start_exit,
            "houses": [
                {"name": h.name, "arrow_space": h.arrow_space, "value": h.value, "pieces": h.pieces}
                for h in self.houses
            ],
            "emmentalia": {"wheels": self.emmentalia_wheels, "value": self.wheel_value},
            "cat_symbols": list(self.cat_symbols),
            "cat_start": {str(players): space for players, space in self.cat_start},
            "cat_speed": list(self.cat_speed),
            "space_capacity": self.space_capacity,
        }


DEFAULT_BOARD = Board(
    spaces=20,
    start_exit=1,
    houses=(
        House("house-1", arrow_space=4, value=1),
        House("house-2", arrow_space=9, value=2),
        House("house-3", arrow_space=14, value=3),
        House("house-4", arrow_space=18, value=4),
    ),
    emmentalia_wheels=4,
    wheel_value=6,
    cat_symbols=(2, 4, 6, 8, 10, 12, 14, 16, 18, 20),
    cat_start=((2, 6), (3, 4), (4, 2)),
    cat_speed=(1, 2),
    space_capacity=4,
    mice_per_player=((2, 5), (3, 4), (4, 4)),
    colours=((2, ("red", "blue")), (3, ("red", "blue", "green")), (4, COLOURS)),
)
