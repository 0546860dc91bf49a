"""A server's asyncio loop on a thread of its own: how the phones' server
(``server.CompanionServer``) and the league's pages (``league.pages.HubService``)
start, so that both start, fail and report the same way."""

from __future__ import annotations

import asyncio
import threading

#: how long a start waits for its server to listen (or fail) before it goes on
START_WAIT_S = 10


class LoopThread:
    """The loop a server runs on: ``_start_loop`` runs ``_open`` (the server's
    listening sockets) on a new thread and returns once it listens (None) or
    why it could not (told to the starting thread, which says it in one line)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    async def _open(self) -> None:
        """Listen (the subclass's routes and sockets)."""
        raise NotImplementedError

    def _start_loop(self, name: str) -> BaseException | None:
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()
        self._ready.wait(START_WAIT_S)
        return self._error

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._open())
        except BaseException as exc:  # noqa: BLE001 (told to the starting thread)
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self.loop = loop
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()
