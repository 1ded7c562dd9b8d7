"""``judge serve`` (issue 24): the read commands' JSON over HTTP. Each endpoint answers exactly what its
command prints with ``--json``; bad input is a 4xx with the error object of docs/json.md, never a 500
with a traceback. The application is tested in-process; one test starts the real server."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
import warnings

import pytest

from tests.conftest import REPO, serving

with warnings.catch_warnings():
    # Starlette 1.x prefers the httpx2 fork for its test client and warns when it finds httpx, which it
    # still supports (docs/decisions.md, "The HTTP API").
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from judge.web import MAX_SCENARIO, make_app

SCENARIO = REPO / "data" / "scenarios" / "riftbound" / "spec-example.yaml"
ERROR_KEYS = {"message", "file", "line", "suggestions", "status", "hint"}


@pytest.fixture
def client(home):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(make_app(), raise_server_exceptions=False)


def cli_json(judge, *args: str):
    code, out, err = judge(*args, "--json")
    assert code in (0, 1), err
    return json.loads(out)


def error_of(response, status: int, code: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == ERROR_KEYS
    assert body["error"]["status"] == code
    assert "Traceback" not in response.text
    return body["error"]


@pytest.mark.parametrize(
    "url, args",
    [
        ("/api/books", ["books"]),
        ("/api/rule/riftbound/312.1", ["rule", "312.1", "--book", "riftbound"]),
        ("/api/rule/mtg/302.2", ["rule", "302.2", "--book", "mtg"]),
        ("/api/rule/riftbound/312?all=1", ["rule", "312", "--book", "riftbound", "--all"]),
        ("/api/search?q=priorty&limit=3", ["search", "priorty", "--limit", "3"]),
        ("/api/search?q=who+gets+priority&book=riftbound", ["search", "who gets priority", "--book", "riftbound"]),
        ("/api/search?q=zzzqqq", ["search", "zzzqqq"]),  # no hits: the answer says so, 200
        ("/api/rulings?q=hidden", ["rulings", "hidden"]),
        ("/api/rulings?q=priority&game=riftbound&limit=2", ["rulings", "priority", "--game", "riftbound", "-n", "2"]),
    ],
)
def test_an_endpoint_answers_what_its_command_prints(client, judge, url, args):
    response = client.get(url)
    assert response.status_code == 200, response.text
    assert response.json() == cli_json(judge, *args)


def test_the_rule_endpoint_keeps_the_documented_keys(client):
    (view,) = client.get("/api/rule/riftbound/312.1").json()
    for key in ("book", "number", "printed", "title", "text", "ancestors", "children", "cites", "cited_by", "rulings"):
        assert key in view
    assert view["book"] == "riftbound" and view["number"] == "312.1"


def test_a_card_is_answered_as_judge_card_prints_it(fresh_home, judge):
    code, _, err = judge("load", REPO / "tests" / "data" / "cards" / "invented-scryfall.json")
    assert code == 0, err
    name = json.loads((REPO / "tests" / "data" / "cards" / "invented-scryfall.json").read_text())
    first = (name["data"] if isinstance(name, dict) else name)[0]["name"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(make_app(), raise_server_exceptions=False)
    response = client.get(f"/api/card/{first.lower()}?game=mtg")
    assert response.status_code == 200, response.text
    assert response.json() == cli_json(judge, "card", first.lower(), "--game", "mtg")
    error_of(client.get("/api/card/no such card at all?game=mtg"), 404, 1)


def test_a_diff_is_answered_as_judge_diff_prints_it(fresh_home, judge, tmp_path):
    copy = tmp_path / "riftbound-300-detail.txt"
    copy.write_text((REPO / "seeds" / "riftbound-300-detail.txt").read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = judge("load", copy, "--book", "rb-copy", "--game", "riftbound", "--edition", "v1.2")
    assert code == 0, err
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(make_app(), raise_server_exceptions=False)
    response = client.get("/api/diff/riftbound/rb-copy")
    assert response.status_code == 200, response.text
    assert response.json() == cli_json(judge, "diff", "riftbound", "rb-copy")
    assert error_of(client.get("/api/diff/riftbound/mtg"), 400, 2)["message"].endswith("can be compared")
    assert error_of(client.get("/api/diff/riftbound/nobook"), 400, 2)["message"].startswith("no book 'nobook'")


def test_a_scenario_posted_is_explained_as_judge_explain_json(client, judge):
    response = client.post("/api/explain", content=SCENARIO.read_bytes())
    assert response.status_code == 200, response.text
    served, printed = response.json(), cli_json(judge, "explain", str(SCENARIO))
    assert served["scenario"]["file"] == "scenario"  # the body has no file name
    served["scenario"]["file"] = printed["scenario"]["file"]
    assert served == printed


@pytest.mark.parametrize(
    "url, status, code, says",
    [
        ("/api/rule/mtg/999.9", 404, 1, "no rule 999.9 in mtg"),
        ("/api/rule/riftbound/abc", 400, 2, "'abc' is not a rule number"),
        ("/api/rule/nobook/312.1", 400, 2, "no book 'nobook'"),
        ("/api/rule/riftbound/312.1?all=maybe", 400, 2, "?all=maybe: expected 1 or 0"),
        ("/api/search", 400, 2, "missing ?q="),
        ("/api/search?q=%20", 400, 2, "missing ?q="),
        ("/api/search?q=x&limit=0", 400, 2, "?limit=0: expected a whole number from 1 to 200"),
        ("/api/search?q=x&limit=abc", 400, 2, "?limit=abc"),
        ("/api/search?q=x&game=pokemon", 400, 2, "pokemon"),
        ("/api/rulings", 400, 2, "missing ?q="),
        ("/api/rulings?q=x&book=nobook", 400, 2, "no book 'nobook'"),
        ("/api/card/bolt", 404, 1, "no cards are loaded"),
        ("/api/nothing", 404, 1, "no endpoint /api/nothing"),
        ("/", 404, 1, "no endpoint /"),
    ],
)
def test_bad_input_is_a_4xx_with_the_error_object(client, url, status, code, says):
    assert says in error_of(client.get(url), status, code)["message"]


def test_a_rule_missed_in_an_excerpt_keeps_the_suggestions_and_hint(client, judge):
    served = error_of(client.get("/api/rule/mtg/302.22"), 404, 1)
    _, out, _ = judge("rule", "302.22", "--book", "mtg", "--json")
    assert served == json.loads(out)["error"]


@pytest.mark.parametrize(
    "body, says",
    [
        (b"a: [", "scenario:1: not valid YAML"),
        (b"", "empty body"),
        (b"\xff\xfe\x00bad", "not UTF-8"),
        (b"game: riftbound\n", "scenario"),
    ],
)
def test_a_bad_scenario_is_a_400_naming_the_line(client, body, says):
    assert says in error_of(client.post("/api/explain", content=body), 400, 2)["message"]


def test_a_scenario_too_large_is_refused_413(client):
    big = b"# " + b"x" * MAX_SCENARIO + b"\n"
    assert "larger than" in error_of(client.post("/api/explain", content=big), 413, 2)["message"]

    def chunks():  # no Content-Length: the body is counted as it arrives
        for _ in range(MAX_SCENARIO // 1024 + 2):
            yield b"#" + b"x" * 1022 + b"\n"

    assert "larger than" in error_of(client.post("/api/explain", content=chunks()), 413, 2)["message"]


def test_only_reading_methods_are_served(client):
    error_of(client.get("/api/explain"), 405, 2)
    error_of(client.post("/api/rule/riftbound/312.1"), 405, 2)


def test_a_bug_is_a_500_with_the_error_object_and_no_traceback(client, monkeypatch):
    from judge.commands import books

    def broken() -> list:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(books, "books_json", broken)
    error = error_of(client.get("/api/books"), 500, 500)
    assert "a bug" not in error["message"]


def test_requests_are_answered_side_by_side(client, monkeypatch):
    """Two requests are inside their endpoint at once (no lock around a request): each waits at a
    barrier the other must reach, and a request served alone would time out (a 500)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from judge.commands import books

    met = threading.Barrier(2, timeout=10)

    def waiting() -> list:
        met.wait()
        return []

    monkeypatch.setattr(books, "books_json", waiting)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: client.get("/api/books"), range(2)))
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]


