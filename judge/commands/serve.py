"""``judge serve``: the read commands' JSON over HTTP (:mod:`judge.web`), on Uvicorn."""

from __future__ import annotations

import typer

from judge.commands.options import JSON
from judge.output import echo, emit_json, fail


def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="The address to listen on: this machine only unless told otherwise (0.0.0.0: all)."
    ),
    port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="The port to listen on."),
    pages: bool = typer.Option(
        True, "--site/--no-site", help="Serve the site's pages (judge site) at /, searching with the project's search."
    ),
    json_: bool = JSON,
) -> None:
    """Serve the read commands' JSON over HTTP until stopped (Ctrl-C): /api/rule/BOOK/N, /api/search?q=, ...
    (docs/json.md, "HTTP API"), and the site's pages at / (made when the server starts, and again after the
    library changes)."""
    import socket
    import sys

    import uvicorn

    from judge.books import keep_stores, open_store
    from judge.commands.search import numpy_on_one_thread
    from judge.web import library_site, make_app

    try:  # a port in use or a host that is not this machine's: one line now, not Uvicorn's log later
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {str(exc.strerror or exc).split(' (while')[0]}")
    open_store()  # the library brought up to date once, before the first request
    numpy_on_one_thread()  # it sets the environment for a moment: once here, not in the request threads
    keep_stores(1.0)  # each worker thread keeps its connection, the library checked fresh once a second
    site = None
    if pages:
        site = library_site()
        print("making the site's pages ...", file=sys.stderr, flush=True)  # seconds for a full library
        made = site.files()
    url = f"http://{host}:{port}"
    if json_:
        emit_json({"url": url, "host": host, "port": port, "site": f"{url}/index.html" if site else None})
    elif site:
        shown = sum(1 for p in made if p.endswith(".html"))
        echo(f"serving the rules on {url}/api/ and {shown} pages on {url}/ (Ctrl-C to stop)")
    else:
        echo(f"serving the rules on {url}/api/ (Ctrl-C to stop)")
    uvicorn.run(make_app(site), host=host, port=port, log_level="warning")
