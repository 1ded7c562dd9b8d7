"""Progress of long work: a rich bar on a terminal, plain lines on stderr otherwise.

A bot or a CI log has no terminal, and a bar drawn there is either lost or garbage; it gets a line
for the step under way once the work has lasted :data:`EVERY` seconds, and then at most one every
:data:`EVERY` seconds: work done sooner says nothing, a minute's work is a handful of lines. Progress
always goes to stderr, so ``--json`` output on stdout stays parseable.

>>> import io
>>> out = io.StringIO()
>>> seconds = iter([0.0, 1.0, 3.5, 4.0, 7.0])  # the start, then as each step starts
>>> with Steps("reading", total=4, stream=out, clock=seconds.__next__) as step:
...     for name in ("a.txt", "folder/b.txt", "c.txt", "d.txt"):
...         step(name)
>>> print(out.getvalue(), end="")
judge: reading b.txt (2/4)
judge: reading d.txt (4/4)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

EVERY = 3.0  # seconds between two plain progress lines


class Steps:
    """A context manager giving a function to call as each step starts, with what it works on."""

    def __init__(
        self,
        what: str,
        total: int | None = None,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.what, self.total, self.stream, self.clock = what, total, stream, clock
        self._bar: Progress | None = None  # the bar, once drawn
        self._task: TaskID | None = None  # its one task
        self._done, self._last = 0, 0.0

    def __enter__(self) -> Callable[[str], None]:
        self.stream = self.stream if self.stream is not None else sys.stderr
        self._last = self.clock()
        return self.step

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)

    def step(self, name: str) -> None:
        self._done += 1
        label = f"{self.what} {_short(name)}"
        stream = self.stream
        assert stream is not None  # __enter__ chose it
        if self._bar is None and self._terminal(stream):  # drawn at the first step: work that
            from rich.console import Console  # turns out to be none costs no import of rich
            from rich.progress import Progress

            self._bar = Progress(transient=True, console=Console(file=stream))
            self._bar.__enter__()
            self._task = self._bar.add_task(label, total=self.total)
        if self._bar is not None and self._task is not None:  # the two are set together
            self._bar.update(self._task, advance=1, description=label)
            return
        now = self.clock()
        if now - self._last < EVERY:
            return
        self._last = now
        count = f" ({self._done}/{self.total})" if self.total else ""
        print(f"judge: {label}{count}", file=stream, flush=True)

    @staticmethod
    def _terminal(stream: TextIO) -> bool:
        try:
            return stream.isatty()
        except (AttributeError, ValueError):
            return False


def _short(name: str) -> str:
    """A file's name without its folders; anything else as it is."""
    return name.replace("\\", "/").rsplit("/", 1)[-1]
