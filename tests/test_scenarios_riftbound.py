"""Every worked Riftbound scenario passes ``judge explain --check`` (through :func:`scenarios.explain.explain` and its renderers),
in every output format; the example of ``shared/spec/scenarios.md`` runs and passes unchanged; errors in a
file come back as one line naming the file, the line and the key path."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from scenarios.explain import explain
from scenarios.render import closing_text, render
from scenarios.scenario import ScenarioFileError

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "data" / "scenarios" / "riftbound").glob("*.yaml"))
SPEC = Path(__file__).resolve().parents[2] / "shared" / "spec" / "scenarios.md"


def _explain(path: Path, fmt: str = "text", check: bool = True) -> tuple[int, str]:
    told = explain(path, check=check)
    return (0 if told.ok else 1), render(told, fmt)


def test_there_are_at_least_fifteen_scenarios_with_expectations():
    assert len(SCENARIOS) >= 15
    for path in SCENARIOS:
        assert "expect:" in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes_check(path):
    code, text = _explain(path, "json")
    data = json.loads(text)
    failed = [r for r in data["expectations"] if not r["ok"]]
    assert code == 0 and not failed, failed
    assert data["expectations"], "no expectation was checked"
    for step in data["steps"]:
        for event in step["events"]:
            assert event["rules"], event


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_walkthrough_formats(fmt):
    code, text = _explain(ROOT / "data/scenarios/riftbound/spec-example.yaml", fmt)
    assert code == 0
    assert "Ben plays Hidden Blade targeting Jinx" in text and "ILLEGAL" in text
    assert re.search(r"\(312\.1\)", text)
    assert "not in book riftbound" in text  # the seeds lack most of the cited rules: flagged


def test_spec_example_unchanged():
    if not SPEC.exists():
        pytest.skip(f"the spec is not at {SPEC}")
    block = re.search(r"```yaml\n(.*?)```", SPEC.read_text(encoding="utf-8"), re.S).group(1)
    assert block == SPEC_EXAMPLE.read_text(encoding="utf-8")


SPEC_EXAMPLE = ROOT / "data/scenarios/riftbound/spec-example.yaml"


def _spec_example_with(tmp_path, old: str, new: str):
    """A copy of the spec example with one edit, to see how a wrong file is reported."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(SPEC_EXAMPLE.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return bad


def test_failed_expectation_exits_1(tmp_path):
    bad = _spec_example_with(tmp_path, "points: {Ana: 4}", "points: {Ana: 5}")
    code, out = _explain(bad)
    assert code == 1 and "FAIL" in out and "points" in out


def test_error_names_file_line_and_action(tmp_path):
    bad = _spec_example_with(tmp_path, "  - Ana plays Gust targeting Garen ", "  - Ben plays Gust targeting Garen ")
    with pytest.raises(ScenarioFileError) as err:
        _explain(bad)
    message = str(err.value)
    assert message.startswith(f"{bad}:25: actions -> 2: ")  # the spec example grew a comment line
    assert 'no card named "Gust" in Ben\'s hand (did you mean "Gust" in Ana\'s hand?)' in message


@pytest.mark.parametrize(
    "magic, riftbound",
    [
        ("Ana casts Gust targeting Garen", "plays"),
        ("Ana taps a rune", "exhausts"),
        ("Ana attacks with Jinx", "moves"),
    ],
)
def test_a_magic_verb_suggests_the_riftbound_word(tmp_path, magic, riftbound):
    bad = _spec_example_with(tmp_path, "  - Ana plays Gust targeting Garen ", f"  - {magic} ")
    with pytest.raises(ScenarioFileError) as err:
        _explain(bad)
    verb = magic.split()[1]
    assert f'(did you mean "{riftbound}"? "{verb}" is Magic\'s word; Riftbound says "{riftbound}")' in str(err.value)


def test_a_misspelt_verb_still_gets_the_closest_spelling(tmp_path):
    bad = _spec_example_with(tmp_path, "  - Ana plays Gust targeting Garen ", "  - Ana plyas Gust targeting Garen ")
    with pytest.raises(ScenarioFileError) as err:
        _explain(bad)
    assert '"Ana plyas Gust targeting Garen" (did you mean "plays"?);' in str(err.value)


def test_state_error_names_key_path(tmp_path):
    bad = _spec_example_with(tmp_path, "keywords: [Ganking]", "keywords: [Ganknig]")
    with pytest.raises(ScenarioFileError) as err:
        _explain(bad)
    assert "state -> units -> 3 -> keywords -> 1" in str(err.value) and 'did you mean "Ganking"' in str(err.value)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_step_waits_for_enter_at_a_terminal_and_q_stops(monkeypatch):
    from judge.commands.explain import _step_through

    path = ROOT / "data/scenarios/riftbound/spec-example.yaml"
    out = _Tty()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", _Tty("\n\nq\n"))
    shown = _step_through(explain(path, check=False), lambda n: explain(path, check=False, actions=n))
    text = out.getvalue()
    assert text.count("[Enter: next action, q: stop]") == 3 and len(shown.steps) == 3 and not shown.complete
    assert "3. Ben plays Hidden Blade" in text and "4. Ana passes" not in text
    assert text.endswith(closing_text(shown))  # the rules of the actions shown, not of the whole file


def test_step_without_a_terminal_is_plain_text(tmp_path):
    from typer.testing import CliRunner

    from judge.cli import app

    result = CliRunner().invoke(
        app,
        ["explain", str(ROOT / "data/scenarios/riftbound/spec-example.yaml"), "--step"],
        env={"JUDGE_HOME": str(tmp_path)},
    )
    assert result.exit_code == 0 and "[Enter" not in result.output and "9. Ana ends turn" in result.output
