"""The ``judge`` command: a thin Typer layer; each subcommand lives in ``judge/commands/``."""

from __future__ import annotations

import sys

import typer

from judge.commands import COMMANDS

app = typer.Typer(
    name="judge",
    help="Rules lookup, search, cross-references and scenario explanations for Riftbound and Magic judges.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _name, _function in COMMANDS:
    app.command(_name)(_function)


def main() -> None:
    from judge.app import Fail

    try:
        status = app(standalone_mode=False)
        # Without standalone mode, click hands back typer.Exit's status instead of exiting.
        if isinstance(status, int) and status:
            sys.exit(status)
    except Fail as exc:
        print(f"judge: {exc.message}", file=sys.stderr)
        sys.exit(exc.code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        print("judge: aborted", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the one place that turns errors into one line
        import click

        if isinstance(exc, click.exceptions.UsageError):
            print(f"judge: {exc.format_message()}", file=sys.stderr)
            hint = f"Try 'judge {exc.ctx.info_name if exc.ctx and exc.ctx.parent else ''} --help'.".replace("  ", " ")
            print(hint, file=sys.stderr)
            sys.exit(2)
        if isinstance(exc, click.exceptions.ClickException):
            print(f"judge: {exc.format_message()}", file=sys.stderr)
            sys.exit(exc.exit_code)
        from judge.errors import one_line

        message = one_line(exc)
        if message is None:
            raise
        print(f"judge: {message}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
