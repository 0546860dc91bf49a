"""The board's pin map (generated from wiring/board-pinmap-lockout.toml; a test keeps
the two equal: edit the TOML, then run `buzzerbox firmware pinmap`)."""

# input channel -> GP pin of the Pico, read by a hard IRQ on both edges
DIRECT = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 10, 11: 11, 12: 12, 13: 13}
# chained SN74HCS165 (inputs) and 74HC595 (lights) on SPI0
SPI = {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000}
SR_LOAD = 17  # SN74HCS165 /PL: low loads the parallel inputs (the stamp instant)
SR_CHIPS = 8  # input channels 32 + 8*chip + bit (chip 0 nearest the Pico)
LIGHT_LATCH = 20  # 74HC595 RCLK
LIGHT_OE = 28  # 74HC595 /OE (pulled up): driven low only after the first all-off write
LIGHT_CHIPS = 8  # light channel 8*chip + bit (chip 0 nearest the Pico)
STATUS_LED = None  # the Pico's own LED: blinks with the heartbeat (None: no blink, GP25 has another job)
ACTIVE_LEVEL = 0  # switches to ground with pull-ups: 0 is pressed
DEBOUNCE = {"bounce_us": 10000, "glitch_us": 1000, "stuck_us": 10000000}
STANDALONE = {"bells": {0: 56, 1: 57, 2: 58, 3: 59, 4: 60, 5: 61, 6: 62}, "reset": 7, "buzzer": 63, "buzz_ms": 500, "tie_us": 20, "hold_s": 60}  # lockout box mode: no host, the board's own lockout
PIO_LOCKOUT = {"lamps": {0: 8, 1: 9, 2: 14, 3: 15, 4: 21, 5: 22, 6: 26}, "lights": {0: 56, 1: 57, 2: 58, 3: 59, 4: 60, 5: 61, 6: 62}, "locks": (27, 25)}  # the lockout in PIO: bell -> lamp GP, its light; LOCKs
