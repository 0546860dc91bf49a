"""The display toolkit every game's scene draws with: colours, fonts and
layout (``theme``), the ``Scene`` base and the station strip (``scene``), the
generic results screen (``results``). pygame and the game contract only: it
names no game."""
