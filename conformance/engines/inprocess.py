"""Plug a Python engine in-process: ``module:factory`` returns an object with ``handle``."""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from conformance.canonical import RefusedJSON, read_json
from conformance.engines.base import EngineClient, EngineFault, split_lines
from conformance.engines.lines import answer_line
from conformance.jsontypes import EncodableObject


def load_factory(spec: str) -> Callable[[], Any]:
    """Import ``module:attribute`` and return the attribute."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"engine spec {spec!r} is not of the form module:factory")
    factory: Callable[[], Any] = getattr(importlib.import_module(module_name), attribute)
    return factory


class _Overdue(BaseException):
    """Raised by the alarm into an engine call past its deadline (a BaseException, so an
    engine's own ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`_Overdue` into the enclosed code after *seconds* of wall time.

    Only the main thread receives signals, so elsewhere (or with no *seconds*) nothing
    is bounded; the alarm and its handler are restored on the way out.
    """
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def overdue(signum: int, frame: object) -> None:
        raise _Overdue

    previous = signal.signal(signal.SIGALRM, overdue)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class InProcessEngine(EngineClient):
    """Calls ``handler.handle(request) -> response`` directly.

    Requests and responses go through a JSON round trip, so an engine cannot pass
    anything a subprocess engine could not. With *timeout*, a call made from the main
    thread that takes longer is a ``timeout`` fault, as a subprocess engine's would be,
    and the engine is started afresh.
    """

    def __init__(
        self,
        spec: str,
        *,
        strict: bool = False,
        factory: Callable[[], Any] | None = None,
        timeout: float | None = None,
    ) -> None:
        super().__init__(strict=strict)
        self.spec = spec
        self.description = f"python:{spec}"
        self.timeout = timeout
        self._factory = factory or load_factory(spec)
        self._start()

    def _bounded(self, call: Callable[[], Any]) -> Any:
        """*call*'s result, or the timeout fault once it runs past :attr:`timeout`."""
        try:
            with deadline(self.timeout):
                return call()
        except _Overdue:
            self._start()
            raise EngineFault("timeout", f"no answer within {self.timeout:g} s") from None

    def _start(self) -> None:
        try:
            self._handler, self._start_error = self._factory(), None
        except Exception as exc:  # a factory that raises is an engine that cannot start
            self._handler, self._start_error = None, exc

    def _exchange(self, request: EncodableObject) -> object:
        if self._handler is None:
            error = self._start_error
            raise EngineFault("crash", f"the factory raised {type(error).__name__}: {error}")
        try:
            sent = json.loads(json.dumps(request))
            response = self._bounded(functools.partial(self._handler.handle, sent))
            return json.loads(json.dumps(response, allow_nan=False))
        except EngineFault:
            raise
        except (TypeError, ValueError) as exc:
            raise EngineFault("protocol", f"response is not JSON: {exc}") from None
        except Exception as exc:  # an in-process engine crashing is a fault, not a suite error
            raise EngineFault("crash", f"{type(exc).__name__}: {exc}") from None

    def _exchange_lines(self, data: bytes, count: int) -> list[Any]:
        """Each line of *data* through the handler's line entry point, as the stdio loop does."""
        if self._handler is None:
            error = self._start_error
            raise EngineFault("crash", f"the factory raised {type(error).__name__}: {error}")
        responses = []
        for line in split_lines(data)[:count]:
            try:
                answer: str = self._bounded(functools.partial(answer_line, self._handler, line))
            except EngineFault:
                raise
            except Exception as exc:  # an in-process engine crashing is a fault, not a suite error
                raise EngineFault("crash", f"{type(exc).__name__}: {exc}") from None
            if "\n" in answer:
                raise EngineFault("protocol", f"a response spans several lines: {answer[:120]!r}")
            try:
                responses.append(read_json(answer))
            except RefusedJSON as exc:
                message = f"not a JSON line ({exc}): {answer[:120]!r}"
                raise EngineFault("protocol", message) from None
        return responses

    def spawn_command(self) -> list[str]:
        return [sys.executable, "-m", "conformance.engines.host", self.spec]

    def restart(self) -> None:
        self._start()
