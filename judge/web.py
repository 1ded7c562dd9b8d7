"""``judge serve``: the read commands over HTTP, an ASGI application (Starlette) served by Uvicorn.

Each endpoint answers with the JSON its command prints with ``--json`` (docs/json.md, "HTTP API"),
from the very function the command prints (``books_json``, ``rule_json``, ``searched``, ``card_json``,
``found_rulings``, ``diffed``, ``explain_json`` in :mod:`judge.commands`): the JSON cannot drift from
the command line's. Errors are the commands' own, :class:`judge.output.Fail` or one
:func:`judge.errors.problem` knows, answered as the error object ``{"error": {...}}`` with 404 for
"not found" (exit status 1) and 400 for bad input (exit status 2); anything else is a bug, answered 500
with the same object and no traceback (which goes to the server's log). Read-only: no endpoint loads,
unloads or writes a ruling.

Nothing is printed or captured: a request runs in a worker thread with its own connections to the
library, so requests are answered side by side. Each worker thread keeps its store while judge.db is the
same file (``judge serve`` calls :func:`judge.books.keep_stores`: the library checked fresh at most once a
second, a replaced judge.db opened anew).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from judge.errors import Problem

if TYPE_CHECKING:
    from rulebook.site import SiteFile

MAX_SCENARIO = 64 * 1024  # bytes of YAML POST /api/explain reads; a scenario file is a few KB
HTTP_STATUS = {1: 404, 2: 400}  # a command's exit status -> the HTTP status of its error
LIMITS = {"search": (10, 200), "rulings": (5, 100)}  # --limit: its default and most, as the commands say


class Refused(Exception):
    """Bad input met before a command runs: answered with the error object and ``status``."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def error(message: str, status: int, suggestions: tuple[str, ...] = (), hint: str | None = None) -> JSONResponse:
    """The error object of docs/json.md with the HTTP ``status``; the object's own ``status`` is the exit
    status the command line gives, 1 for not found (404) and 2 for any other bad input (4xx), or 500."""
    code = 1 if status == 404 else 2 if status < 500 else 500
    body = Problem(message, code, suggestions=suggestions, hint=hint).to_json()
    return JSONResponse(body, status_code=status)


def answer(data: Callable[..., Any], *args: Any, **kwargs: Any) -> JSONResponse:
    """``data(*args, **kwargs)``, a command's JSON, answered 200 (a search without hits included: it is
    an answer); its error as the error object."""
    from judge.errors import problem
    from judge.output import Fail

    try:
        return JSONResponse(data(*args, **kwargs))
    except Fail as exc:
        return error(exc.message, HTTP_STATUS.get(exc.code, 400), exc.suggestions, exc.hint)
    except Exception as exc:
        found = problem(exc)
        if found is None:
            raise
        return JSONResponse(found.to_json(), status_code=HTTP_STATUS.get(found.status, 400))


async def answered(data: Callable[..., Any], *args: Any, **kwargs: Any) -> JSONResponse:
    """:func:`answer` in a worker thread (SQLite and the search are blocking calls)."""
    return await run_in_threadpool(answer, data, *args, **kwargs)


def _flag(request: Request, name: str) -> bool:
    value = request.query_params.get(name, "0").lower()
    if value not in ("0", "1", "true", "false", ""):
        raise Refused(f"?{name}={value}: expected 1 or 0")
    return value in ("1", "true", "")


def _text(request: Request, name: str, required: bool = False) -> str | None:
    value = request.query_params.get(name)
    if required and not (value or "").strip():
        raise Refused(f"missing ?{name}=: expected words, a question or a rule number")
    return value or None


def _limit(request: Request, command: str) -> int:
    default, most = LIMITS[command]
    value = request.query_params.get("limit")
    if value is None:
        return default
    if not value.isdigit() or not 1 <= int(value) <= most:
        raise Refused(f"?limit={value}: expected a whole number from 1 to {most}")
    return int(value)


async def books(request: Request) -> JSONResponse:
    from judge.commands.books import books_json

    return await answered(books_json)


async def rule(request: Request) -> JSONResponse:
    from judge.commands.rule import rule_json

    p = request.path_params
    return await answered(rule_json, p["number"], book=p["book"], all_=_flag(request, "all"))


