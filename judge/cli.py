"""The ``judge`` command: a thin Typer layer; each subcommand lives in ``judge/commands/``.

Only the module of the command being run is imported (and turned into a click command): a lookup
does not pay for the options of twelve other commands. ``judge --help``, no command, or a misspelt
one registers them all, so help and "No such command" read as before.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from typing import TYPE_CHECKING

import typer

from judge.commands import COMMANDS, command

if TYPE_CHECKING:
    from typing import Protocol

    class _ClickError(Protocol):
        """What every click exception has, in the click package and in typer's copy alike."""

        @property
        def exit_code(self) -> int: ...

        def format_message(self) -> str: ...


HELP = "Rules lookup, search, cross-references and scenario explanations for Riftbound and Magic judges."


def make_app(names: list[str] | None = None) -> typer.Typer:
    """The Typer app with the commands ``names`` (all when None)."""
    app = typer.Typer(
        name="judge",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    # A group even with one command registered (Typer would make a lone command the whole program).
    # `--version` is answered by main() before any parsing; declared here too, so `judge --help` lists it.
    @app.callback()
    def _group(
        version: bool = typer.Option(
            False, "--version", help="Print the version and exit.", is_eager=True, callback=_print_version
        ),
    ) -> None:
        pass

    for name, _ in COMMANDS:
        if names is None or name in names:
            target = command(name)
            if isinstance(target, typer.Typer):  # a command group: judge ruling add|list|...
                app.add_typer(target, name=name)
            else:
                app.command(name)(target)
    return app


def _invoked(args: list[str]) -> list[str] | None:
    """The command a command line runs, when it names one; None to register every command."""
    known = {name for name, _ in COMMANDS}
    if args and args[0] in known:
        return [args[0]]
    return None


def __getattr__(name: str):
    if name == "app":  # `judge.cli.app`, the whole program, for whoever imports it
        return make_app()
    raise AttributeError(name)


# A command is one short process: nothing it made is garbage the cyclic collector must find before
# the operating system takes the memory back. Frozen as the process exits (atexit runs before the
# interpreter's last collection), the objects are still released and files closed, but that
# collection no longer walks every object importing Typer and NumPy made: 12-15 ms of every command.
# At exit, not when main() returns: a process that calls main() and goes on (the tests) keeps its
# collector.
atexit.register(gc.freeze)


def main() -> None:
    """Run the command line; at the edge, a reader that stopped reading (``judge rule 601 --all | head -1``)
    ends the command quietly with status 0, and Ctrl-C with one line and status 130 (docs/decisions.md,
    "When things go wrong")."""
    out = sys.stdout
    try:
        _main()
    except BrokenPipeError:
        _pipe_closed()
    except SystemExit:
        if sys.stdout is not out:  # click met the closed pipe (EPIPE) first: it swapped stdout for a quiet one
            _pipe_closed()
        raise
    except KeyboardInterrupt:  # outside click's run: while an error is printed
        _interrupted()
    finally:
        ruling = sys.modules.get("judge.commands.ruling")
        if ruling is not None:
            ruling.close_notebooks()


def _pipe_closed() -> None:
    """Whoever read stdout has what it wanted and went: exit 0 without a word. stdout is pointed at the
    null device first, so the interpreter's last flush at exit has nowhere to fail."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's captured stdout)
        pass
    sys.exit(0)


def _interrupted() -> None:
    """Ctrl-C: one line, status 130 (128 + SIGINT, as a shell reports it). Every write to the library is
    made whole or not at all (a new file renamed over the old, a transaction), and the writes stopped
    midway were undone as the interruption unwound them."""
    try:
        print("judge: interrupted; the library is as it was", file=sys.stderr, flush=True)
    except OSError:
        pass
    sys.exit(130)


def _main() -> None:
    from judge.output import Fail

    args = sys.argv[1:]
    if args[:1] == ["--version"]:
        print(f"judge {_version()}")
        return
    try:
        status = make_app(_invoked(args))(standalone_mode=False)
        # Without standalone mode, click hands back typer.Exit's status instead of exiting; typer turns
        # Ctrl-C (KeyboardInterrupt) into status 130, older ones into Abort.
        if status == 130:
            _interrupted()
        if isinstance(status, int) and status:
            sys.stdout.flush()
            sys.exit(status)
        sys.stdout.flush()  # a reader gone (| head -1) is met here, while it can still be answered
    except Fail as exc:
        from judge.errors import Problem

        _stop(Problem(exc.message, exc.code, suggestions=exc.suggestions, hint=exc.hint), args)
    except typer.Exit as exc:
        sys.stdout.flush()
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):  # click turns Ctrl-C into Abort
        _interrupted()
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 - the one place that turns errors into one line
        from judge.errors import Problem, problem, usage_problem

        usage, other, no_args = _click_errors()
        if isinstance(exc, no_args):  # `judge` alone: the help, as click prints it
            print(exc.format_message(), file=sys.stderr)
            sys.exit(2)
        if isinstance(exc, usage):
            _stop(_in_group(usage_problem(exc), exc), args)
        if isinstance(exc, other):
            _stop(Problem(exc.format_message(), exc.exit_code), args)
        found = problem(exc)
        if found is None:
            raise
        _stop(found, args)


def _stop(problem, args: list[str]) -> None:
    """One line on stderr (and a hint's line); with --json (or --format json) the problem on stdout too;
    exit with its status."""
    print(f"judge: {problem.message}", file=sys.stderr)
    if problem.hint:
        print(f"hint: {problem.hint}", file=sys.stderr)
    if _wants_json(args):
        from judge.output import emit_json

        emit_json(problem.to_json())
        sys.stdout.flush()
    sys.exit(problem.status)


def _in_group(problem, exc):
    """A group's subcommand is named whole in "Try 'judge ruling add --help'." (not 'judge add')."""
    ctx = getattr(exc, "ctx", None)
    if ctx is None or ctx.parent is None or ctx.parent.parent is None:
        return problem
    from dataclasses import replace

    short = f"Try 'judge {ctx.info_name} --help'."
    whole = f"Try '{ctx.command_path} --help'."
    return replace(problem, message=problem.message.replace(short, whole))


def _wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON output (options after ``--`` are arguments)."""
    args = args[: args.index("--")] if "--" in args else args
    return (
        "--json" in args
        or "--format=json" in args
        or any(a in ("--format", "-f") and b == "json" for a, b in zip(args, args[1:]))
    )


def _print_version(value: bool) -> None:
    if value:
        print(f"judge {_version()}")
        raise typer.Exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rules-judge")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def _click_errors() -> tuple[tuple[type, ...], tuple[type[_ClickError], ...], tuple[type[_ClickError], ...]]:
    """Click's usage errors, other errors and "no arguments" error, from whichever click parses:
    typer 0.2x ships its own copy (``typer._click``), older ones use the click package."""
    modules = []
    try:
        from typer._click import exceptions as vendored

        modules.append(vendored)
    except ImportError:
        pass
    try:
        from click import exceptions as package

        modules.append(package)
    except ImportError:
        pass
    return (
        tuple(m.UsageError for m in modules),
        tuple(m.ClickException for m in modules),
        tuple(m.NoArgsIsHelpError for m in modules if hasattr(m, "NoArgsIsHelpError")),
    )


if __name__ == "__main__":
    main()
