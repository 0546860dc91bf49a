"""The stations' default colours, as text: what a wiring profile gives a
station without its own ``color`` and what the screen paints it (no pygame
here, so the profile loader can share the list)."""

DEFAULT_COLORS = ["#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa", "#fb8c00", "#00acc1", "#d81b60"]
