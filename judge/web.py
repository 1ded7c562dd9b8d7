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

from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from judge.errors import Problem

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


def make_app() -> Starlette:
    """The application: the routes above, every error the JSON error object."""
    return Starlette(
        routes=ROUTES,
        exception_handlers={HTTPException: not_found, Refused: refused, Exception: bug},
    )
