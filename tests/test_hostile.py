"""``judge serve`` against hostile clients (issue 25): scenario YAML built to explode, malformed requests,
huge bodies and slow clients get a 4xx (or a closed connection), memory and time stay bounded, and the
server keeps answering. The YAML bombs are sent to the application in-process; the rest to a real server
on 127.0.0.1, every socket with a timeout, every loop bounded."""

from __future__ import annotations

import socket
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO, serving

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note on httpx (tests/test_serve.py)
    from starlette.testclient import TestClient

from judge.web import MAX_SCENARIO, make_app

SPEC = (REPO / "data" / "scenarios" / "riftbound" / "spec-example.yaml").read_text(encoding="utf-8")


def _laughs(levels: int) -> str:
    """The billion laughs: each level an alias list of ten of the one before, 10**levels values."""
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


BOMBS = {
    "billion laughs": (_laughs(9), 1, "not a scenario: more than 20000 values"),
    "laughs inside a real scenario": (SPEC.replace("title:", _laughs(9) + "title:", 1), -1, "more than 20000 values"),
    "an alias of itself": ("game: &a [*a]\n", 1, "nested more than 32 deep"),
    "brackets 20,000 deep": ("game: " + "[" * 20000 + "]" * 20000 + "\n", 1, "nested more than 32 deep"),
    "a mapping 40 deep": ("".join(" " * i + "a:\n" for i in range(40)) + " " * 40 + "b\n", 34, "nested more than 32"),
    "a number of 10,000 digits": (SPEC.replace("victory_score: 8", "victory_score: " + "9" * 10000), 7, "too large"),
    "a count of a billion cards": (SPEC.replace("Ana: 10,", "Ana: 1000000000,"), 18, "from 0 to 500"),
    "a mapping as a key": ("? {game: riftbound}\n: x\n", 1, "a key that is a mapping or a list"),
    "a python tag": ("game: !!python/object/apply:os.system [ls]\n", 1, "unknown game"),
}


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[TestClient]:
    mp = pytest.MonkeyPatch()
    mp.setenv("JUDGE_HOME", str(tmp_path_factory.mktemp("hostile-home")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield TestClient(make_app(), raise_server_exceptions=False)
    mp.undo()


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_scenario_built_to_explode_is_refused_400_naming_the_line(client, name):
    body, line, says = BOMBS[name]
    assert len(body.encode()) <= MAX_SCENARIO, name  # each fits the size limit: the reader must refuse it
    answer = client.post("/api/explain", content=body.encode())
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["file"] == "scenario" and error["status"] == 2
    assert error["line"] == line or line == -1 and isinstance(error["line"], int)  # -1: a line of the bomb
    assert says in error["message"] and "Traceback" not in answer.text
    assert client.get("/api/rule/riftbound/312.1").status_code == 200  # and the next request is answered


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[str, int]]:
    """A real ``judge serve`` (the API alone): its address and process id."""
    home = tmp_path_factory.mktemp("hostile-served")
    with serving(home, tmp_path_factory.mktemp("hostile-logs"), "--no-site") as (base, _, process):
        yield base, process.pid


def _raw(base: str, data: bytes, wait: float = 10.0) -> bytes:
    """``data`` sent as is on a new connection; what the server answers before it closes (or ``wait``)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as conn:
        conn.sendall(data)
        got = b""
        try:
            for _ in range(64):  # bounded: an answer is a few KB
                chunk = conn.recv(65536)
                if not chunk:
                    break
                got += chunk
                if b"\r\n\r\n" in got and (b'"error"' in got or b"Content-Length: 0" in got or len(got) > 100_000):
                    break
        except TimeoutError:
            pass
        return got


def _answers(base: str) -> bool:
    with urllib.request.urlopen(f"{base}/api/rule/riftbound/312.1", timeout=30) as r:
        return r.status == 200


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_malformed_requests_are_4xx_and_the_server_stays_up(server):
    base, _ = server
    for request in (
        b"GARBAGE\r\n\r\n",
        b"GET /api/books HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET /api/books HTTP/1.1\r\n" + b"X-Long: " + b"a" * 100_000 + b"\r\n\r\n",
        b"POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
        b"GET /api/search?q=%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ):
        said = _raw(base, request)
        status = said.split(b" ", 2)[1] if said.startswith(b"HTTP/1.1 ") else b""
        assert said == b"" or status.startswith(b"4") or status == b"200", said[:200]
        assert _answers(base)


def test_a_huge_body_is_refused_413_before_it_is_read(server):
    base, _ = server
    announced = b"POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n" + b"a" * 1000
    assert _raw(base, announced).startswith(b"HTTP/1.1 413 ")
    chunk = b"10000\r\n" + b"a" * 0x10000 + b"\r\n"  # chunked, no length said: refused once past 64 KB
    streamed = b"POST /api/explain HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk * 3
    assert _raw(base, streamed).startswith(b"HTTP/1.1 413 ")
    assert _answers(base)


def test_slow_clients_do_not_stop_the_others(server):
    """Clients that send half a request and wait hold a connection each, not the server."""
    base, _ = server
    host, port = base.removeprefix("http://").split(":")
    held = []
    try:
        for _ in range(50):
            conn = socket.create_connection((host, int(port)), timeout=10)
            conn.sendall(b"POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\ngame: ")
            held.append(conn)
        for _ in range(5):
            assert _answers(base)
    finally:
        for conn in held:
            conn.close()


def test_the_bombs_over_http_leave_memory_bounded(server):
    base, pid = server
    assert _answers(base)
    before = _rss_kb(pid)
    for _ in range(3):
        for body, _, _ in BOMBS.values():
            request = urllib.request.Request(f"{base}/api/explain", data=body.encode(), method="POST")
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=60)
            assert refused.value.code == 400
    assert _answers(base)
    grown = _rss_kb(pid) - before
    assert grown < 100_000, f"the server grew by {grown} KB"  # a billion laughs expanded is gigabytes
