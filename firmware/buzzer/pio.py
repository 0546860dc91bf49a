"""PIO capture of the direct pins (``CAPTURE = "pio"``): on the Pico only.

NOT YET RUN ON HARDWARE (see firmware/README.md "PIO capture: on-hardware
check"); the IRQ path stays the default until it has. In the tests the PIO
program is assembled and run in a PIO emulator (tests/firmware/test_fw_pio.py),
and a CPython model of the sampler's output (controller/box/sources/board_sim.py
PioModel) feeds the very decoder below (``app.pio_words_to_edges``).

Design: state machine 0 samples GP0..15 (``in_base`` 0) and SM 1 GP21..28,
each in a 5-cycle loop, and pushes a sample only when it differs from the
last one pushed. DMA channel A copies each pushed sample into ``samples`` and
chains to channel B, which copies the RP2040's 1 MHz TIMERAWL into ``times``
and chains back to A: every sample gets the timer value a few bus cycles
after it was taken. Edges on pins that change together share a sample and a
stamp, whatever their GPIO numbers (the IRQ path orders them by pin number).
Precision: the sampling period (5 cycles at ``freq``) + the DMA hop + the
timer's 1 µs: declared ``period_us`` = 2 µs.

The main loop reads how far channel A has written and decodes new samples;
both rings hold ``RING`` words (a power of two: the DMA wraps them).
"""

# ruff: noqa: F821 - mov, in_, pins, isr... are the PIO assembler's names, given by rp2.asm_pio
import rp2

from .app import pio_words_to_edges

TIMERAWL = 0x40054028  # RP2040 timer, raw low word: µs since boot (same as ticks_us)
PIO0_RXF0 = 0x50200020  # RX FIFO of PIO0 SM0 (SM1 is +4)
DREQ_PIO0_RX0 = 4
RING = 256  # words per ring (1 KiB, ring_size 10)
FREQ = 10_000_000  # SM clock: a 5-cycle loop samples every 0.5 µs


@rp2.asm_pio()
def change_sampler():
    # Y = the last sample pushed, X = the sample now; IN pins from in_base, 16 wide.
    mov(isr, null)
    in_(pins, 16)
    mov(y, isr)
    wrap_target()
    label("sample")
    mov(isr, null)
    in_(pins, 16)
    mov(x, isr)
    jmp(x_not_y, "changed")
    jmp("sample")  # unchanged: 5 cycles per sample
    label("changed")
    mov(isr, x)
    push(noblock)
    mov(y, x)
    wrap()  # back to "sample"


class PioSampler:
    """Two state machines + four DMA channels; ``drain(board)`` in the main loop."""

    period_us = 2

    def __init__(self, pinmap):
        self.samples = [bytearray(4 * RING), bytearray(4 * RING)]
        self.times = [bytearray(4 * RING), bytearray(4 * RING)]
        self.read = [0, 0]
        self.dma = []
        self.sm = []
        self._last = 0
        for i, base in enumerate((0, 21)):
            sm = rp2.StateMachine(i, change_sampler, freq=FREQ, in_base=machine_pin(base))
            a, b = rp2.DMA(), rp2.DMA()
            a.config(read=PIO0_RXF0 + 4 * i, write=self.samples[i], count=1,
                     ctrl=a.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_sel=True,
                                      ring_size=10, treq_sel=DREQ_PIO0_RX0 + i, chain_to=b.channel))
            b.config(read=TIMERAWL, write=self.times[i], count=1,
                     ctrl=b.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_sel=True,
                                      ring_size=10, chain_to=a.channel))
            a.active(1)
            sm.active(1)
            self.dma.append((a, b))
            self.sm.append(sm)
        self.shift = (0, 21)

    def drain(self, board):
        for i in (0, 1):
            a = self.dma[i][0]
            head = (a.write - addressof(self.samples[i])) // 4 % RING
            r = self.read[i]
            while r != head:
                word = int.from_bytes(self.samples[i][4 * r:4 * r + 4], "little") << self.shift[i]
                t = int.from_bytes(self.times[i][4 * r:4 * r + 4], "little") & 0x3FFFFFFF
                other = self._last & ~(0xFFFF << self.shift[i])
                self._last = other | word
                pio_words_to_edges(board, t, self._last)
                r = (r + 1) % RING
            self.read[i] = r


def machine_pin(gp):
    from machine import Pin

    return Pin(gp, Pin.IN, Pin.PULL_UP)


def addressof(buf):
    import uctypes

    return uctypes.addressof(buf)
