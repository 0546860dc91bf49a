"""What every one of the box's processes needs from the operating system:
signals acted on at a safe moment (``signals``), whole lines on a shared
stderr (``terminal``), and where the files shipped beside the code are
(``resources``). Imports nothing of the box, the screen or the web."""