def test_the_porter_stems_of_searches_in_two_threads_do_not_mix():
    """The in-memory table that gives a word's Porter stem is written by each use: one per thread, as
    requests search side by side (shared, most of these calls failed or answered the other's words)."""
    import threading

    from rulebook.search.index import porter_stems

    lists = (["running", "priority", "attacks"] * 20, ["triggered", "blocking", "damage"] * 20)
    alone = [porter_stems(words) for words in lists]
    wrong: list[object] = []

    def stem(i: int) -> None:
        for _ in range(200):
            try:
                if porter_stems(lists[i]) != alone[i]:
                    wrong.append(i)
            except Exception as exc:  # noqa: BLE001 - a shared table fails as often as it mixes
                wrong.append(exc)

    threads = [threading.Thread(target=stem, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


def test_a_port_in_use_is_one_line(home, judge):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, out, err = judge("serve", "--port", str(port), "--json")
    assert code == 2 and err.strip() == f"judge: cannot listen on 127.0.0.1:{port}: Address already in use"
    assert json.loads(out)["error"]["status"] == 2


def test_judge_serve_answers_on_loopback(session_home, tmp_path):
    """The real server, on a free port of 127.0.0.1: a bounded number of requests, then stopped."""
    with serving(session_home, tmp_path) as (base, said, _):
        port = int(base.rsplit(":", 1)[1])
        assert said == {"url": base, "host": "127.0.0.1", "port": port, "site": f"{base}/index.html"}
        with urllib.request.urlopen(f"{base}/api/rule/riftbound/312.1", timeout=10) as r:
            assert json.load(r)[0]["number"] == "312.1"
        with urllib.request.urlopen(f"{base}/api/search?q=priority&limit=2", timeout=30) as r:
            assert len(json.load(r)["hits"]) == 2
        with pytest.raises(urllib.error.HTTPError) as missed:
            urllib.request.urlopen(f"{base}/api/rule/riftbound/999.9", timeout=10)
        assert missed.value.code == 404 and json.load(missed.value)["error"]["status"] == 1
        with urllib.request.urlopen(f"{base}/riftbound/312.html", timeout=10) as r:
            assert r.headers["content-type"] == "text/html; charset=utf-8" and b'id="312.1"' in r.read()


def test_a_server_thread_keeps_its_store_until_the_library_file_is_replaced(fresh_home, judge, monkeypatch):
    """``judge serve`` keeps each thread's connection (judge.db is replaced, never changed in place): the
    same store while the file is the same, a new one once a load replaced it; the command line opens one a
    call."""
    import judge.books as books

    assert books.open_store() is not books.open_store()  # the command line
    monkeypatch.setattr(books, "KEEP_SECONDS", 0.0)  # check the file every call
    first = books.open_store()
    assert books.open_store() is first
    copy = fresh_home / "edition.txt"
    copy.write_text((REPO / "seeds" / "riftbound-300-detail.txt").read_text(encoding="utf-8"), encoding="utf-8")
    assert judge("load", copy, "--book", "rb-copy")[0] == 0  # a build writes a new judge.db
    second = books.open_store()
    assert second is not first and "rb-copy" in second.book_ids()


def test_a_server_thread_keeps_its_card_store_until_a_load_changes_it(fresh_home, judge, monkeypatch, tmp_path):
    """The card library likewise (what a search remembers of the card names stays true): the same store
    while cards.db and its write-ahead log are unchanged, a new one once a load wrote cards."""
    import judge.books as books

    cards = REPO / "tests" / "data" / "cards" / "invented-scryfall.json"
    assert judge("load", cards)[0] == 0
    path = fresh_home / "cards.db"
    assert books.open_cards(path) is not books.open_cards(path)  # the command line
    monkeypatch.setattr(books, "KEEP_SECONDS", 0.0)
    first = books.open_cards(path)
    assert first.has_cards() and books.open_cards(path) is first
    one = json.loads(cards.read_text(encoding="utf-8"))
    more = tmp_path / "more.json"
    more.write_text(
        json.dumps(
            [
                dict(
                    one[0],
                    name="Later Bolt",
                    id="00000000-0000-0000-0000-000000000099",
                    oracle_id="10000000-0000-0000-0000-000000000099",
                )
            ]
        )
    )
    assert judge("load", more)[0] == 0
    second = books.open_cards(path)
    assert second is not first and second.card("mtg", "Later Bolt") is not None


@pytest.fixture
def site_client(fresh_home, judge):
    """The application with the site of the seed books and the invented test cards, served live."""
    from judge.web import library_site

    assert judge("load", REPO / "tests" / "data" / "cards" / "invented-scryfall.json")[0] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # every=0: the library checked at every request (judge serve: at most once a second)
        return TestClient(make_app(library_site(every=0.0)), raise_server_exceptions=False)


def test_the_sites_pages_are_served_as_judge_site_writes_them(site_client, judge, tmp_path):
    assert judge("site", tmp_path / "site")[0] == 0
    for path in ("index.html", "riftbound/312.html", "mtg/glossary.html", "cards/mtg/practice-bolt.html", "site.css"):
        served = site_client.get(f"/{path}")
        assert served.status_code == 200, path
        assert served.content == (tmp_path / "site" / path).read_bytes(), path
    assert site_client.get("/").content == site_client.get("/index.html").content
    assert site_client.get("/riftbound/312.html").headers["content-type"] == "text/html; charset=utf-8"
    # served, the search box asks the project's search instead of reading an index of its own
    assert site_client.get("/search-index.js").text == "window.JUDGE_SEARCH = 'api/site-search';\n"
    missing = site_client.get("/riftbound/999.html")
    assert missing.status_code == 404 and 'href="/index.html"' in missing.text
    error_of(site_client.get("/api/nothing"), 404, 1)  # the API's unknown paths stay JSON


def test_the_served_search_is_the_projects_search_linked_into_the_site(site_client, judge):
    found = site_client.get("/api/site-search?q=prority").json()
    assert found["corrected"] == "priority"
    hits = cli_json(judge, "search", "prority", "--limit", "20")["hits"]
    assert [r["href"].split("#")[1] for r in found["results"] if r["note"] == "riftbound"] == [
        h["id"] for h in hits if h["kind"] == "rule" and h["book"] == "riftbound"
    ]
    assert found["results"][0]["href"] == f"riftbound/312.html#{hits[0]['id']}"
    number = site_client.get("/api/site-search?q=312.2b").json()["results"]
    assert number[0] == {
        "href": "riftbound/312.html#312.2.b",
        "label": "312.2.b When the turn is in a Showdown State and they gain Focus.",
        "note": "riftbound",
    }
    card = site_client.get("/api/site-search?q=practice+blot").json()["results"][0]
    assert card == {"href": "cards/mtg/practice-bolt.html", "label": "Practice Bolt", "note": "card, mtg"}
    error_of(site_client.get("/api/site-search?q="), 400, 2)


def test_the_served_site_is_made_again_when_the_library_changes(site_client, judge, tmp_path):
    assert site_client.get("/rb-x/index.html").status_code == 404
    assert site_client.get("/rb-x/302.html").status_code == 404
    book = tmp_path / "x.txt"
    book.write_text("Riftbound Core Rules\n\n301.\nThe Turn\n302.\nA rule of a new book.\n", encoding="utf-8")
    assert judge("load", book, "--book", "rb-x", "--game", "riftbound", "--edition", "2026-06-01")[0] == 0
    page = site_client.get("/rb-x/302.html")
    assert page.status_code == 200 and "A rule of a new book." in page.text
