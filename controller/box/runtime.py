"""The box: one running game, owned by one loop.

Sources call ``edge``/``press``/``notice`` from their own threads; those only
enqueue. The loop that owns the box calls ``step(now_us)``, which debounces,
maps presses to actions through the game's button map, feeds the engine,
journals every input and returns the events for the screen, lights and sound.
Replay and resume drive the very same methods from the journal.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import heapq
import itertools
import logging
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from controller.box import checkpoint as checkpoint_codec
from controller.box import snapshot
from controller.box.debounce import DebounceConfig
from controller.box.inputs import HOST_STATION, InputLayer
from controller.box.journal import (
    ActionRecord,
    CheckpointRecord,
    Journal,
    JournalError,
    JournalWriter,
    NoticeRecord,
    PressRecord,
    Record,
    TickRecord,
)
from controller.box.journal_format import encode_line, record_to_json
from controller.box.media import found_beside
from controller.box.press import (
    FUTURE_PRESS,
    UNTIMED_PRESS,
    InputNotice,
    NoticeKind,
    Press,
    Watermark,
)
from games.base import (
    HOST_RESUME,
    HOST_SHOWN,
    Action,
    BuzzerBoxError,
    EventKind,
    FirstPress,
    GameEvent,
    GameSettings,
    GameSpec,
    OptionError,
    RuleError,
)
from games.i18n import N_, _
from games.registry import get as get_game
from games.rules_version import as_played

log = logging.getLogger("buzzerbox")

#: every step checks the engine's declared race (``FirstPress``) against its decision, lamp or not,
#: and a difference raises (the test suite sets it: every game it plays proves lamp == decision)
CHECK_FIRST_PRESS = os.environ.get("BUZZERBOX_CHECK_FIRST_PRESS") == "1"

#: how the log and the demo's story say each common logged event (``COMMON_LOGGED_EVENTS``;
#: a game words its own in ``GameSpec.logged_events``; ``{player}``: the station's name)
COMMON_EVENT_WORDS: dict[str, str] = {
    "winner": N_("{player} was first"), "tie": N_("a tie"), "early": N_("{player} pressed too early"),
    "correct": N_("{player} was right"), "wrong": N_("{player} was wrong"), "time_up": N_("time is up"),
    "round_over": N_("the round is over"), "game_over": N_("the game is over"), "paused": N_("the game is paused"),
    "resumed": N_("the game goes on"), "rejected": N_("not allowed now"),
    "late_evidence": N_("a press reached the box late"), "adjusted": N_("the host changed a score"),
}


def event_words(spec: GameSpec, event_kind: str, player: str | None) -> str:
    """A logged event as a person reads it, in the box's language (the event's
    kind for one nobody words)."""
    words = spec.logged_events.get(event_kind) or COMMON_EVENT_WORDS.get(event_kind)
    if words is None:
        return event_kind
    text = _(words)
    return text.format(player=player or "?") if "{player}" in text else text


#: the notice a refused press from before this session is journaled as (``Box._stale``)
STALE_PRESS = NoticeKind.STALE
#: what the screen and the host page say while the journal's disk refuses records
JOURNAL_NOTICES = {
    "full": N_("Journal not saved: the card is full. The game goes on: free some space"),
    "read-only": N_("Journal not saved: the card is read-only. Game goes on, records in memory"),
    "failing": N_("Journal not saved: the card fails to write. Game goes on, records in memory"),
    "unsynced": N_("Journal not safe: the card fails to sync. A power cut now may lose records"),
}

#: what the screen says while a source has stopped saying how far it delivered (``Box.inputs_notice``):
#: every decision waits ``STALL_US`` for it until it speaks again
INPUTS_STALLED = N_("The {source} inputs stopped reporting: every decision waits {delay} ms for them until they report again")
#: ... and what the log says when a source stalls, and when it speaks again
STALLED_LOG = N_("the %s source has not said how far it delivered for %.1f s: until it does, every decision waits "
                 "%.1f s for it (a press it delivers later than that is late evidence)")
#: ... and when the box itself did not look at them for a while (``DEAF_GAP_US``)
DEAF_LOG = N_("the box did not look at its inputs for %.0f ms (its process was stopped or held up): that time is "
              "not counted as their silence")
REPORTING_AGAIN_LOG = N_("the %s source says how far it delivered again: decisions wait for its word, not %.1f s")
#: ... and while a source does not answer when asked how far it delivered (``SourceMark.fallback``)
INPUTS_UNANSWERED = N_("The {source} inputs do not say how far they delivered: decisions wait {delay} ms for them")
#: ... and while a source that delivered an input after saying it had is waited for longer (``Box.broken_promises``)
INPUTS_LATE = N_("Late inputs from {source}: {count} so far; decisions wait {delay} ms for them")
#: ... what the log says of the first such input of a burst, and of the rest of the burst at its end
BROKEN_PROMISE_LOG = N_("an input of the %s source reached the box %.2f ms after its stamp, after the source had "
                        "said it delivered past it (a decision may have gone past it): decisions now wait "
                        "%.2f ms for it (counted)")
BROKEN_BURST_LOG = N_("%d inputs in all reached the box after their source had said it delivered past them "
                      "(this burst)")

#: notices the host's remote (the companion pages) sends through the inbox:
#: pause and carry on (the game's clocks stop meanwhile, the bells do
#: nothing), and a player's new name (``InputNotice.input``). Journaled as
#: notices: a pause's effect on the game is the ``resume`` action it ends
#: with, and replay takes the names from them.
HOST_PAUSED, HOST_CONTINUED, RENAMED = EventKind.HOST_PAUSED, EventKind.HOST_CONTINUED, EventKind.RENAMED
#: a presenter clicker's buttons as host keys: the game's next step (arm, reveal, next), and the
#: pause card put up or taken down (docs/quiz.md, "Presenter clickers")
STEP, BLANK = "step", "blank"
#: the host keys that step forward: on a finished game's results, once the game takes them no more, they
#: close the results (``Box.leaves_results``: back to the menu as Enter does; ``play`` ends with its game)
LEAVE_RESULTS = (STEP, "next", "arm")

#: how many presses and events a live box keeps in memory (the strip and the
#: screen need only the newest; the journal on disk has every one)
LIVE_LOG_LIMIT = 1_000
#: the most the measured report delay may raise the horizon's guard: past
#: this a delivery is late evidence, not something to wait for
MAX_GUARD_US = 500_000
#: a late delivery raises the guard to its lateness, plus this share of it
#: (a source late once tends to be a little later next time: a storm, a busy
#: core) ...
LATE_HEADROOM_PERCENT = 50
#: ... plus this margin: the guard covers the lateness measured, not a fixed
#: floor (a 50 ms floor made nearly every decision after one late edge wait
#: 50 ms for 3 s; docs/benchmarks.md)
LATE_MARGIN_US = 1_000
#: a raised guard halves back toward the stated delay after this long
#: without a late delivery
GUARD_RELAX_US = 3_000_000


SOURCE_EVENTS_KEPT = 4096

#: a live box journals a checkpoint after this many records (``Box.checkpoint_if_due``)
CHECKPOINT_EVERY = 5_000
#: ... at a quiet moment only: no engine deadline within this
CHECKPOINT_QUIET_US = 1_000_000
#: a checkpoint line must stay well below the reader's limit for one (``journal_format.MAX_CHECKPOINT_LINE_BYTES``)
CHECKPOINT_MAX_BYTES = 16 << 20

#: how a live box knows that every input up to a moment is in (``Box.horizon_policy``): by each
#: source's watermark (``Watermark``, ``Source.delivered_until_us``), waiting a stated report delay
#: only for a source that cannot tell; or, for comparison (``benchmarks/realtime.py``), by the old
#: fixed delay for every source, raised when an edge comes late
HORIZON_WATERMARKS, HORIZON_FIXED_DELAY = "watermarks", "fixed-delay"
HORIZON_POLICIES = (HORIZON_WATERMARKS, HORIZON_FIXED_DELAY)
#: a source that has not said how far it delivered for this long is stalled: while it stays silent the
#: horizon trails now by this much (never past a press it may still deliver, but not held for ever),
#: so every decision waits this long; the screen and the log say so, and a press it delivers later
#: than that is late evidence
STALL_US = MAX_GUARD_US
#: the box did not look at its sources for longer than this between two steps (its process stopped
#: or frozen by the machine, its deciding thread starved; the thread looks at least every 5 ms): that
#: time is not counted as a source's silence (``SourceMark.silent_from_us``), so the box never calls a
#: source stalled, and decides past the edges waiting in its pipe, for a pause that was its own
DEAF_GAP_US = 50_000
#: the box's latest pauses kept for its sources' stated delays (``Box._delay_word``): each pause is at
#: least ``DEAF_GAP_US``, so these span more than any delay (``MAX_GUARD_US``) of listening
PAUSES_KEPT = 2 * MAX_GUARD_US // DEAF_GAP_US + 1
#: ``Box.sources_holding`` asks a probe at this moment, which no source has reached: one that
#: holds nothing answers about it, one that holds edges answers before them (or cannot say)
HOLDING_ASKED_AT_US = 1 << 62


@dataclass
class SourceMark:
    """How far one live source has delivered, on the game's timeline."""

    name: str
    #: asked at every step for sources that can tell at once (``EdgeReader.delivered_until_us``)
    probe: Callable[[int], int | None] | None = None
    #: its allowance: at best the probe answers this far behind now (``EdgeReader.capture_us``); raised
    #: above what it stated (``stated_lag_us``) while it breaks its promises (``Box.broken_promises``):
    #: the horizon then trails now by this much for it, whatever it says
    probe_lag_us: int = 0
    mark_us: int | None = None
    #: its edges and presses reach the box itself (``follow_source``), not forwarded from another process:
    #: one taken after its word passed its stamp is its broken promise
    delivers: bool = False
    #: its word as the last horizon was found (``Box.sources_until_us``): what an arrival is judged by
    promised_us: int | None = None
    #: the allowance it stated, which a raised one relaxes back to; when it last broke a promise (game µs)
    stated_lag_us: int = 0
    broken_at_us: int = 0
    #: when the box began following it (game µs): a source that has not said anything yet has been
    #: silent since then, and is stalled ``STALL_US`` after it, not at the first step
    followed_at_us: int | None = None
    #: it has not said for ``STALL_US``: every decision waits ``STALL_US`` for it until it speaks
    stalled: bool = False
    #: its silence is counted from here (game µs) while its word is older: the box's own pauses
    #: (``DEAF_GAP_US``) moved it on from its word by as long (None: from its word)
    silent_from_us: int | None = None
    #: its word as the last horizon took it (its stated delay's, if that decides for it): what a
    #: pause of the box's own moves its silence on from (``Box._not_deaf``)
    word_us: int | None = None
    #: asks the source to say at once how far it delivered (``BoardSource.ask_watermark``), when a
    #: decision waits on it; False from it: it cannot answer, and its stated delay is waited instead
    ask: Callable[[], bool] | None = None
    #: box time of an ask not answered yet (None: none in flight)
    asked_us: int | None = None
    #: it cannot answer (older firmware) ...
    refused: bool = False
    #: ... or left its last ask unanswered for the stated delay (until it answers one): decisions
    #: wait the stated delay for it (``latency_guard_us``), and the screen's inputs line says so
    timed_out: bool = False
    unanswered: int = 0

    def silent_since(self, word_us: int) -> int:
        """Where its silence is counted from, its word being ``word_us``: there, or later where
        the box's own pauses moved it on (``silent_from_us``)."""
        return word_us if self.silent_from_us is None else max(word_us, self.silent_from_us)

    def said(self, t_us: int) -> bool:
        """It said it delivered everything stamped up to ``t_us`` (one that never spoke: since it was followed)."""
        said = self.mark_us if self.mark_us is not None else self.followed_at_us
        return said is not None and said >= t_us

    @property
    def fallback(self) -> bool:
        """Decisions wait its stated delay, not its watermarks."""
        return self.refused or self.timed_out


