"""The screen side of the runtime: the loop that drives a box's frames,
lights and sound (``loop``), the window (``screen``), the start menu's model
and scene, the diagnostics scene and the driver report. Scenes themselves are
drawn with ``games.toolkit``; each game brings its own."""