async def search(request: Request) -> JSONResponse:
    from judge.commands.search import searched

    def found(**given: Any) -> dict:
        return searched(**given).to_json()

    return await answered(
        found,
        query=_text(request, "q", required=True),
        book=_text(request, "book"),
        game=_text(request, "game"),
        limit=_limit(request, "search"),
        words=_flag(request, "words"),
        exact=_flag(request, "exact"),
    )


async def card(request: Request) -> JSONResponse:
    from judge.commands.card import card_json

    return await answered(card_json, request.path_params["name"], game=_text(request, "game"))


async def rulings(request: Request) -> JSONResponse:
    from judge.commands.rulings import found_rulings

    def found(**given: Any) -> dict:
        return found_rulings(**given).to_json()

    return await answered(
        found,
        query=_text(request, "q", required=True),
        book=_text(request, "book"),
        game=_text(request, "game"),
        limit=_limit(request, "rulings"),
    )


async def diff(request: Request) -> JSONResponse:
    from judge.commands.diff import diffed

    def found(old: str, new: str, section: str | None) -> dict:
        return diffed(old, new, section).to_json()

    p = request.path_params
    return await answered(found, p["old"], p["new"], _text(request, "section"))


async def explain(request: Request) -> JSONResponse:
    """A scenario in YAML, the request's body (at most :data:`MAX_SCENARIO` bytes), explained on
    ``?book=`` or the book it would be on the command line (its notes go to the server's log)."""
    from judge.commands.explain import explain_json

    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_SCENARIO):
        raise Refused(f"the scenario is larger than {MAX_SCENARIO} bytes", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_SCENARIO:
            raise Refused(f"the scenario is larger than {MAX_SCENARIO} bytes", 413)
    try:
        text = bytes(body).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Refused(f"the scenario is not UTF-8 text (byte {exc.start})") from exc
    if not text.strip():
        raise Refused("empty body: expected a scenario in YAML (docs/scenarios.md)")
    return await answered(explain_json, text, _text(request, "book"), _flag(request, "check"))


async def not_found(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, HTTPException):
        if exc.status_code == 404:
            return error(f"no endpoint {request.url.path} (see docs/json.md, HTTP API)", 404)
        return error(exc.detail, exc.status_code)
    return error("internal error", 500)


async def refused(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Refused)
    return error(exc.message, exc.status)


async def bug(request: Request, exc: Exception) -> JSONResponse:
    # Starlette raises the exception again once this answer is sent: Uvicorn logs its traceback.
    return error("internal error (the server's log has the details)", 500)


ROUTES = [
    Route("/api/books", books),
    Route("/api/rule/{book}/{number}", rule),
    Route("/api/search", search),
    Route("/api/card/{name:path}", card),  # a name may hold a slash: Fire // Ice
    Route("/api/rulings", rulings),
    Route("/api/diff/{old}/{new}", diff),
    Route("/api/explain", explain, methods=["POST"]),
]


# The site, served live ------------------------------------------------------------------------------
SITE_SEARCH = "api/site-search"  # where the served pages' search box asks, from the site's root
SITE_RESULTS = 20  # as many as the search box of the static site shows
MEDIA = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
}


class LiveSite:
    """The pages ``judge site`` writes, made in memory from the library as it is and served by ``judge
    serve``; made again on the first request after judge.db or cards.db was replaced (checked at most
    every ``every`` seconds). Its ``search-index.js`` points the search box at :data:`SITE_SEARCH` (the
    project's own search) instead of holding the index."""

    def __init__(self, build: Callable[[], list[SiteFile]], identity: Callable[[], object], every: float = 1.0):
        self.build, self.identity, self.every = build, identity, every
        self._lock = threading.Lock()
        self._files: dict[str, bytes] | None = None
        self.cards: dict[tuple[str, str], str] = {}  # (game, name) -> page
        self._made_of: object = None
        self._checked = 0.0

    def files(self) -> dict[str, bytes]:
        with self._lock:
            now = time.monotonic()
            if self._files is None or now - self._checked >= self.every:
                made_of = self.identity()
                if self._files is None or made_of != self._made_of:
                    from rulebook.site import card_pages

                    made = {f.path: f.text for f in self.build()}
                    self.cards = card_pages(made["search-index.js"])
                    made["search-index.js"] = f"window.JUDGE_SEARCH = {SITE_SEARCH!r};\n"
                    self._files = {path: text.encode("utf-8") for path, text in made.items()}
                    self._made_of = made_of
                self._checked = now
            return self._files

    def file(self, path: str) -> bytes | None:
        return self.files().get(path)


