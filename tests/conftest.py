"""Shared fixtures: a private $JUDGE_HOME per test session, the corpora folder, and an in-process
``judge`` runner that returns (exit status, stdout, stderr) exactly as a shell would see them."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"


def corpus(*parts: str) -> Path:
    """A file of ../shared/corpora, or skip the test saying why."""
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"corpus file {path} is absent (real documents live in ../shared/corpora beside the checkout)")
    return path


@pytest.fixture(scope="session")
def session_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("judge-home")


@pytest.fixture
def home(session_home, monkeypatch) -> Path:
    """The session's library (default books built once); tests must not load user books here."""
    monkeypatch.setenv("JUDGE_HOME", str(session_home))
    return session_home


@pytest.fixture
def fresh_home(tmp_path, monkeypatch) -> Path:
    """An empty library of this test's own, for loading and unloading books."""
    home = tmp_path / "home"
    monkeypatch.setenv("JUDGE_HOME", str(home))
    return home


@pytest.fixture
def judge(capsys):
    """Run the judge command in-process: ``code, out, err = judge("rule", "312.1")``."""
    from judge.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        old = sys.argv
        sys.argv = ["judge", *map(str, args)]
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            sys.argv = old
        out, err = capsys.readouterr()
        return code, out, err

    return run


def judge_in(home, *args) -> tuple[int, str, str]:
    """``judge ARGS`` in this process with ``home`` as its library, outside capsys (for module and session
    fixtures): (exit status, stdout, stderr); $JUDGE_HOME is put back after."""
    import contextlib
    import io

    from judge.cli import main

    old_argv, old_home = sys.argv, os.environ.get("JUDGE_HOME")
    sys.argv, os.environ["JUDGE_HOME"] = ["judge", *map(str, args)], str(home)
    out, err, code = io.StringIO(), io.StringIO(), 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old_argv
        if old_home is None:
            os.environ.pop("JUDGE_HOME", None)
        else:
            os.environ["JUDGE_HOME"] = old_home
    return code, out.getvalue(), err.getvalue()


# Real processes: `judge` run as a judge runs it, for what only a process shows (signals, pipes, locks) --
PROCESS_WAIT = 120  # seconds any one process may take, at most


def judge_env(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "JUDGE_HOME": str(home), "PYTHONPATH": str(REPO), **extra}


