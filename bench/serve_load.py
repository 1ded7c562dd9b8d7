"""``judge serve`` under load (issue 24): rule lookups against Datasette's over the same judge.db.

A library in a temporary JUDGE_HOME with the full 2026 CR (book cr-2026; loading not timed). Two servers
on 127.0.0.1, each on a free port, each one process: ``judge serve`` and Datasette (a tool of this
benchmark only, not a dependency of the project: ``--datasette`` names its executable, installed
anywhere, e.g. a throwaway venv) serving the same judge.db read-only (``--immutable``). Then
``--clients`` threads, each with its own keep-alive connection, send requests for ``--seconds`` per
phase, phases back to back:

- judge rule: ``/api/rule/cr-2026/N``, N drawn at random from the book's real rule numbers;
- datasette rule: ``/judge/rules.json?book=cr-2026&number=N&_shape=array`` (its table JSON filtered by
  rule number), the same draws;
- judge search: ``/api/search?q=...&book=cr-2026``, real questions' words.

The two rule phases run ``--rounds`` times, alternating, so a disturbance of the shared machine falls on
both. Every answer must be a 200 with the rule in it (else an error; errors must be 0). Reported per
phase: requests/s, median and p99 latency; and judge's rule-lookup throughput as a ratio of
Datasette's. Bounded: at most ``--max-requests`` per phase, and the servers are stopped at the end
whatever happens:

    python bench/serve_load.py --datasette /tmp/venv/bin/datasette [--seconds 20] [--clients 32]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from timed import JUDGE, run  # noqa: E402

CORPORA = REPO.parent / "shared" / "corpora"
HOST = "127.0.0.1"  # loopback only
BOOK = "cr-2026"
QUERIES = (
    "trample damage assignment",
    "can I respond to a triggered ability",
    "deathtouch and trample",
    "what happens when a creature phases out",
    "first strike combat damage step",
    "copy of a spell on the stack",
    "legend rule",
    "hexproof targeting",
    "mana abilities",
    "commander tax",
    "protection from red",
    "state-based actions",
    "lifelink",
    "double faced cards transform",
    "cumulative upkeep",
    "tramle",
)


@dataclass(frozen=True)
class Phase:
    name: str
    count: int
    errors: int
    seconds: float
    latencies: tuple[float, ...]
    first_error: str

    @property
    def rate(self) -> float:
        return self.count / self.seconds

    def line(self) -> str:
        lat = sorted(self.latencies)
        median = statistics.median(lat) * 1000 if lat else float("nan")
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
        extra = f" (first: {self.first_error})" if self.errors else ""
        return (
            f"{self.name:16} {self.rate:8.0f} req/s  {self.count:7d} requests  median {median:6.1f} ms  "
            f"p99 {p99:6.1f} ms  errors {self.errors}{extra}"
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_ready(port: int, path: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {proc.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server on port {port} did not answer within {timeout:.0f} s")


def hammer(name: str, port: int, paths: list[str], expect: list[str], clients: int, seconds: float, cap: int) -> Phase:
    """``clients`` threads sending GETs of ``paths`` (random order) for ``seconds``, at most ``cap`` in all;
    an answer is right when it is a 200 whose body holds the matching ``expect`` string."""
    lock = threading.Lock()
    latencies: list[float] = []
    errors: list[str] = []
    sent = [0]
    stop = time.perf_counter() + seconds

    def client(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        mine: list[float] = []
        wrong: list[str] = []
        while time.perf_counter() < stop:
            with lock:
                if sent[0] >= cap:
                    break
                sent[0] += 1
            i = rng.randrange(len(paths))
            start = time.perf_counter()
            try:
                conn.request("GET", paths[i])
                response = conn.getresponse()
                body = response.read()
                if response.status != 200 or expect[i].encode() not in body:
                    wrong.append(f"{response.status} {paths[i]}")
                else:
                    mine.append(time.perf_counter() - start)
            except (OSError, http.client.HTTPException) as exc:
                wrong.append(f"{type(exc).__name__} {paths[i]}")
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors.extend(wrong)

    begin = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.perf_counter() - begin
    return Phase(name, len(latencies) + len(errors), len(errors), took, tuple(latencies), errors[0] if errors else "")


def stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="per phase")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=1, help="rule phases, judge then Datasette, this many times")
    parser.add_argument("--max-requests", type=int, default=500_000, help="per phase")
    parser.add_argument("--datasette", default=shutil.which("datasette"), help="the datasette executable")
    args = parser.parse_args()
    cr = CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt"
    if not cr.exists():
        print(f"the corpora are absent ({CORPORA})", file=sys.stderr)
        return 2
    if not args.datasette or not Path(args.datasette).exists():
        print(
            "Datasette is needed (pip install datasette, in a venv of its own): give --datasette PATH", file=sys.stderr
        )
        return 2
    version = subprocess.run([args.datasette, "--version"], capture_output=True, text=True).stdout.strip()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {version}, "
        f"{args.clients} clients, {args.seconds:g} s a phase, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    with tempfile.TemporaryDirectory() as work:
        home = Path(work) / "home"
        env = {**os.environ, "JUDGE_HOME": str(home)}
        run(["load", str(cr), "--book", BOOK], env)
        db = home / "judge.db"
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            numbers = [n for (n,) in conn.execute("SELECT number FROM rules WHERE book = ?", (BOOK,))]
        print(f"{len(numbers)} rule numbers of {BOOK}")
        judge_port, ds_port = free_port(), free_port()
        quoted = [urllib.parse.quote(n) for n in numbers]
        judge_rules = [f"/api/rule/{BOOK}/{q}" for q in quoted]
        ds_rules = [f"/judge/rules.json?book={BOOK}&number={q}&_shape=array" for q in quoted]
        expect = [json.dumps(n) for n in numbers]  # the number as a JSON string, in both answers
        searches = [f"/api/search?q={urllib.parse.quote(q)}&book={BOOK}" for q in QUERIES]
        judge = ds = None
        try:
            judge = subprocess.Popen(
                [*JUDGE, "serve", "--host", HOST, "--port", str(judge_port)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            ds = subprocess.Popen(
                [args.datasette, "serve", "--immutable", str(db), "--host", HOST, "--port", str(ds_port)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            wait_ready(judge_port, "/api/books", judge)
            wait_ready(ds_port, "/judge/rules.json?_size=1", ds)
            # Warm both: first requests pay imports and caches.
            hammer("warm", judge_port, judge_rules, expect, 4, 2, 2000)
            hammer("warm", ds_port, ds_rules, expect, 4, 2, 2000)
            hammer("warm", judge_port, searches, ['"hits"'] * len(searches), 4, 2, 200)
            phases: list[Phase] = []
            for _ in range(args.rounds):
                for name, port, paths in (
                    ("judge rule", judge_port, judge_rules),
                    ("datasette rule", ds_port, ds_rules),
                ):
                    phases.append(hammer(name, port, paths, expect, args.clients, args.seconds, args.max_requests))
                    print(phases[-1].line(), flush=True)
            phases.append(
                hammer(
                    "judge search",
                    judge_port,
                    searches,
                    ['"hits"'] * len(searches),
                    args.clients,
                    args.seconds,
                    args.max_requests,
                )
            )
            print(phases[-1].line(), flush=True)
        finally:
            stop(judge)
            stop(ds)
    rate = {n: statistics.median(p.rate for p in phases if p.name == n) for n in ("judge rule", "datasette rule")}
    errors = sum(p.errors for p in phases)
    ratio = rate["judge rule"] / rate["datasette rule"]
    print(
        f"rule lookups: judge serve {rate['judge rule']:.0f} req/s, Datasette {rate['datasette rule']:.0f} req/s: "
        f"{ratio:.2f}x ({'at least' if ratio >= 1 else 'BELOW'} Datasette's); errors {errors}"
    )
    return 0 if errors == 0 and ratio >= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