def library_site(every: float = 1.0) -> LiveSite:
    """The site of every loaded book and card, as ``judge site`` writes it, checked against the library
    at most every ``every`` seconds."""
    from judge.commands.site import site_files

    def build() -> list[SiteFile]:
        from judge.books import open_store

        store = open_store()
        return site_files(store, store.book_ids(), cards=True)

    return LiveSite(build, library_identity, every)


def library_identity() -> tuple:
    """What the site is made of: judge.db (brought up to date; a build replaces it) and cards.db."""
    from judge.books import cards_identity, fresh_db
    from rulebook.cards.store import card_db_path
    from rulebook.home import default_home

    db = fresh_db()
    found = os.stat(db)
    return str(db), found.st_ino, found.st_mtime_ns, cards_identity(card_db_path(default_home()))


def site_results(query: str, site: dict[str, bytes], cards: dict[tuple[str, str], str]) -> dict:
    """The search box's answer on a served site: the project's search (``judge search``), each hit a link
    into the site, a card the query names first: ``{"query", "corrected", "results": [{"href", "label",
    "note"}]}``; a hit whose page the site lacks is left out."""
    from judge.commands.search import searched
    from rulebook.site import book_dir, page_key, ruling_anchor, term_anchor

    found = searched(query=query, limit=SITE_RESULTS).to_json()
    results = []
    card = found.get("card") or {}
    for named in card.get("choices") or ([card] if card.get("name") else []):
        href = cards.get((named["game"], named["name"]))
        if href is not None:
            results.append({"href": href, "label": named["name"], "note": f"card, {named['game']}"})
    for hit in found["hits"]:
        where = book_dir(hit["book"])
        label = hit["id"]
        if hit["kind"] == "rule":
            href = f"{where}/{page_key(hit['id'])}.html#{hit['id']}"
            label += " " + (hit["title"] or hit["snippet"].replace("**", ""))
        elif hit["kind"] == "term":
            href = f"{where}/glossary.html#{term_anchor(hit['id'])}"
            label = f"{hit['id']} (glossary)"
        else:
            href = f"{where}/rulings.html#{ruling_anchor(hit['id'])}"
            label = hit["title"] or hit["snippet"].replace("**", "")
        if href.partition("#")[0] in site:
            results.append({"href": href, "label": label[:160], "note": hit["book"]})
    return {"query": query, "corrected": found["corrected"], "results": results[:SITE_RESULTS]}


def make_app(site: LiveSite | None = None) -> Starlette:
    """The application: the routes above, every error the JSON error object; with ``site``, its pages at
    ``/`` and their search at ``/api/site-search?q=``."""
    routes = list(ROUTES)
    if site is not None:

        async def site_search(request: Request) -> JSONResponse:
            query = _text(request, "q", required=True)
            files = await run_in_threadpool(site.files)
            return await answered(site_results, query, files, site.cards)

        async def site_page(request: Request) -> Response:
            path = request.path_params["path"]
            if path == "api" or path.startswith("api/"):
                return error(f"no endpoint {request.url.path} (see docs/json.md, HTTP API)", 404)
            if path == "" or path.endswith("/"):
                path += "index.html"
            found = await run_in_threadpool(site.file, path)
            if found is None:
                body = f'<!DOCTYPE html><title>Not found</title><p>No page {path}: <a href="/index.html">the books</a>.</p>'
                return Response(body, status_code=404, media_type="text/html; charset=utf-8")
            media = MEDIA.get(os.path.splitext(path)[1], "application/octet-stream")
            return Response(found, media_type=media, headers={"Cache-Control": "no-cache"})

        routes += [Route(f"/{SITE_SEARCH}", site_search), Route("/{path:path}", site_page)]
    return Starlette(
        routes=routes,
        exception_handlers={HTTPException: not_found, Refused: refused, Exception: bug},
    )