class Parkable(Protocol):
    """A source's reader thread the deciding thread parks while it waits for an armed lamp
    (``PipeReader.park``): what it would hand over waits for the deciding thread's own read."""

    def park(self, parked: bool) -> None: ...


class ArmedLamp(NamedTuple):
    """A lamp ``Box.armed_lamp`` found: the station and status it lights at ``at_us`` (game µs)
    if nothing that can change it comes first; ``race_us``: the moment its race is decided."""

    station: int
    status: str
    at_us: int
    race_us: int


#: a press that settles this little before its race is decided (its tie window) is lit armed at the
#: race's moment (``Box.armed_lamp``): the spin goes on to it rather than step at the settling
ARMED_LATER_US = 300

#: the session header's key naming how the box told late evidence from a late
#: press it could still play (``Box.judges_late_by_decisions``); a journal
#: without it was written when any press stamped before time the game had
#: seen was late evidence, and is replayed by that rule
LATE_RULE_KEY = "late_rule"
LATE_AFTER_A_DECISION = "after_a_decision"


def raised_guard_us(lateness_us: int) -> int:
    """The guard after a delivery ``lateness_us`` after its stamp: in
    proportion to what was measured, plus a margin."""
    return lateness_us + lateness_us * LATE_HEADROOM_PERCENT // 100 + LATE_MARGIN_US



def stations_of(settings: GameSettings, station_kinds: Sequence[str] | None) -> list[str]:
    """The stations' kinds of a game (every one ``full`` unless the wiring says)."""
    return list(station_kinds or ["full"] * settings.players)


def names_of(settings: GameSettings, station_names: Sequence[str] | None) -> list[str]:
    """The stations' names of a game ("Player N" unless named)."""
    return list(station_names or [_("Player {n}").format(n=i + 1) for i in range(settings.players)])


def session_header(spec: GameSpec, settings: GameSettings, station_kinds: Sequence[str] | None = None,
                   station_names: Sequence[str] | None = None, debounce: DebounceConfig | None = None,
                   **extra: Any) -> dict[str, Any]:
    """A game's session header (the journal's first line but its ``type`` and
    ``version``): what a ``Box`` journals, and what a screen sends the
    deciding process to start a new game (``protocol.Start``) without a box of its own."""
    return {
        "game": spec.name,
        "rules": spec.rules_version,
        "settings": settings.to_json(),
        "stations": stations_of(settings, station_kinds),
        "station_names": names_of(settings, station_names),
        "debounce": asdict(debounce or DebounceConfig()),
        LATE_RULE_KEY: LATE_AFTER_A_DECISION,
        **extra,
    }