def start_judge(home: Path, *args, stdout=subprocess.PIPE, **extra: str) -> subprocess.Popen:
    """``judge ARGS`` started in a process of its own with ``home`` as its library (``extra``: more
    environment), its stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "judge.cli", *map(str, args)],
        env=judge_env(home, **extra),
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
    )


def run_judge(home: Path, *args, **extra: str) -> subprocess.CompletedProcess:
    """``judge ARGS`` in a process of its own, waited for (at most :data:`PROCESS_WAIT` seconds)."""
    return subprocess.run(
        [sys.executable, "-m", "judge.cli", *map(str, args)],
        env=judge_env(home, **extra),
        capture_output=True,
        text=True,
        timeout=PROCESS_WAIT,
    )


def rules_document(folder: Path, name: str, rules: int = 100, about: str = "") -> Path:
    """A Magic rules text of its own words, ``rules`` rules in sections of 20: rule 100.1 says "<Name>
    rule 1 of section 100 says what it says<about>."; written to ``folder/<name>.txt``."""
    lines = ["Magic: The Gathering Comprehensive Rules", "", "1. Game Concepts", ""]
    for section in range(100, 100 + rules // 20):
        lines += [f"{section}. Section {section}", ""]
        for n in range(1, 21):
            lines += [f"{section}.{n}. {name.capitalize()} rule {n} of section {section} says what it says{about}.", ""]
    path = folder / f"{name}.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF file of these objects (numbered from 1; the first the catalogue), with its cross-reference
    table: what the tests that make a PDF of their own write around their pages."""
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


@contextlib.contextmanager
def serving(home: Path, logs: Path, *args: str) -> Iterator[tuple[str, dict, subprocess.Popen]]:
    """``judge serve --json ARGS`` in a process of its own on a free port of 127.0.0.1, with ``home`` as its
    library, until the block ends: yields its address, what it said when it started, and the process. Waits at most 60 s
    for its first answer (the log, in ``logs``, is shown when it stops instead)."""
    import json
    import socket
    import time
    import urllib.error
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, JUDGE_HOME=str(home), PYTHONPATH=str(REPO))
    said, log_path = logs / f"serve-{port}.json", logs / f"serve-{port}.log"
    with said.open("w") as out, log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "judge.cli", "serve", "--port", str(port), "--json", *args],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=log,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/books", timeout=5) as r:
                    assert r.status == 200
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, log_path.read_text()
                assert time.monotonic() < deadline, "judge serve did not answer within 60 s"
                time.sleep(0.2)
        yield base, json.loads(said.read_text()), server
    finally:
        server.terminate()
        server.wait(timeout=10)


def riftbound_seed_book():
    """The default riftbound book as the library reads it (outline and detail merged, the FAQ)."""
    from rulebook.library import builtin_specs, read_book
    from rulebook.shipped import seeds_dir

    spec = next(s for s in builtin_specs(seeds_dir()) if s.id == "riftbound")
    return read_book(spec)


@pytest.fixture(scope="session")
def full_books(tmp_path_factory):
    """A library with the seeds and the full documents (Riftbound Core Rules v1.2 as ``riftbound-v1.2``,
    the MTG CR 2026-02-27 as ``cr-2026``), loaded once per session: (its folder, its store, the ids of
    the full books loaded)."""
    sys.path.insert(0, str(REPO / "bench"))
    import search_quality

    home = tmp_path_factory.mktemp("full-library")
    store, loaded = search_quality.build_library(home)
    yield home, store, set(loaded)
    store.close()


@pytest.fixture(scope="session")
def full_library(full_books):
    """(store, ids of the full books loaded) of :func:`full_books`. Tests needing a full book call
    :func:`full_book` to skip, saying why, when it is absent."""
    _, store, loaded = full_books
    return store, loaded


def full_book(full_library, *books: str):
    """The full library's store, or skip when one of ``books`` could not be loaded."""
    store, loaded = full_library
    missing = set(books) - loaded
    if missing:
        pytest.skip(f"full documents absent from {CORPORA} ({', '.join(sorted(missing))})")
    return store


@pytest.fixture(scope="session")
def card_library(tmp_path_factory):
    """A library with the 2026 CR, Riftbound v1.2 (with the Origins and Spiritforged FAQs) and v1.3 (the
    default), and every card file of the corpora, loaded once per session: its folder."""
    cards = CORPORA / "cards"
    if not cards.exists():
        pytest.skip(f"the card files are absent ({cards})")
    home = tmp_path_factory.mktemp("cards-home")
    loads = [
        ("load", CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt", "--book", "cr-2026"),
        (
            "load",
            CORPORA / "riftbound" / "core-rules-v1.2.txt",
            CORPORA / "riftbound" / "faq-origins.md",
            CORPORA / "riftbound" / "faq-spiritforged.md",
            "--book",
            "rb-1.2",
        ),
        ("load", CORPORA / "riftbound" / "core-rules-v1.3.txt", "--book", "rb-1.3"),
        (
            "load",
            *sorted((cards / "mtg" / "mtgjson-v3").glob("*.json")),
            *sorted((cards / "mtg" / "scryfall").glob("*.json")),
            *sorted((cards / "mtg" / "mtgjson-v5").glob("*.json")),
            cards / "riftbound" / "cards.json",
            CORPORA / "riftbound" / "errata.json",
        ),
    ]
    for args in loads:
        code, _, err = judge_in(home, *args)
        assert code == 0, err
    return home


_PROBE = """
import sys
import rulebook.home
rulebook.home.RACY_NS = 0  # trust files written a moment ago, so the third call takes the fast path
from judge.cli import main
sys.argv = ["judge"] + sys.argv[1:]
try:
    main()
except SystemExit:
    pass
print("IMPORTED=" + " ".join(sorted(sys.modules)))
"""


def modules_imported(home, *args: str, warm: tuple[str, ...] = ("books",)) -> set[str]:
    """The modules a ``judge ARGS`` process imports, in a fresh interpreter, with ``home`` as its library.
    ``judge WARM`` runs twice before: the first builds the database (and any cache), the second checks
    it exactly and records the stamp, so what is measured is a lookup as a judge runs it again."""
    env = {**os.environ, "JUDGE_HOME": str(home), "PYTHONPATH": str(REPO)}
    for _ in range(2):
        subprocess.run([sys.executable, "-c", _PROBE, *warm], env=env, capture_output=True, check=True)
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], env=env, capture_output=True, text=True, check=True
    ).stdout
    return set(out.rsplit("IMPORTED=", 1)[1].split())
