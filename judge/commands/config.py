"""``judge config [KEY] [VALUE]``: what a judge sets once (rulebook.preferences): show, set or unset."""

from __future__ import annotations

import typer

from judge.commands.options import JSON
from judge.output import echo, emit_json, fail


def config(
    key: str = typer.Argument(None, help="A setting: game (the game a command reads when it names none)."),
    value: str = typer.Argument(None, help="Its new value (riftbound or mtg for game)."),
    unset: bool = typer.Option(False, "--unset", help="Remove the setting KEY."),
    json_: bool = JSON,
) -> None:
    """Show or change the settings: `judge config game mtg` makes Magic the default game.

    The environment overrides the file for one shell: JUDGE_GAME=riftbound.
    """
    from rulebook.home import default_home
    from rulebook.preferences import KEYS, PreferenceError, check, preference, set_preference

    home = default_home()
    try:
        if key is not None:
            check(key, value)
        if unset or value is not None:
            if key is None:
                fail("a setting to change is needed: judge config game mtg, or judge config game --unset")
            if unset and value is not None:
                fail(f"--unset removes {key}: give no value with it")
            set_preference(home, key, None if unset else value)
        shown = {k: preference(home, k) for k in ([key] if key else KEYS)}
    except PreferenceError as exc:
        fail(str(exc), suggestions=exc.suggestions)
    views = [{"key": k, "value": v, "from": source, "means": KEYS[k]} for k, (v, source) in shown.items()]
    if json_:
        emit_json(views)
        return
    for v in views:
        said = v["value"] if v["value"] is not None else "(not set)"
        echo(f"{v['key']} = {said}" + (f"  (from {v['from']})" if v["from"] else "") + f"  # {v['means']}")