class Box(InputLayer):
    """A game with its input layer: sources deliver to it, ``step`` feeds the engine."""

    def __init__(
        self,
        spec: GameSpec,
        settings: GameSettings,
        station_kinds: Sequence[str] | None = None,
        *,
        debounce: DebounceConfig | None = None,
        journal: JournalWriter | None = None,
        latency_guard_us: int = 0,
        station_names: Sequence[str] | None = None,
    ) -> None:
        super().__init__(settings.players, debounce)  # the inbox the sources deliver to
        self.spec = spec
        self.settings = settings
        try:
            self.engine = spec.new_engine(settings)
        except BuzzerBoxError:
            raise
        except ValueError as exc:  # the engine's own checks of its settings
            raise OptionError(N_("{game}: {problem}"), game=spec.title, problem=str(exc)) from exc
        self.station_kinds = stations_of(settings, station_kinds)
        if len(self.station_kinds) != settings.players:
            raise OptionError(N_("{kinds} station kinds for {players} players: give one kind per station"),
                              kinds=len(self.station_kinds), players=settings.players)
        self.station_names = names_of(settings, station_names)
        self.journal = journal
        self.latency_guard_us = latency_guard_us
        self.now_us = 0
        self.paused = False
        self.paused_at_us = 0
        #: the host paused the game (``HOST_PAUSED``), since ``host_paused_at_us``
        self.host_paused = False
        self.host_paused_at_us = 0
        #: added to every source stamp to get game time: a live game starts at
        #: 0, and a resumed one carries on the journal's timeline although the
        #: kernel's clock restarted (or ran on) meanwhile
        self.time_offset_us = 0
        #: accepted presses and events: all of them when replaying (disputes),
        #: the newest ``LIVE_LOG_LIMIT`` in a live box (``bound_logs``)
        self.press_log: deque[Press] = deque()
        self.event_log: deque[GameEvent] = deque()
        self.presses_total = 0
        #: held while the box steps; whoever reads the engine from another
        #: thread (the frame, the host's keys) holds it too
        self.lock = threading.RLock()
        #: the report delay the sources stated; ``latency_guard_us`` may rise
        #: above it while deliveries are measured later than that
        self.stated_delay_us: int | None = None
        #: inputs that reached the box later than the wait allowed for them (the stated delay; with
        #: watermarks, after their source said it delivered past them: ``broken_promises``), the worst lateness
        self.late_deliveries = 0
        self.worst_delivery_us = 0
        self._last_late_us = 0
        #: the stamps (game µs) of the inputs the stated delay's guard counted late in this step
        #: (``_delivered``): one that also broke its source's word is one late input, not two
        self._counted_late: list[int] = []
        #: the sources' own edges and presses as they arrived (``InputLayer.arrivals``), judged by each step
        self.arrivals = deque()
        #: with watermarks: inputs that came after their source said it had delivered past their stamp,
        #: in the burst being logged (``broken_promises``)
        self._broken_burst = 0
        #: a source's allowance is raised above its stated one: ``broken_promises`` relaxes it in time
        self._raised = False
        #: the engine has seen everything up to this stamp (inputs and ticks);
        #: a station press stamped before it is late evidence
        self.engine_until_us = -(1 << 62)
        #: the newest stamp the game's state may have changed at: an input handed to the
        #: engine, or a tick that fired something (a tick firing nothing changes nothing:
        #: ``Engine``'s time rules). A station press stamped before it is late evidence,
        #: since had it come in time it could have changed that decision; one stamped after
        #: it is played as if it had come in time (the engine ranks by stamp), so a lone
        #: press a loaded box got late still counts
        self.decided_at_us = -(1 << 62)
        #: how late evidence is told (``LATE_RULE_KEY``): a live box, and the replay of a
        #: journal that says so, by ``decided_at_us``; an older journal's replay by
        #: ``engine_until_us``, as it was played
        self.judges_late_by_decisions = True
        #: when this session of the game began (game µs): a press stamped before it is an earlier
        #: boot's or session's (an input board replaying its buffer) and is refused (``stale_presses``)
        self.session_start_us = -(1 << 62)
        self.stale_presses = 0
        #: an input board's events it refused (its notices, journaled): stamped in the box's future, or of a
        #: boot that rebooted before its clock was mapped as stated. The board logs the first of a burst;
        #: the counts are logged at the end, as ``stale_presses`` is
        self.future_presses = 0
        self.untimed_presses = 0
        #: times the kernel dropped GPIO edge events (``NoticeKind.LOST`` notices), and the game µs of the newest
        self.lost_edges = 0
        self.lost_edges_us: int | None = None
        self._journal_notice: str | None = None  # the journal notice the viewers were last told
        self._journaled_until_us = -(1 << 62)
        self.on_events: list[Callable[[list[GameEvent]], None]] = []
        self._held: list[tuple[int, int, Press | Action]] = []  # inputs waiting for the horizon
        #: the newest source event ids taken (``Press.source_event``): a board replays to a
        #: restarted host what the dead one had not acked, journaled or not
        self._source_events: set[str] = set()
        self._source_order: deque[str] = deque()
        self._order = itertools.count()
        #: while a deciding thread steps the box, the log lines of what it decided wait here until
        #: the lamp is lit (``flush_log``): one written to stderr cost ~0.16 ms before the lamp
        #: (held as the call that writes it: an event worded when written, the translation after the lamp
        #: too); the broken promises' lines wait there too (``_say``)
        self.held_log: list[Callable[[], None]] | None = None
        #: while a deciding step runs, the journal records it makes wait here until its lamp is lit
        #: (``flush_records``): encoding them and waking the writer thread cost the lamp ~0.1 ms
        self.held_records: list[Record | dict[str, Any]] | None = None
        #: how the horizon is found (``HORIZON_POLICIES``)
        self.horizon_policy = HORIZON_WATERMARKS
        #: the live sources that say how far they delivered, by name (``follow_source``)
        self.marks: dict[str, SourceMark] = {}
        #: the edge readers whose pipes the box reads itself too (their marks' probes): parked by the
        #: deciding thread while it waits for an armed lamp (``Decider``), unparked when it steps on
        self.edge_readers: list[Parkable] = []
        #: live sources that cannot tell: the horizon stays their stated delay behind now
        self.delay_sources: set[str] = set()
        #: how often a source stalled, and the most a decision waited for sources (game µs)
        self.stalls = 0
        self.longest_wait_us = 0
        #: when the box last stepped (game µs), and how often it paused longer than
        #: ``DEAF_GAP_US`` (its process stopped or frozen): those pauses are not the sources' silence
        self._looked_us: int | None = None
        self.deaf_pauses = 0
        #: the latest such pauses, oldest first: (when the box last stepped before it, when it stepped
        #: again), game µs: a stated delay is counted in the time the box listened (``_delay_word``)
        self._pauses: deque[tuple[int, int]] = deque(maxlen=PAUSES_KEPT)
        #: the horizon the last step found (game µs): the view says how far it is behind
        self.horizon_us = -(1 << 62)
        #: the furthest horizon any step found (game µs): a raised allowance lowers the horizon, but what
        #: was decided past stays decided; an arrival is judged by this (``broken_promises``)
        self._passed_us = -(1 << 62)
        #: writes a station's lamp for a status at once, returns when it went on (None: not on): the
        #: deciding process's lamps. With it, a step whose horizon passes the decision of the race the
        #: engine declared (``FirstPress``) lights the winner before the engine's own step
        self.first_lamp: Callable[[int, str], int | None] | None = None
        #: where the host station's presses go once the game is finished (the deciding process's host keys:
        #: ``DecidingGame.key``): on the final results the host box's own buttons do as the screen's keys and
        #: the host page's buttons (a step forward the game takes no more closes them: ``leaves_results``).
        #: None: to the game, as in a replay (in the game they stay on the timeline, in order with the stations')
        self.results_keys: Callable[[str, int], object] | None = None
        #: host keys by name (game µs) from another thread, decided at the next step (``host_key``)
        self._keys: deque[tuple[str, int]] = deque()
        #: (station, when its lamp went on) of this step's early lamp (the deciding thread resets it;
        #: when: None also after a miss, so the lamps are put back to the statuses, that moment unreported)
        self.first_lit: tuple[int, int | None] | None = None
        #: the stamp the horizon must pass for the next decision a player waits for (game µs; None:
        #: none), found with ``next_decision_due_us``: a reader holding only edges after it holds nothing
        #: that decision waits for (``sources_holding``)
        self.decision_first_us: int | None = None
        #: races lit early, and early lamps the engine's decision then differed from (a bug: logged, and
        #: raised under ``CHECK_FIRST_PRESS``, which the test suite sets)
        self.first_press_lamps = 0
        self.first_press_misses = 0
        #: (station, status, when it went on) of the lamp ``fire_armed`` lit at a decision's moment, before
        #: this step (the deciding thread resets it): the step's own decision is checked against it
        self.armed_lit: tuple[int, str, int | None] | None = None
        #: the engine's changes (an input handled, a tick that fired something, a restore), counted: the
        #: declared race is read again only after one (``first_press_rule``); each press's action kind
        self._engine_changes = 0
        self._rule_read_at = -1
        self._rule: FirstPress | None = None
        self._press_kinds: dict[tuple[int, str], str | None] = {}

    # -- header for the journal ---------------------------------------------------
    def header(self, **extra: Any) -> dict[str, Any]:
        return session_header(self.spec, self.settings, self.station_kinds, self.station_names,
                              self.debouncer.config, **extra)

    # -- the loop's side ------------------------------------------------------------
    # Inputs reach the engine in stamp order and never past the *horizon*: the
    # moment up to which every source has surely reported (latency guard) and
    # before any press still being debounced. So a bouncier switch touched
    # first cannot lose to a cleaner one touched after it, and host actions
    # (judge, arm, shown) take their place on the same timeline.

    def bound_logs(self, limit: int = LIVE_LOG_LIMIT) -> None:
        """Keep only the newest ``limit`` presses and events in memory (a live
        game: the journal has every one, and ``replay --disputes`` reads it)."""
        self.press_log = deque(self.press_log, maxlen=limit)
        self.event_log = deque(self.event_log, maxlen=limit)

    def measure_report_delay(self, clock: Callable[[], int] | None = None) -> None:
        """From now on, every delivery is checked against the stated report
        delay (``latency_guard_us``): one later than it is counted and logged,
        and the guard rises to cover it (``raised_guard_us``, up to
        ``MAX_GUARD_US``), relaxing again after ``GUARD_RELAX_US``
        without a late one. With ``clock`` (the sources' clock) lateness is
        taken as each input reaches the inbox; without it (virtual time), when
        a step takes it."""
        self.stated_delay_us = self.latency_guard_us
        self.arrival_clock = clock

    def _delivered(self, now_us: int, stamps: list[int]) -> None:
        """The measured report delay: how long after its stamp each edge or
        press reached the box, the box's own pauses left out."""
        stated = self.stated_delay_us
        if stated is None:
            return
        came: list[tuple[int, int]] = []  # (stamp, arrival), game µs
        if not self._waits_fixed_delay() and not self.delay_sources:
            self.guard_arrivals.clear()  # every source says how far it delivered: one that breaks its word is ``broken_promises``'
        elif self.arrival_clock is not None:
            offset = self.time_offset_us
            while self.guard_arrivals:
                stamp, arrived = self.guard_arrivals.popleft()
                came.append((stamp + offset, arrived + offset))
        else:
            came = [(t_us, now_us) for t_us in stamps]
        for t_us, arrived in came:
            lag = arrived - t_us
            if lag > self.latency_guard_us:  # (only a late one is looked at again: this runs before the lamp)
                lag -= self._paused_within(t_us, arrived)  # the box's own pauses: it waited for the box (``_not_deaf``)
            if lag > self.latency_guard_us:
                self.late_deliveries += 1
                self._counted_late.append(t_us)
                self.worst_delivery_us = max(self.worst_delivery_us, lag)
                self._last_late_us = now_us
                raised = min(MAX_GUARD_US, raised_guard_us(lag))
                if raised > self.latency_guard_us:
                    log.warning("an input reached the box %.2f ms after its stamp (stated delay %.2f ms): "
                                "decisions now wait %.2f ms", lag / 1e3, stated / 1e3, raised / 1e3)
                    self.latency_guard_us = raised
        if self.latency_guard_us > stated and now_us - self._last_late_us > GUARD_RELAX_US:
            self.latency_guard_us = max(stated, self.latency_guard_us // 2)
            self._last_late_us = now_us
            log.info("inputs on time again: decisions wait %.1f ms", self.latency_guard_us / 1e3)

    def broken_promises(self, now_us: int) -> None:
        """With watermarks: a source's own edge or press taken now that is stamped at or before the
        furthest horizon the box had passed (``_passed_us``: a raised allowance lowers the horizon, not
        what was decided), after the source said it had delivered past that stamp (its
        watermark, or its reader's answer), broke that promise: a decision may have gone past it.
        Each is counted (``late_deliveries``, ``worst_delivery_us``), the first of a burst logged (the
        burst's count at its end), and the allowance of the sources that promised it (all that
        deliver to the box: which one did is not known; usually there is one)
        (``SourceMark.probe_lag_us``) raised to cover the lateness measured (``raised_guard_us``,
        up to ``MAX_GUARD_US``): the horizon trails now by it for them, so the next contest waits for
        such an input. A raised allowance halves back toward the stated one after each
        ``GUARD_RELAX_US`` without another (as the fixed delay's guard does), and is the stated
        one again once within ``LATE_MARGIN_US`` of it. An input stamped before this session
        began (a board replaying an earlier boot's) promised nothing to this game."""
        arrivals, counted = self.arrivals, self._counted_late
        if counted:  # (the idle step, before its lamp, makes no new list)
            self._counted_late = []
        if not arrivals and not self._broken_burst and not self._raised:
            return  # the idle step's case, before its lamp: nothing to judge, to end or to relax
        if arrivals is None or self._waits_fixed_delay():
            if arrivals:
                arrivals.clear()
            return
        broken = 0
        delivering = [m for m in self.marks.values() if m.delivers]
        while arrivals:
            stamp, arrived = arrivals.popleft()
            t_us = stamp + self.time_offset_us
            if t_us > self._passed_us or t_us < self.session_start_us:
                continue
            # which of them delivered it is not known: it broke a promise only if each had made it (one
            # silent past its stamp, stalled, may deliver it late: late evidence if a decision went past)
            if delivering and all(m.promised_us is not None and m.promised_us >= t_us for m in delivering):
                broken += 1
                came = now_us - self.time_offset_us if arrived is None else arrived
                late_us = came - stamp - self._paused_within(t_us, came + self.time_offset_us)
                if t_us in counted:  # the guard's measure counted it: its allowance is raised, not the count
                    counted.remove(t_us)
                else:
                    self.late_deliveries += 1
                self._broke(delivering, late_us, now_us)
        if not broken and self._broken_burst:
            if self._broken_burst > 1:
                self._say(logging.WARNING, _(BROKEN_BURST_LOG), self._broken_burst)
            self._broken_burst = 0
        self._raised = False
        for mark in self.marks.values():
            if mark.probe_lag_us > mark.stated_lag_us and now_us - mark.broken_at_us > GUARD_RELAX_US:
                halved = mark.probe_lag_us // 2
                mark.probe_lag_us = halved if halved - mark.stated_lag_us >= LATE_MARGIN_US else mark.stated_lag_us
                mark.broken_at_us = now_us
                self._say(logging.INFO, "the %s source's inputs on time again: decisions wait %.2f ms for it",
                          mark.name, mark.probe_lag_us / 1e3)
            self._raised = self._raised or mark.probe_lag_us > mark.stated_lag_us

    def _broke(self, promised: list[SourceMark], late_us: int, now_us: int) -> None:
        """One input ``late_us`` after its stamp, delivered after ``promised`` said they were past it
        (counted by the caller: the guard's measure may have counted it already)."""
        self.worst_delivery_us = max(self.worst_delivery_us, late_us)
        allowance = min(MAX_GUARD_US, raised_guard_us(max(0, late_us)))
        for mark in promised:
            mark.broken_at_us = now_us
            mark.probe_lag_us = max(mark.probe_lag_us, allowance)
            self._raised = self._raised or mark.probe_lag_us > mark.stated_lag_us
        if self._broken_burst == 0:
            self._say(logging.WARNING, _(BROKEN_PROMISE_LOG), ", ".join(m.name for m in promised), late_us / 1e3,
                        max(m.probe_lag_us for m in promised) / 1e3)
        self._broken_burst += 1

    def step(self, now_us: int) -> list[GameEvent]:
        """Take everything the sources delivered, let time pass to ``now_us``."""
        self.now_us = max(self.now_us, now_us)
        self._not_deaf(now_us)
        events: list[GameEvent] = []
        until: list[int] = []  # asked once a step: the settle below decides by the same answer
        if self.armed_lit is None:  # (lit armed: the sources were asked then, and what came since is left)
            self.probe_sources(now_us)  # before the inbox is drained: what they delivered by then is taken below

        def measure(stamps: list[int]) -> int:  # how far behind now the sources are surely in
            self._delivered(now_us, stamps)
            self.broken_promises(now_us)
            until.append(self.sources_until_us(now_us))
            return now_us - until[-1]

        for out in self.take(now_us, self.time_offset_us, self.latency_guard_us, measure):
            if isinstance(out, Press) and (self._stale(out) or self._ignored_while_host_paused(out)):
                continue
            if isinstance(out, Press):
                self._accept(out)
            elif isinstance(out, Action):  # a phone's move (controller/web): on the timeline like a press
                self._submit(out.t_us, out)
            else:
                events += self.apply_notice(out)
        while self._keys:  # (what came with them is on the timeline already: decided in order with them)
            events += self.host_button(*self._keys.popleft())
        return events + self._settle(until[-1] if until else None) + self._journal_changed(now_us)

    def journal_notice(self) -> str | None:
        """One line for the screen and the host page while the journal cannot
        be written (translated; None while it is healthy): the game goes on,
        the records wait in memory, and what to do."""
        trouble = None if self.journal is None else getattr(self.journal, "trouble", None)
        return None if trouble is None else _(JOURNAL_NOTICES[trouble])

    def _journal_changed(self, now_us: int) -> list[GameEvent]:
        """A ``journal`` event when the journal's notice changed: the viewers are told at once."""
        notice = self.journal_notice()
        if notice == self._journal_notice:
            return []
        self._journal_notice = notice
        return self._emit([GameEvent(EventKind.JOURNAL, now_us, None, {"notice": notice})])

    def apply_press(self, press: Press) -> list[GameEvent]:
        """A press debounced elsewhere (scenario, test): accept it, then settle."""
        self._accept(press)
        return self._settle()

    def apply_action(self, action: Action) -> list[GameEvent]:
        """An action that did not come from a station press (host, scenario, bot)."""
        self.now_us = max(self.now_us, action.t_us)  # it is happening: box time is at least its stamp
        self._submit(action.t_us, action)
        return self._settle()

    def host(self, kind: str, t_us: int, **args: Any) -> list[GameEvent]:
        """A host action from the keyboard, the menu or a simulated host."""
        return self.apply_action(Action(kind, t_us, None, args))

    def host_kind(self, name: str, legal: Collection[str] | None = None) -> str:
        """A generic host button (arm, next, reset ...) as the running game's
        own action: the first alias the engine accepts now (``legal``: the
        host's actions now, if the caller has asked the engine already).
        ``step`` (a presenter clicker's next) is the game's next step in its
        phase now (``GameSpec.host_steps``)."""
        if name == STEP:
            phase = str(self.engine.public_view().get("phase", ""))
            steps = self.spec.host_steps
            kinds = steps[phase] if phase in steps else self.spec.host_kinds("arm")
            if not kinds:  # nothing to step to now: the game refuses it, the screen says the key does nothing
                return STEP
        else:
            kinds = self.spec.host_kinds(name)
        legal = self.engine.legal_actions(None) if legal is None else legal
        return next((k for k in kinds if k in legal), kinds[0])

    def leaves_results(self, name: str, legal: Collection[str] | None = None) -> bool:
        """The host key ``name`` steps past a finished game's results: a step forward (``LEAVE_RESULTS``: a
        clicker's next, next, arm) whose action the game takes no more (``legal``: the host's actions now, if
        the caller has asked the engine already). The one rule for the screen's keys and the host page's
        buttons: the deciding process closes the results on it (``DecidingGame.host_key``), the host page
        offers it as its way back (``views.host_buttons``); a key the game still takes there (the last
        answer's reveal, an undo) is the game's."""
        if name not in LEAVE_RESULTS or not self.engine.finished:
            return False
        legal = self.engine.legal_actions(None) if legal is None else legal
        return self.host_kind(name, legal) not in legal

    def host_key(self, name: str, t_us: int) -> None:
        """A host key by name, stamped on the box's clock, from another thread: the host page's game button
        (``CompanionServer`` in this process; the phones' server of a deciding process sends it as a ``HostKey``
        instead), decided at the next step as the deciding process decides it (``host_button``)."""
        self._keys.append((name, t_us + self.time_offset_us))
        self.arrived.set()

    def host_button(self, name: str, t_us: int) -> list[GameEvent]:
        """A host key by name (the keyboard's, a presenter clicker's): ``blank``
        puts the pause card up (the game paused, as the host page's Pause) or
        takes it down; any other is the game's own action (``host_kind``)."""
        if name == BLANK:
            kind = HOST_CONTINUED if self.host_paused else HOST_PAUSED
            with self.lock:
                events = self.apply_notice(InputNotice(HOST_STATION, "host", kind, t_us))
                return events + self._settle()
        return self.host(self.host_kind(name), t_us)

    def shown(self, t_us: int) -> list[GameEvent]:
        """The display flipped the frame that shows the newest card / GO."""
        return self.apply_action(Action(HOST_SHOWN, t_us))

    def _stale(self, press: Press) -> bool:
        """True (and counted) for a press stamped before this session began: it
        was made while no game ran here, so it is never played."""
        if press.t_us >= self.session_start_us:
            return False
        self.stale_presses += 1
        # journaled as a notice, not a press: the journal keeps every press that reached the box,
        # and a replay never plays it (a notice only sets the strip's state)
        self._write(NoticeRecord(InputNotice(press.station, press.input, STALE_PRESS, press.t_us)))
        if self.stale_presses == 1:
            log.warning("a press of station %d stamped %.1f s before this game began was refused: an input "
                        "board replays what an earlier boot did not acknowledge (counted; the count is logged "
                        "at the end)", press.station, (self.session_start_us - press.t_us) / 1e6)
        return True

    def close_out(self, now_us: int) -> list[GameEvent]:
        """The game is closing and its sources are stopped, so no input stamped
        earlier can still come: every input taken (delivered, or held for the
        horizon) goes to the game and into the journal now, before its end."""
        with self.lock:
            self.handed_over()
            events = self.step(now_us)
            while self._held:
                events += self._deliver(heapq.heappop(self._held)[2])
            if self.stale_presses:
                log.warning("%d presses stamped before this game began were refused (not played)",
                            self.stale_presses)
            if self.future_presses:
                log.warning("%d input(s) stamped in the box's future were refused in this game (not played)",
                            self.future_presses)
            if self.untimed_presses:
                log.warning("%d board event(s) of a boot that rebooted before its clock was mapped were refused "
                            "in this game (not played)", self.untimed_presses)
            return events

    def _accept(self, press: Press) -> None:
        """A debounced press: light the strip at once, queue it for the game."""
        if not self.first_delivery(press):
            log.info("press %s of station %d again from its source (a restarted host is sent what "
                     "was not acknowledged): already taken, ignored", press.source_event, press.station)
            return
        self.press_log.append(press)
        self.presses_total += 1
        self.note_press(press)
        self._submit(press.t_us, press)

    def first_delivery(self, press: Press) -> bool:
        """False for a press whose source event was taken already (kept for the
        newest ``SOURCE_EVENTS_KEPT``: far more than a board holds unacknowledged)."""
        key = press.source_event
        if not key:
            return True
        if key in self._source_events:
            return False
        self._source_events.add(key)
        self._source_order.append(key)
        if len(self._source_order) > SOURCE_EVENTS_KEPT:
            self._source_events.discard(self._source_order.popleft())
        return True

    def _submit(self, t_us: int, item: Press | Action) -> None:
        heapq.heappush(self._held, (t_us, next(self._order), item))

    def next_held_us(self) -> int | None:
        """Stamp of the earliest input not yet handed to the game."""
        return self._held[0][0] if self._held else None

    def next_due_us(self) -> int | None:
        """The next moment (box time) a step could decide something without
        a new delivery: a press settling, a held input or an engine deadline
        passing the horizon. The deciding thread sleeps until then, or until
        a source delivers."""
        if self.paused or self.host_paused:
            return None  # nothing is decided until it goes on: a delivery wakes the deciding thread
        return self._due(self.debouncer.next_due_us())

    def _due(self, debounce_due_us: int | None) -> int | None:
        """When the horizon may pass the first thing that waits for it: a
        debounce moment, or a held input or engine deadline not stuck behind a
        press still being debounced (those wait for that press, whose own
        moment is the debounce one: returning theirs made the deciding thread
        spin on a moment already past). With watermarks the moment is the
        thing's own stamp, plus the sources' allowances; one the sources have
        not passed yet although it is past is woken by their next delivery, an
        answer to the ask made now, or their stall. So is one a source that
        pushes its watermarks and cannot be asked (the screen's keyboard) has
        not reached: only its next delivery can move the horizon past it, and
        a wake at the moment itself would find it where it was."""
        first = self._first_due(debounce_due_us)
        if first is None:
            return None
        if self._waits_fixed_delay():
            return self._delay_due(first, self.latency_guard_us)
        marks = self.marks.values()
        delay = self.latency_guard_us if self.delay_sources or any(m.fallback for m in marks) else 0
        due = first + max([*(m.probe_lag_us for m in marks), delay])
        if delay:
            due = max(due, self._delay_due(first, delay))
        if due > self.now_us and self.horizon_us < first and self._pushed_behind(first):
            return self._stall_due(first)
        if due <= self.now_us and self.horizon_us < first:
            # past but not delivered through: a delivery wakes the thread first (an answer to
            # the ask made now), or the stated delay after an ask nobody answered
            unanswered = self._ask(first)
            stall = self._stall_due(first)
            return stall if unanswered is None else min(stall, max(unanswered, due))
        return due

    def _stall_due(self, first_us: int) -> int:
        """When a source silent since before ``first_us`` is stalled and the horizon passes it:
        ``STALL_US`` after it, or after where its silence is counted from, if the box's own pauses
        moved that on (``sources_until_us``)."""
        moved = [m.silent_from_us + 1 for m in self.marks.values()  # stalled once its silence is *over* STALL_US
                 if m.silent_from_us is not None and not m.stalled and not m.said(first_us)]
        return max([first_us, *moved]) + STALL_US

    def _pushed_behind(self, first_us: int) -> bool:
        """A source that pushes its watermarks, and cannot be asked for one, has not said it
        delivered up to ``first_us``, and no source that can be asked is behind too (that one
        is asked at the moment itself: ``_ask``)."""
        behind = [m for m in self.marks.values() if m.probe is None and not m.fallback and not m.said(first_us)]
        return bool(behind) and all(m.ask is None for m in behind)

    def _first_due(self, debounce_due_us: int | None) -> int | None:
        """The stamp the horizon must pass next (``_due``; None: nothing waits)."""
        pending = self.debouncer.earliest_pending_us()
        stamps = [] if debounce_due_us is None else [debounce_due_us]
        stamps += [d for d in (self.next_held_us(), self.engine.next_deadline_us())
                   if d is not None and (pending is None or d < pending)]
        return min(stamps) if stamps else None

    def next_decision_due_us(self) -> int | None:
        """Like ``next_due_us``, but only what can decide something a player
        waits for: a press being debounced, a held input, an engine deadline
        (not a release lockout ending). The deciding thread spins to such a
        moment rather than trust a timed wait to it (``Decider``)."""
        pending = self.debouncer.next_due_us() if self.debouncer.earliest_pending_us() is not None else None
        self.decision_first_us = self._first_due(pending)
        return self._due(pending)

    def decided_until_us(self, now_us: int, sources_until_us: int | None = None) -> int:
        """The horizon: not past what every source has surely reported (``sources_until_us``,
        if already asked this step), and not up to a press that is still being debounced."""
        until = self.sources_until_us(now_us) if sources_until_us is None else sources_until_us
        pending = self.debouncer.earliest_pending_us()
        if pending is not None:
            until = min(until, pending - 1)
        return until

    # -- how far the sources have delivered -----------------------------------------------
    def follow_source(self, name: str, *, watermarks: bool,
                      probe: Callable[[int], int | None] | None = None, probe_lag_us: int = 0,
                      ask: Callable[[], bool] | None = None, now_us: int | None = None) -> None:
        """A live source this box decides by: one that says how far it has
        delivered (``watermarks``: it sends ``Watermark``s, or answers ``probe``
        with a stamp on its own clock; ``ask``: it is asked for one whenever a
        decision waits on it, as the input board is), or one that waits its
        stated report delay (``latency_guard_us``). Followed from ``now_us``
        (game µs; the box's time if not given): until it first speaks, nothing
        past that moment is decided, for ``STALL_US`` at most."""
        self.handed_over()  # (its silence is counted from ``now_us``)
        if watermarks or probe is not None:
            self.marks[name] = SourceMark(name, probe, probe_lag_us, ask=ask, delivers=True, stated_lag_us=probe_lag_us,
                                          followed_at_us=self.now_us if now_us is None else now_us)
        else:
            self.delay_sources.add(name)

    def marked(self, mark: Watermark) -> None:
        """A source's watermark; one never followed (the keyboard the screen
        forwards) is followed from its first. A source followed by its stated
        delay keeps it. One asked for (``SourceMark.ask``) is an answer."""
        if mark.source in self.delay_sources:
            return
        known = self.marks.setdefault(mark.source, SourceMark(mark.source))
        known.mark_us = mark.t_us if known.mark_us is None else max(known.mark_us, mark.t_us)
        if known.asked_us is not None:
            known.asked_us, known.timed_out = None, False

    def _ask(self, first_us: int) -> int | None:
        """Something stamped ``first_us`` is due now but a source that can be asked
        has not said it delivered that far: ask it (once per answer). Returns
        when an ask still unanswered falls back to the stated delay (None: none)."""
        wake: int | None = None
        for mark in self.marks.values():
            if mark.ask is None or (mark.mark_us is not None and mark.mark_us >= first_us):
                continue
            if mark.asked_us is None:
                answers = mark.ask()
                if not answers and not mark.refused:
                    log.warning("the %s source cannot say how far it delivered: decisions wait its stated "
                                "delay (%.1f ms) for it", mark.name, self.latency_guard_us / 1e3)
                mark.refused = not answers
                if answers:
                    mark.asked_us = self.now_us
            if mark.asked_us is not None:
                at = mark.asked_us + self.latency_guard_us
                wake = at if wake is None else min(wake, at)
        return wake

    def sources_behind(self, t_us: int, now_us: int) -> list[str]:
        """The live sources that have not yet said they delivered every input
        stamped up to ``t_us`` (a game's close waits for them: a press on its
        way when the game closed is journaled), as the last step found them
        (those that can tell at once are asked by each step, before it takes
        what came); one waited for by its stated delay is behind until it passed."""
        waited = now_us - self.latency_guard_us >= t_us
        behind = [] if waited else sorted(self.delay_sources)
        for mark in self.marks.values():
            said = mark.mark_us is not None and mark.mark_us >= t_us
            if not said and not (waited and (mark.fallback or self._waits_fixed_delay())):
                behind.append(mark.name)
        if behind:
            self._ask(t_us)
        return behind

    def probe_sources(self, now_us: int) -> None:
        """The sources that can tell at once asked how far they delivered (their marks raised by
        the answers); an edge reader not busy hands over what waits in its pipe on this thread
        first (``PipeReader.take_waiting``: an edge written before the step is taken in it). Only
        before the inbox is drained (``step``): an edge a reader hands over after its answer
        covered it would lie undrained behind a horizon past its stamp."""
        if self._waits_fixed_delay():
            return
        for mark in self.marks.values():
            if mark.probe is not None:
                self._asked(mark, now_us)

    def _asked(self, mark: SourceMark, now_us: int) -> int | None:
        """``mark``'s probe asked at ``now_us`` (game µs): its answer (game µs; None: it cannot
        say), its mark raised by it."""
        assert mark.probe is not None
        told = mark.probe(now_us - self.time_offset_us)
        if told is None:
            return None
        told += self.time_offset_us
        mark.mark_us = told if mark.mark_us is None else max(mark.mark_us, told)
        return told

    def _waits_fixed_delay(self) -> bool:
        return self.horizon_policy == HORIZON_FIXED_DELAY or not self.marks

    def sources_until_us(self, now_us: int) -> int:
        """Up to which stamp every source has surely delivered: the oldest
        watermark (the sources that can tell at once as this step asked them), and the stated delay
        behind now for a source that cannot. A source silent for ``STALL_US``
        (one that never spoke: since it was followed) is stalled: the horizon
        trails now by ``STALL_US`` for it until it speaks again, so a press it
        may still deliver is not decided past, and no decision waits longer;
        that is said once."""
        if self._waits_fixed_delay():
            return self._delay_word(now_us, self.latency_guard_us)
        until = self._delay_word(now_us, self.latency_guard_us) if self.delay_sources else now_us
        floor = now_us - STALL_US
        for mark in self.marks.values():
            said = mark.mark_us if mark.mark_us is not None else mark.followed_at_us
            mark.promised_us = mark.mark_us
            if said is not None and mark.probe_lag_us > mark.stated_lag_us:  # it broke its word: allowed for
                said = min(said, now_us - mark.probe_lag_us)
            if mark.asked_us is not None and now_us - mark.asked_us >= self.latency_guard_us:
                mark.asked_us = None  # unanswered for the stated delay: that delay decides until it answers
                mark.timed_out = True
                mark.unanswered += 1
                if mark.unanswered == 1:
                    self._say(logging.WARNING, "the %s source did not answer how far it delivered within its "
                              "stated delay (%.1f ms): that delay decides until it answers (counted)", mark.name,
                              self.latency_guard_us / 1e3)
            if mark.fallback:  # the stated delay decides for it, or its raised allowance while that is more
                waited = self.latency_guard_us
                if mark.probe_lag_us > mark.stated_lag_us:
                    waited = max(waited, mark.probe_lag_us)
                said = self._delay_word(now_us, waited) if said is None else max(said, self._delay_word(now_us, waited))
            mark.word_us = said
            if said is None or mark.silent_since(said) < floor:  # silent for STALL_US of the box's listening
                if not mark.stalled:
                    mark.stalled = True
                    self.stalls += 1
                    self._say(logging.WARNING, _(STALLED_LOG), mark.name, STALL_US / 1e6, STALL_US / 1e6)
                said = floor
            elif mark.stalled:
                mark.stalled = False
                self._say(logging.INFO, _(REPORTING_AGAIN_LOG), mark.name, STALL_US / 1e6)
            until = min(until, said)
        if now_us - until > self.longest_wait_us:  # (the box's own pauses are no wait for the sources)
            self.longest_wait_us = max(self.longest_wait_us, now_us - until - self._paused_within(until, now_us))
        return until

    def handed_over(self) -> None:
        """Whoever steps the box from now on is not the deciding thread that stepped it last (the
        game closes, a source is followed anew): the time since its last step is no pause of the
        box's own (``_not_deaf``)."""
        self._looked_us = None

    def _not_deaf(self, now_us: int) -> None:
        """If the box did not step for more than ``DEAF_GAP_US`` before ``now_us`` (the deciding
        thread steps at least every 5 ms, paused or not), that pause was its own: every source not
        stalled has its silence counted from as much later (``SourceMark.silent_from_us``), an ask
        in flight has as long again to be answered, and stated delays leave the pause out
        (``_delay_word``). Else a stopped or frozen process would call its reader stalled and decide
        past the edges waiting in its pipe: the runner-up's press won, the first presser's still
        unread (found so: the deciding process stopped for 0.6 s with the feed writing on)."""
        looked = self._looked_us
        self._looked_us = now_us if looked is None else max(looked, now_us)
        if looked is None or now_us - looked <= DEAF_GAP_US or not (self.marks or self.delay_sources):
            return  # (a box that follows no live source, as in virtual time, steps when it likes)
        pause = now_us - looked
        self.deaf_pauses += 1
        self._pauses.append((looked, now_us))
        self._say(logging.WARNING, _(DEAF_LOG), pause / 1e3)
        for mark in self.marks.values():
            said = mark.word_us
            if mark.stalled or said is None:
                continue  # silent before the pause too: stalled it stays
            mark.silent_from_us = min(now_us, mark.silent_since(said) + pause)
            if mark.asked_us is not None:
                mark.asked_us = min(now_us, mark.asked_us + pause)

    def _paused_within(self, from_us: int, to_us: int) -> int:
        """How much of ``from_us`` to ``to_us`` (game µs) the box spent in pauses of its own (as far as
        the ``PAUSES_KEPT`` newest say)."""
        return sum(max(0, min(end, to_us) - max(start, from_us)) for start, end in self._pauses)

    def _delay_word(self, now_us: int, waited_us: int) -> int:
        """What a source decided by a stated delay (``waited_us``: the fixed-delay guard, a source
        that cannot tell, a board that does not answer its asks) is taken to have delivered by
        ``now_us``: what it stamped ``waited_us`` of the box's listening ago. The box's own pauses
        (``_not_deaf``) are not counted: a press of a pause reaches the box up to that delay after
        it (the board's bytes wait in the serial buffer, and the deciding thread runs first)."""
        t, left = now_us, waited_us
        for start, end in reversed(self._pauses):
            if end > t:
                continue
            if t - end >= left:
                break
            left -= t - end
            t = start
        return t - left

    def _delay_due(self, first_us: int, waited_us: int) -> int:
        """When ``_delay_word`` passes ``first_us`` (as far as the pauses so far say): ``waited_us``
        of the box's listening after it."""
        t, left = first_us, waited_us
        for start, end in self._pauses:
            if end <= t:
                continue
            if start >= t:
                if start - t >= left:
                    break
                left -= start - t
            t = end
        return t + left

    def sources_holding(self) -> bool:
        """A source that says how far it delivered holds an edge it has not handed over yet that the
        next decision waits for (bytes waiting in its pipe or not yet split, or a report stamped
        before ``decision_first_us``): no step can decide that until it is delivered, and its reader
        needs the interpreter to deliver it (``Decider``'s spin waits for it instead of holding the
        interpreter). One holding only later edges holds nothing it waits for: the spin goes on, and
        the step decides while the reader hands them over. Asks the probes only: the horizon's
        marks are not changed, but a reader not busy hands what waits in its pipe over on this
        thread as it answers (``PipeReader.take_waiting``): the inbox has it, ``arrived`` is set,
        and only a reader thread busy handing a chunk over is waited for."""
        if self._waits_fixed_delay():
            return False
        first = self.decision_first_us
        for mark in self.marks.values():
            if mark.probe is None or mark.stalled:
                continue
            told = mark.probe(HOLDING_ASKED_AT_US)  # a reader holding nothing answers about then
            if told is None or (first is not None and told + self.time_offset_us < first):
                return True
        return False

    def decided_by(self) -> dict[str, str]:
        """How each live source's deliveries are waited for: by its watermarks (asked for, when
        it can be), or its stated delay (a source that cannot tell, or does not answer)."""
        if self.horizon_policy == HORIZON_FIXED_DELAY:
            return {name: "delay" for name in [*self.marks, *self.delay_sources]}
        return {**{name: "delay" for name in self.delay_sources},
                **{name: "delay (no answer)" if m.fallback else "watermarks asked for" if m.ask else "watermarks"
                   for name, m in self.marks.items()}}

    def stalled_sources(self) -> list[str]:
        """The sources silent for ``STALL_US``, which every decision waits that long for (the screen says so)."""
        return sorted(m.name for m in self.marks.values() if m.stalled)

    def inputs_notice(self) -> str | None:
        """One line for the screen while a source is stalled, or does not answer how far it
        delivered and is waited for by its stated delay (translated; None while all report)."""
        stalled = self.stalled_sources()
        if stalled:
            return _(INPUTS_STALLED).format(source=", ".join(stalled), delay=f"{STALL_US / 1e3:g}")
        unanswered = sorted(m.name for m in self.marks.values() if m.fallback)
        if unanswered:
            return _(INPUTS_UNANSWERED).format(source=", ".join(unanswered), delay=f"{self.latency_guard_us / 1e3:g}")
        raised = sorted((m for m in self.marks.values() if m.probe_lag_us > m.stated_lag_us), key=lambda m: m.name)
        if raised:
            return _(INPUTS_LATE).format(source=", ".join(m.name for m in raised), count=self.late_deliveries,
                                         delay=f"{max(m.probe_lag_us for m in raised) / 1e3:g}")
        return None

    def _settle(self, sources_until_us: int | None = None) -> list[GameEvent]:
        if self.paused or self.host_paused:
            return []
        horizon = self.horizon_us = self.decided_until_us(self.now_us, sources_until_us)
        self._passed_us = max(self._passed_us, horizon)
        promised = None
        if self._held and self._held[0][0] <= horizon and (self.first_lamp is not None or CHECK_FIRST_PRESS):
            promised = self._first_press_due(horizon)
            if promised is not None and self.armed_lit is not None and self.armed_lit[:2] == promised[:2]:
                self.first_lit = (promised[0], self.armed_lit[2])  # lit at the moment already (``fire_armed``)
                self.first_press_lamps += 1
            elif promised is not None and self.first_lamp is not None:
                self.first_lit = (promised[0], self.first_lamp(promised[0], promised[1]))
                self.first_press_lamps += 1
        events: list[GameEvent] = []
        if promised is not None:  # the press, then the engine's time to the promised moment, checked there: a
            events += self._deliver(heapq.heappop(self._held)[2])  # host's key or a deadline later in this
            events += self._tick(promised[2])  # step may change the status again (a TickRecord, replayed)
            self._check_first_press(promised[0], promised[1])
        while self._held and self._held[0][0] <= horizon:
            events += self._deliver(heapq.heappop(self._held)[2])
        events += self._tick(horizon)
        return events

    def _first_press_due(self, horizon: int, held: list[tuple[int, int, Press | Action]] | None = None
                         ) -> tuple[int, str, int] | None:
        """The station, status and moment the engine's declared race (``FirstPress``) decides now,
        when this step's horizon passes its decision: the first input held is a counted press of a
        competing station stamped after the engine's time (one in its past, from a stalled or
        fixed-delay source, is decided after whatever else the step hands over first), nothing else
        (no input, no deadline of the engine's) comes before its decision's moment, and that moment
        is within the horizon. None: not decided now, or not declared."""
        rule = self.first_press_rule()
        if rule is None:
            return None
        held = self._held if held is None else held  # (``armed_lamp``'s copy)
        t_us, _order, press = held[0]
        if not isinstance(press, Press) or t_us < rule.stations.get(press.station, t_us + 1):
            return None
        at = rule.decided_at_us(t_us, press.precision_us)
        deadline = self.engine.next_deadline_us()
        if (at > horizon or horizon <= self.engine_until_us  # the engine's time has to move for it to decide
                or t_us < self.late_before_us() or t_us < self.engine_until_us
                or (deadline is not None and deadline <= at)
                or any(other[0] <= at for other in held if other is not held[0])):
            return None
        seat = self.stations[press.station]
        if not seat.connected or seat.stuck:  # its lamp shows that, not the race
            return None
        key = (press.station, press.input)
        if key not in self._press_kinds:
            bound = self.spec.buttons.lookup(self.station_kinds[press.station], press.input)
            self._press_kinds[key] = None if bound is None else bound[0]
        if self._press_kinds[key] != rule.action:
            return None
        return press.station, rule.status, at

    def armed_lamp(self, at_us: int) -> ArmedLamp | None:
        """The race's winner (station, status) a step at the moment returned (``at_us``, or
        the race's own moment when that is a little later) lights first (``first_lamp``) if
        nothing is delivered before it and every source then says it delivered up to that
        moment less its allowance (``fire_armed`` checks both then): found on copies of the
        busy inputs and the held ones, nothing changed. The deciding thread asks while it waits
        for a decision's moment (``Decider``): at the moment the lamp costs a question to each
        source, not the step's ~0.1 ms. What waits in the inbox is not in it: ``fire_armed``
        lights it only if none of that can change it (``beside_armed``), which lets the thread
        arm when a delivery wakes it. None: no such lamp, or the box is in a state left to the
        step (paused, a source waited for by a stated delay, asked, stalled or late, a notice due)."""
        if self.first_lamp is None or self.first_press_rule() is None:
            return None  # no race declared: nothing to arm (and nothing copied to find that out)
        projected = self._armed_at(at_us)
        if isinstance(projected, int) and at_us < projected <= at_us + ARMED_LATER_US:
            projected = self._armed_at(projected)  # a press settled before its race's moment: lit at that
        return projected if isinstance(projected, ArmedLamp) else None

    def _armed_at(self, at_us: int) -> ArmedLamp | int | None:
        """``armed_lamp`` at ``at_us``; an int: no lamp then, but the moment the first held press's
        race would be decided (its stamp's tie window passed, the sources' allowance after it)."""
        until = self._armed_until(at_us)
        if until is None or self.first_lamp is None or self.paused or self.host_paused:
            return None
        busy = self.debouncer.busy_copy()
        held = list(self._held)
        settled = sorted(busy.poll(until), key=lambda o: o.t_us)
        for n, out in enumerate(settled):
            if not isinstance(out, Press) or out.t_us < self.session_start_us or out.source_event:
                return None  # the strip changes, a stale press, a board's: the step's
            heapq.heappush(held, (out.t_us, (1 << 62) + n, out))  # after every input queued before it
        pending = busy.earliest_pending_us()
        horizon = until if pending is None else min(until, pending - 1)
        if not held or held[0][0] > horizon:
            return None
        promised = self._first_press_due(horizon, held)
        if promised is not None:
            return ArmedLamp(promised[0], promised[1], at_us, promised[2])
        rule, first = self.first_press_rule(), held[0][2]
        if rule is None or not isinstance(first, Press):
            return None
        return rule.decided_at_us(first.t_us, first.precision_us) + at_us - until

    def _armed_until(self, at_us: int) -> int | None:
        """The horizon's source side at ``at_us`` (``sources_until_us``) when every source
        is followed by its watermarks and keeps its word: a reader asked then answers
        ``at_us`` less its allowance; one that pushes its marks, what it said. None otherwise."""
        if self._waits_fixed_delay() or self.delay_sources:
            return None
        until = at_us
        for mark in self.marks.values():
            if mark.fallback or mark.stalled or mark.asked_us is not None or mark.probe_lag_us > mark.stated_lag_us:
                return None
            said = at_us - mark.probe_lag_us if mark.probe is not None else mark.mark_us
            if said is None or said < at_us - STALL_US:
                return None
            until = min(until, said)
        return until

    def fire_armed(self, armed: ArmedLamp, now_us: int) -> bool:
        """At a decision's moment (``now_us`` >= ``at_us``), the lamp ``armed_lamp(at_us)``
        found, lit at once if every source that is asked says it delivered up to ``at_us`` less
        its allowance and nothing reached the inbox since: the step that follows takes the same
        inputs and decides the same (the lamp is checked against it, ``armed_lit``): called in
        that step's hold of ``lock``, before it; it takes only what was looked at here and asks
        the sources nothing more (what comes later is the next step's). False: the step
        decides, and lights."""
        for mark in self.marks.values():
            if mark.probe is not None:
                told = self._asked(mark, now_us)  # hands over what waits: then not fired
                if told is None or told < armed.at_us - mark.probe_lag_us:
                    return False
        if not self.beside_armed(armed) or self.first_lamp is None:
            return False
        self.armed_lit = (armed.station, armed.status, self.first_lamp(armed.station, armed.status))
        self.looked_only = True  # the step takes what was looked at, as a step at this moment would
        return True

    def may_stay_armed(self) -> bool:
        """Everything waiting in the inbox is an edge or a watermark, the only kinds that can
        leave an armed lamp standing (``beside_armed``): worth arming for before a step."""
        return all(kind in ("edge", "watermark") for kind, _item, _precision, _slack in self.waiting())

    def beside_armed(self, armed: ArmedLamp) -> bool:
        """Whatever was delivered since ``armed_lamp`` cannot change its lamp: only edges of other
        stations stamped after the race's moment, and watermarks (a press there would be
        confirmed later, after the race is decided; an earlier edge, one of the winner's own
        lines, a press, a move or a notice can: the step decides)."""
        for kind, item, _precision, _slack in self.waiting():
            if kind == "watermark" and item.source in self.marks:  # a first one makes a source followed
                continue
            if kind != "edge" or item.station == armed.station or item.t_us + self.time_offset_us <= armed.race_us:
                return False
        return True

    def armed_missed(self, armed: tuple[int, str, int | None]) -> None:
        """The lamp lit at the moment (``fire_armed``) is not what the step then decided (a bug:
        the deciding thread puts the lamps right at once)."""
        self.first_press_misses += 1
        log.error("the lamp lit at a decision's moment (station %d, %s) is not what the step decided (%s): "
                  "``armed_lamp`` is wrong", armed[0], armed[1], self.first_lit)
        if CHECK_FIRST_PRESS:
            raise AssertionError(f"armed lamp {armed} but the step lit {self.first_lit}")

    def first_press_rule(self) -> FirstPress | None:
        """The race the engine declares now (``FirstPress``; None: none), read again only after the
        engine changed: the deciding thread reads it while it waits for a decision's moment, so the
        step that decides finds it ready (it took ~35 µs of a lamp step's ~0.1 ms read there)."""
        if self._rule_read_at != self._engine_changes:
            declared = getattr(self.engine, "first_press", None)
            self._rule = declared() if declared is not None else None
            self._rule_read_at = self._engine_changes
        return self._rule

    def _check_first_press(self, station: int, status: str) -> None:
        """The engine decided what its declared race promised (the lamp lit early shows it)."""
        shown = self.engine_statuses()
        if station < len(shown) and shown[station] == status:
            return
        self.first_press_misses += 1
        if self.first_lit is not None:  # not the decision's lamp: the deciding thread puts it right, unstamped
            self.first_lit = (self.first_lit[0], None)
        log.error("the first press lit station %d's lamp early (%s) but the game decided otherwise (%s): "
                  "the game's FirstPress is wrong", station, status, shown)
        if CHECK_FIRST_PRESS:
            raise AssertionError(f"FirstPress promised station {station} {status!r}; the engine shows {shown}")

    def _deliver(self, item: Press | Action) -> list[GameEvent]:
        """Hand one input to the engine, journaling it in the order the engine saw it."""
        if isinstance(item, Action):
            self._write(ActionRecord(item))
            self._seen(item.t_us, decided=True)
            return self._apply(item)
        press = item
        if press.station == HOST_STATION and self.results_keys is not None and self.engine.finished:
            self.results_keys(press.input, press.t_us)  # journaled as what the host key then does
            return []
        if press.station != HOST_STATION and press.t_us < self.late_before_us():
            return self._late_evidence(press)
        self._write(PressRecord(press, self.now_us))
        self._seen(press.t_us, decided=True)
        if press.station == HOST_STATION:
            kind = self.host_kind(press.input)
            return self._apply(Action(kind, press.t_us, None, precision_us=press.precision_us))
        if not 0 <= press.station < len(self.stations):
            log.warning("press from station %d, which this game does not have; ignored", press.station)
            return []
        action = self.spec.buttons.action(press.station, press.input, self.station_kinds[press.station],
                                          press.t_us, press.precision_us, press.clock, press.clock_precision_us)
        return [] if action is None else self._apply(action)

    def _seen(self, t_us: int, journaled: bool = True, decided: bool = False) -> None:
        self.engine_until_us = max(self.engine_until_us, t_us)
        if journaled:
            self._journaled_until_us = max(self._journaled_until_us, t_us)
        if decided:
            self.decided_at_us = max(self.decided_at_us, t_us)

    def late_before_us(self) -> int:
        """A station press stamped before this is late evidence: its timely
        arrival could have changed what the game has decided since."""
        return self.decided_at_us if self.judges_late_by_decisions else self.engine_until_us

    def _late_evidence(self, press: Press) -> list[GameEvent]:
        """A station press stamped before what the game has already decided on
        (``late_before_us``). The game never goes back in time, so it does not
        get the press; the room is told instead (screen, log, journal), and
        the host may act. Replay finds the very same press late: every input
        and every tick that fired something is journaled (an older journal's
        rule needs how far the game had got, so it is journaled first)."""
        if not self.judges_late_by_decisions and self._journaled_until_us < self.engine_until_us:
            self._write(TickRecord(self.engine_until_us))
            self._journaled_until_us = self.engine_until_us
        self._write(PressRecord(press, self.now_us))
        behind = self.late_before_us() - press.t_us
        return self._emit([GameEvent(EventKind.LATE_EVIDENCE, max(self.now_us, press.t_us), press.station,
                                     {"pressed_us": press.t_us, "input": press.input, "behind_us": behind})])

    def _tick(self, until_us: int) -> list[GameEvent]:
        events = self.engine.tick(until_us)
        if events:
            self._engine_changes += 1
            self._write(TickRecord(until_us))
        self._seen(until_us, journaled=bool(events), decided=bool(events))
        return self._emit(events)

    def apply_notice(self, notice: InputNotice) -> list[GameEvent]:
        """One notice of a step's batch. Nothing is decided here: ``step``
        settles once the whole batch is in, so a resume never decides past a
        press delivered in the same batch."""
        self._write(NoticeRecord(notice))
        self.note(notice)
        if notice.kind == FUTURE_PRESS:
            self.future_presses += 1
            if self.future_presses == 1:
                log.warning("an input of station %d stamped in the box's future was refused (not played): its "
                            "source's clock is wrong (counted; the count is logged at the end)", notice.station)
        elif notice.kind == UNTIMED_PRESS:
            self.untimed_presses += 1
        elif notice.kind == NoticeKind.LOST:
            self.lost_edges, self.lost_edges_us = self.lost_edges + 1, notice.t_us
        if notice.kind in (HOST_PAUSED, HOST_CONTINUED):
            return self._host_pause(notice.kind == HOST_PAUSED, notice.t_us)
        if notice.kind == RENAMED:
            return self._emit([GameEvent(RENAMED, notice.t_us, notice.station, {"name": notice.input})])
        if notice.kind in (NoticeKind.DISCONNECTED, NoticeKind.CONNECTED) and notice.station == HOST_STATION:
            # the whole board went away / came back
            was_paused, self.paused = self.paused, notice.kind == NoticeKind.DISCONNECTED
            if was_paused == self.paused:
                log.info("input board %s", notice.kind)
                return []
            log.warning("input board %s: game %s", notice.kind, "paused" if self.paused else "resumed")
            if self.paused:
                self.paused_at_us = notice.t_us
                return [GameEvent(EventKind.PAUSED, notice.t_us)]
            # the game's clocks stood still meanwhile: tell it how long, stamped
            # when the inputs went away, so it comes before the presses held since
            away = max(0, notice.t_us - self.paused_at_us)
            self._submit(self.paused_at_us, Action(HOST_RESUME, self.paused_at_us, None, {"paused_us": away}))
            return [GameEvent(EventKind.RESUMED, notice.t_us, None, {"paused_us": away})]
        return []

    # -- the host's pause and names (the companion pages' host remote) -----------------
    def note(self, notice: InputNotice) -> None:
        """The strip's state, and a player's new name (live and in replay)."""
        super().note(notice)
        if notice.kind == RENAMED and 0 <= notice.station < len(self.station_names) and notice.input.strip():
            self.station_names[notice.station] = notice.input.strip()

    def _host_pause(self, pausing: bool, t_us: int) -> list[GameEvent]:
        """The host paused or carried on: as for a board that went away, the
        game sees nothing meanwhile and its clocks get the time back with a
        ``resume`` action stamped when the pause began."""
        if pausing == self.host_paused:
            return []
        self.host_paused = pausing
        log.info("game %s by the host", "paused" if pausing else "carries on")
        if pausing:
            self.host_paused_at_us = t_us
            return self._emit([GameEvent(HOST_PAUSED, t_us)])
        away = max(0, t_us - self.host_paused_at_us)
        self._submit(self.host_paused_at_us, Action(HOST_RESUME, self.host_paused_at_us, None, {"paused_us": away}))
        return self._emit([GameEvent(HOST_CONTINUED, t_us, None, {"paused_us": away})])

    def _ignored_while_host_paused(self, press: Press) -> bool:
        """A station's press made while the host has the game paused does
        nothing (not journaled: the game never sees it); one made before the
        pause still counts when it goes on."""
        if not self.host_paused or press.station == HOST_STATION or press.t_us < self.host_paused_at_us:
            return False
        log.info("%s pressed while the game is paused: ignored", self._name(press.station))
        return True

    def _apply(self, action: Action) -> list[GameEvent]:
        """The engine's time to the action's stamp first, then the action: what fell due on
        the way (a timeout, a race a deadline decided) is emitted, journaled and published
        whether or not the game then refuses the action (an engine's ``handle`` ticks first
        too, and a refusal used to lose that tick's events though its state had moved on)."""
        events = self._tick(action.t_us)
        try:
            self._engine_changes += 1  # (a refused action may have changed it too: counted before)
            done = self.engine.handle(action)
        except RuleError as exc:
            log.info("not allowed: %s", exc)
            done = [GameEvent(EventKind.REJECTED, action.t_us, action.player, {"kind": action.kind, **exc.to_json()})]
        return events + self._emit(done)

    def _emit(self, events: list[GameEvent]) -> list[GameEvent]:
        for event in events:
            if self.spec.logs(event.kind):  # in words; what it carries (answers too) only with -vv
                who = None if event.player is None else self._name(event.player)
                if self.held_log is not None:
                    self.held_log.append(functools.partial(self._log_event, event.kind, who, event.t_us))
                else:
                    self._log_event(event.kind, who, event.t_us)
            if log.isEnabledFor(logging.DEBUG):
                log.debug("event %s", event)
        self.event_log.extend(events)
        for listener in self.on_events:
            listener(events)
        return events

    def flush_log(self) -> None:
        """The log lines of what was decided, held while the lamp was lit (``held_log``)."""
        if self.held_log:
            lines, self.held_log = self.held_log, []
            for write in lines:
                write()

    def _say(self, level: int, text: str, *args: object) -> None:
        """A log line of the step's; while a deciding step holds them, written after its lamp (``held_log``)."""
        if self.held_log is not None:
            self.held_log.append(functools.partial(log.log, level, text, *args))
        else:
            log.log(level, text, *args)

    def _log_event(self, kind: str, who: str | None, t_us: int) -> None:
        log.info("%s at %.3f s", event_words(self.spec, kind, who), t_us / 1e6)

    def _name(self, station: int) -> str:
        return self.station_names[station] if 0 <= station < len(self.station_names) else f"station {station}"

    def _write(self, record: Record | dict[str, Any]) -> None:
        if self.journal is None:
            return
        if self.held_records is not None:
            self.held_records.append(record)
        else:
            self.journal.write(record)

    def flush_records(self) -> None:
        """Journal the records a deciding step held until its lamp was lit
        (``held_records``), in their order, and stop holding: the caller still
        holds ``lock``, so no other record comes between."""
        held, self.held_records = self.held_records, None
        if held and self.journal is not None:
            for record in held:
                self.journal.write(record)

    # -- what the strip shows ---------------------------------------------------------
    def statuses(self, view: Mapping[str, Any] | None = None) -> list[str]:
        """Per station, the status its lamp and strip cell show: the engine's,
        under the input layer's (disconnected, stuck). Without ``view`` (the
        engine's public view, if already asked for) from the engine's
        ``station_statuses()`` when it has one: the lamp's path never builds
        the whole public view (~50 µs of a quiz's, before the winner's lamp)."""
        given = view.get("status", []) if view is not None else self.engine_statuses()
        out = []
        for i, st in enumerate(self.stations):
            status = given[i] if i < len(given) else "idle"
            if not st.connected:
                status = "disconnected"
            elif st.stuck:
                status = "stuck"
            out.append(status)
        return out

    def engine_statuses(self) -> list[str]:
        """Per station, the engine's status alone (``station_statuses()`` when it has one)."""
        fast = getattr(self.engine, "station_statuses", None)
        return list(fast() if fast is not None else self.engine.public_view().get("status", []))

    def strip(self, view: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Per station: its name, the engine's status, and the input layer's
        state (``view``: the engine's public view now, if already asked for)."""
        view = self.engine.public_view() if view is None else view
        out = []
        for i, (st, status) in enumerate(zip(self.stations, self.statuses(view), strict=True)):
            recent = st.recently_pressed(self.now_us)
            out.append(
                {
                    "name": self.station_names[i],
                    "status": status,
                    "pressed": recent,
                    "stuck": sorted(st.stuck),
                    "presses": st.presses,
                }
            )
        return out

    def summary(self) -> dict[str, Any]:
        return {"game": self.spec.name, "players": self.settings.players, "seed": self.settings.seed, **self.engine.summary()}

    def end(self, t_us: int) -> None:
        """The game's one close in its journal, however it ended: every input
        taken goes to the game and into the journal (``close_out``), then the
        ``end`` record at ``t_us``, then the file is closed (written and
        fsynced; what the disk still refused is counted in ``journal.unsaved``).
        Nothing without a journal."""
        if self.journal is None:
            return
        try:
            self.close_out(t_us)
            self._write({"type": "end", "t_us": t_us})
        finally:
            self.journal.close()


    # -- checkpoints: a restart replays only what follows the newest (docs/journal.md) ---------
    #: a live box writes a checkpoint once this many records followed the last one
    checkpoint_every = CHECKPOINT_EVERY
    #: the journal's sequence number the newest checkpoint had (0: none yet)
    checkpoint_seq = 0
    #: the checkpoint this box was restored from (0: none: it has every event of the game since its start)
    restored_from = 0
    #: why this game gets no checkpoints (its state holds what the codec does not write), said once
    checkpoint_refused: str | None = None

    def quiet(self) -> bool:
        """Nothing is being decided: no press being debounced, nothing held for
        the horizon, no pause, and no engine deadline within ``CHECKPOINT_QUIET_US``."""
        if self._held or self.paused or self.host_paused or self.debouncer.earliest_pending_us() is not None:
            return False
        deadline = self.engine.next_deadline_us()
        return deadline is None or deadline > self.now_us + CHECKPOINT_QUIET_US

    def checkpoint_if_due(self) -> bool:
        """Journal a checkpoint when ``checkpoint_every`` records followed the last one
        and the box is quiet (the deciding thread calls this after the lamp, never
        inside a decision). True when one was written (or is being made)."""
        journal = self.journal
        if (journal is None or journal.version < 2 or self.checkpoint_refused is not None
                or journal.next_seq - self.checkpoint_seq <= self.checkpoint_every or not self.quiet()):
            return False
        return self.checkpoint()

    #: a threaded journal's checkpoints come from a forked child (``controller.box.snapshot``): the
    #: deciding thread only forks; False (or no fork): encoded on the calling thread, as a replay would
    checkpoint_in_child = True

    def checkpoint(self) -> bool:
        """Journal a checkpoint now, at this place among the records (hold ``lock``).
        With a threaded journal the snapshot is a fork: this returns in about a
        millisecond, the child encodes, and the records journaled meanwhile
        follow its line (``JournalWriter.write_later``). False when none is
        written: a state the codec refuses (said once), or one still being made."""
        journal = self.journal
        assert journal is not None
        engine_code_mark(self.engine)  # the child inherits the fingerprint, read once here
        try:
            seq = journal.write_later(self._checkpoint_start, snapshot.trim_heap)
        except (checkpoint_codec.CheckpointError, ValueError) as exc:
            self._refuse_checkpoints(exc)
            return False
        if seq is None:
            return False
        self.checkpoint_seq = seq
        return True

    def _checkpoint_start(self, seq: int, previous: str) -> Callable[[], tuple[bytes, str] | None]:
        """The snapshot (``write_later``'s ``start``): a fork, or the line made here and now."""
        assert self.journal is not None
        if self.checkpoint_in_child and self.journal.threaded and snapshot.CAN_FORK:
            try:
                child = snapshot.fork(lambda: self._checkpoint_line(seq, previous))
            except OSError as exc:
                log.warning("no fork for a checkpoint (%s): it is encoded on the deciding thread", exc)
            else:
                return _ChildLine(self, child)
        made = self._checkpoint_line(seq, previous)
        return lambda: made

    def _checkpoint_line(self, seq: int, previous: str) -> tuple[bytes, str]:
        """The checkpoint's journal line at ``seq`` chained on ``previous``, and its sum."""
        record = CheckpointRecord(self.now_us, checkpoint_codec.encode(self._replayable()))
        line, digest = encode_line(record_to_json(record), seq, previous)
        if len(line) > CHECKPOINT_MAX_BYTES:
            raise checkpoint_codec.CheckpointError(f"its state is larger than {CHECKPOINT_MAX_BYTES} bytes")
        return line, digest

    def _checkpoint_from(self, child: snapshot.Child) -> tuple[bytes, str] | None:
        """The line a forked child made (the journal's thread waits here), or None."""
        try:
            return child.result()
        except snapshot.Refused as exc:
            self._refuse_checkpoints(exc)
        except snapshot.Failed as exc:
            log.warning("a checkpoint of this %s game was not made (%s): the next one is tried", self.spec.name, exc)
        return None

    def _refuse_checkpoints(self, exc: Exception) -> None:
        self.checkpoint_refused = str(exc)
        log.warning("no checkpoints for this %s game (%s): a restart replays its whole journal", self.spec.name, exc)

    def _replayable(self) -> dict[str, Any]:
        """What a full replay rebuilds, as a replay has it (``box_from_journal``):
        the engine, names, the strip's stuck and connected inputs (a replay counts
        no strip presses), the time marks, the source events taken, the newest logs.
        Not the debouncer, held inputs or a pause: a checkpoint is only taken
        without them, and a replay rebuilds none of them either."""
        return {
            "code": engine_code_mark(self.engine),
            "fields": sorted(vars(self.engine)) if hasattr(self.engine, "__dict__") else [],
            "engine": self.engine,
            "station_names": list(self.station_names),
            "stations": [[sorted(st.stuck), st.connected] for st in self.stations],
            "presses_total": self.presses_total,
            # a replay's engine_until_us is the live box's journaled mark: ticks that fired nothing are not in the file
            "engine_until_us": self._journaled_until_us,
            "decided_at_us": self.decided_at_us,
            "source_events": list(self._source_order),
            "press_log": list(self.press_log)[-LIVE_LOG_LIMIT:],
            "event_log": list(self.event_log)[-LIVE_LOG_LIMIT:],
        }

    def restore(self, record: CheckpointRecord, seq: int) -> None:
        """Take the state a checkpoint holds (a CheckpointError, the box unchanged, when it cannot)."""
        state = checkpoint_state(record, self.engine)
        try:
            names = [str(n) for n in state["station_names"]]
            stations = [(set(stuck), bool(connected)) for stuck, connected in state["stations"]]
            marks = [int(state[key]) for key in ("presses_total", "engine_until_us", "decided_at_us")]
            events = [str(e) for e in state["source_events"]]
            press_log, event_log = list(state["press_log"]), list(state["event_log"])
        except (KeyError, TypeError, ValueError) as exc:
            raise checkpoint_codec.CheckpointError(f"the checkpoint's box fields do not read ({exc})") from None
        if len(names) != len(self.station_names) or len(stations) != len(self.stations):
            raise checkpoint_codec.CheckpointError("the checkpoint has another number of stations")
        self.engine = state["engine"]
        self._engine_changes += 1
        self.station_names = names
        for st, (stuck, connected) in zip(self.stations, stations, strict=True):
            st.stuck, st.connected = stuck, connected
        self.presses_total, self.engine_until_us, self.decided_at_us = marks
        self._journaled_until_us = self.engine_until_us
        self._source_events, self._source_order = set(events), deque(events)
        self.press_log.extend(press_log)
        self.event_log.extend(event_log)
        self.now_us = max(self.now_us, record.t_us)
        self.checkpoint_seq = self.restored_from = seq


def checkpoint_state(record: CheckpointRecord, engine: object) -> dict[str, Any]:
    """A checkpoint's state decoded, its engine one of ``engine``'s class
    written by this code of the game (a CheckpointError when it is not)."""
    engine_class = type(engine)
    state: dict[str, Any] = checkpoint_codec.decode(record.state, lambda root: isinstance(root, dict)
                                                    and type(root.get("engine")) is engine_class)
    fresh = sorted(vars(engine)) if hasattr(engine, "__dict__") else []
    if state.get("code") != engine_code_mark(engine) or state.get("fields") != fresh:
        raise checkpoint_codec.CheckpointError("it was written by other code of the game (the box was updated?)")
    return state


_CODE_MARKS: dict[type, str] = {}


def engine_code_mark(engine: object) -> str:
    """A fingerprint of the engine's source, the module of its class and of each
    class it is made of: its bases and the parts its class names in ``code_parts``
    (the quiz's core and modes live in modules of their own): a checkpoint
    written by other code of the game (the box was updated since) is not
    restored; the journal is replayed."""
    cls = type(engine)
    mark = _CODE_MARKS.get(cls)
    if mark is None:
        digest = hashlib.sha256()
        parts = (cls, *getattr(cls, "code_parts", ()))
        for name in dict.fromkeys(c.__module__ for part in parts for c in part.__mro__ if c is not object):
            source = getattr(sys.modules.get(name), "__file__", None)
            with contextlib.suppress(OSError):  # a module without its file: marked by the others
                digest.update(Path(source).read_bytes() if source else b"")
        mark = _CODE_MARKS[cls] = f"{cls.__module__}.{cls.__qualname__}:{digest.hexdigest()[:16]}"
    return mark


def box_from_journal(journal: Journal, writer: JournalWriter | None = None, *, from_checkpoint: bool = False) -> Box:
    """Rebuild a box by replaying every journal line through the same methods
    that handled them live. ``writer`` (resume) keeps appending afterwards.
    A record the game cannot take is a JournalError naming its line.

    ``from_checkpoint`` (a restart): restore the newest checkpoint and replay
    only the records after it. One that does not decode is said in one log line
    and everything is replayed instead; when the journal kept only the records
    since it (``load(since_checkpoint=True)``), that is a CheckpointError: read
    it whole and call again."""
    box = replay_start(journal)
    start = _restored(box, journal) if from_checkpoint else 0
    for line, record in itertools.islice(journal.numbered(), start, None):
        replay_record(box, line, record)
    replay_finish(box, journal)
    box.journal = writer
    return box


def replay_start(journal: Journal) -> Box:
    """The box a journal's session header starts (``box_from_journal``'s first part)."""
    header = journal.session
    assert header is not None
    spec, settings = header_game(journal)
    try:
        box = Box(spec, settings, header.stations, station_names=header.station_names, debounce=header.debounce)
        box.judges_late_by_decisions = header.late_rule == LATE_AFTER_A_DECISION
    except HEADER_ERRORS as exc:
        raise _header_refused(spec, exc) from None
    return box


#: what a session header's settings that a game does not take raise
HEADER_ERRORS = (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError)


def _header_refused(spec: GameSpec, exc: Exception) -> JournalError:
    return JournalError(_("line 1: {game} cannot start with the settings and options in the session header: {problem}")
                        .format(game=spec.title, problem=exc))


def header_game(journal: Journal) -> tuple[GameSpec, GameSettings]:
    """The game and the settings a journal's session header starts, read
    without a box (a JournalError naming line 1 when the game does not take them)."""
    header = journal.session
    assert header is not None
    try:
        spec = get_game(header.game)
    except LookupError as exc:
        raise JournalError(_("line 1: {problem}").format(problem=exc)) from None
    try:
        spec.settings(header.settings.players)  # the player count is one the game takes
        settings = as_played(spec, header.settings, header.rules)  # the rules it was played with
        if journal.path is not None:
            settings = found_beside(settings, Path(journal.path))  # a journal copied here with its media/ folder
    except HEADER_ERRORS as exc:
        raise _header_refused(spec, exc) from None
    return spec, settings


def replay_record(box: Box, line: int, record: Record) -> None:
    """One journal record through the methods that handled it live (a streamed
    ``journal check`` hands them over as it reads)."""
    try:
        if isinstance(record, CheckpointRecord):  # the state its records built: replayed here already
            box.now_us = max(box.now_us, record.t_us)
            box.checkpoint_seq = line - 1
        elif isinstance(record, PressRecord):
            box.now_us = max(box.now_us, record.press.t_us if record.at_us is None else record.at_us)
            box.first_delivery(record.press)
            box.press_log.append(record.press)
            box.presses_total += 1
            box._deliver(record.press)
        elif isinstance(record, ActionRecord):
            box._deliver(record.action)
        elif isinstance(record, TickRecord):
            box._tick(record.t_us)
        elif isinstance(record, NoticeRecord):  # the strip's state; a pause's effect on the game is journaled already
            box.note(record.notice)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as exc:
        raise JournalError(_("line {line}: the game cannot take this {type} record ({problem}); "
                             "are the session header's options right?").format(
            line=line, type=record.type, problem=exc)) from None


def replay_finish(box: Box, journal: Journal) -> None:
    """After the last record: the options are shown to work, the box's time is the journal's last moment."""
    try:
        box.summary()  # what replay prints: garbage options surface here, not as a traceback later
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as exc:
        raise JournalError(_("line 1: the session header's options do not work for {game} ({problem})").format(
            game=_(box.spec.title), problem=exc)) from None
    box.now_us = max(box.now_us, journal.last_t_us)


def newest_checkpoint(journal: Journal) -> int | None:
    """The index of the journal's newest checkpoint among its records (None: it has none)."""
    return next((i for i in range(len(journal.records) - 1, -1, -1)
                 if isinstance(journal.records[i], CheckpointRecord)), None)


def _restored(box: Box, journal: Journal) -> int:
    """Restore the journal's newest checkpoint into a new box; the index of the
    first record to replay after it (0: none, or one that does not decode)."""
    newest = newest_checkpoint(journal)
    if newest is None:
        return 0
    record, line = journal.records[newest], journal.record_lines[newest]
    assert isinstance(record, CheckpointRecord)
    try:
        box.restore(record, line - 1)
    except checkpoint_codec.CheckpointError as exc:
        log.warning("%s: the checkpoint at line %d does not restore (%s): replaying the whole journal",
                    journal.path or "journal", line, exc)
        if journal.dropped:
            raise
        return 0
    return newest + 1


class _ChildLine:
    """A checkpoint's line from a forked child (``write_later``'s ``finish``), which a
    ``close`` that would wait too long for it cancels (the child is killed)."""

    def __init__(self, box: Box, child: snapshot.Child) -> None:
        self.box, self.child = box, child

    def __call__(self) -> tuple[bytes, str] | None:
        return self.box._checkpoint_from(self.child)

    def cancel(self) -> None:
        self.child.kill()
