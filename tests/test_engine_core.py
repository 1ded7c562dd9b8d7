"""The shape both engines share (engine.core.Game): copies, check before change, one protocol.

Copies: a game's copy is a copy of its state ``s``, written out field by field for speed; here it must
equal the original and share nothing that changes with it, in every state of every shipped scenario.
Check first: an illegal action raises before anything changes, so ``play`` copies nothing; a refusal
while an action is carried out is an engine bug, reported as such.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
from pathlib import Path

import pytest

from engine.core import EngineError, Event, Game, IllegalAction, Refusal, ScenarioError, Step, ask, play
from engine.mtg.state import Consulted, Definitions
from scenarios.explain import new_engine
from scenarios.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "data" / "scenarios").glob("*/*.yaml"))


def _mutable_parts(value, found: dict[int, object]) -> dict[int, object]:
    """Every list, dict, set and mutable dataclass reachable from ``value``, by id. Frozen dataclasses
    are values (shared by copies on purpose), and so are the card definitions."""
    if isinstance(value, (Definitions, Consulted)):
        return found
    if isinstance(value, (list, dict, set)) or (
        dataclasses.is_dataclass(value) and not value.__dataclass_params__.frozen
    ):
        if id(value) in found:
            return found
        found[id(value)] = value
    if isinstance(value, dict):
        for v in value.values():
            _mutable_parts(v, found)
    elif isinstance(value, (list, set, tuple)):
        for v in value:
            _mutable_parts(v, found)
    elif dataclasses.is_dataclass(value) and not value.__dataclass_params__.frozen:
        for f in dataclasses.fields(value):
            _mutable_parts(getattr(value, f.name), found)
    return found


def states(path: Path):
    """The engine of a shipped scenario at its start and after each action (``ask:`` items skipped)."""
    scenario = load_scenario(path)
    engine, _ = new_engine(scenario)
    yield engine
    for sentence, is_ask in scenario.actions:
        if is_ask:
            continue
        try:
            engine.apply(sentence)
        except IllegalAction:
            continue
        yield engine


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_copy_equals_the_game_and_shares_nothing_that_changes(path):
    for engine in states(path):
        twin = engine.copy()
        assert twin.s == engine.s and twin.snapshot() == engine.snapshot()
        assert twin.citations is engine.citations and twin.opening is engine.opening
        shared = set(_mutable_parts(engine.s, {})) & set(_mutable_parts(twin.s, {}))
        assert not shared, [type(_mutable_parts(engine.s, {})[i]).__name__ for i in shared]
        assert copy.deepcopy(engine).s == engine.s


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_illegal_action_leaves_the_game_as_it_was(path):
    """Every candidate the checks refuse, in every state of every shipped scenario: the state is equal
    to a copy taken before (nothing was undone: nothing had changed)."""
    for engine in states(path):
        before = engine.copy()
        for action in engine.candidates():
            try:
                engine.check(action)
            except IllegalAction:
                assert engine.s == before.s, action
                with pytest.raises(IllegalAction):
                    engine.apply(action)
                assert engine.s == before.s, action


class Tiny(Game[dict]):
    """A game of one counter, to see the core's contract without either real game."""

    game = "tiny"

    def plan(self, action: str):
        if action == "add":
            return 1
        if action == "broken":
            return "broken"
        raise Refusal("only add", "tiny.only_add")

    def carry_out(self, plan) -> None:
        if plan == "broken":
            self.s["n"] += 100
            raise Refusal("found too late", "tiny.only_add")
        self.s["n"] += plan
        self.emit(f"n is {self.s['n']}", "tiny.only_add")

    def candidates(self) -> list[str]:
        return ["add", "sub"]

    def view(self):
        return {"priority": None, "n": self.s["n"]}


class _Table:
    game, edition = "tiny", "1"

    def event(self, what: str, *keys: str) -> Event:
        return Event(what, ("1.1",), keys)

    def illegal(self, message: str, *keys: str):
        raise IllegalAction(message, keys[0], ("1.1",))


def test_the_core_contract():
    g = Tiny({"n": 0}, _Table())
    assert g.legal_actions() == ["add"] and g.is_legal("add") and not g.is_legal("sub")
    assert [e.what for e in g.apply("add")] == ["n is 1"]
    with pytest.raises(IllegalAction) as no:
        g.apply("sub")
    assert no.value.reason == "tiny.only_add" and g.s == {"n": 1}
    legal, events, exc = ask(g, "add")
    assert legal and events[0].what == "n is 2" and g.s == {"n": 1}  # asked on a copy
    steps = list(play(g, [("sub", False), ("add", False)]))
    assert [s.legal for s in steps] == [False, True] and isinstance(steps[0], Step) and g.s == {"n": 2}
    with pytest.raises(EngineError):
        g.apply("broken")  # a refusal after changes began is a bug, never an illegal action


def test_every_engine_module_imports_only_downwards():
    """The layers: state (with the reading of card text), legality, steps, settle; game.py alone imports
    them all (no cycle, and no import inside a function to break one)."""
    import ast

    for game in ("riftbound", "mtg"):
        folder = REPO / "engine" / game
        graph: dict[str, set[str]] = {}
        for path in folder.glob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            deps = set()
            typing_only = {  # ``if TYPE_CHECKING:`` imports name types for annotations: no import at run time
                id(n)
                for block in ast.walk(tree)
                if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                for n in ast.walk(block)
            }
            for node in (n for n in ast.walk(tree) if id(n) not in typing_only):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(f"engine.{game}"):
                    names = [node.module.split(".")[2]] if node.module.count(".") >= 2 else [a.name for a in node.names]
                    deps.update(names)
            for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
                inner = [n for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
                assert not inner, f"{path.name}: {fn.name} imports inside a function"
            graph[path.stem] = deps - {path.stem}
        importers_of_game = {m for m, deps in graph.items() if "game" in deps}
        assert importers_of_game <= {"__init__"}, importers_of_game
        # The low layer: the state, reading card text (its grammar, types and citation keys) and actions.
        low_layer = {
            "state",
            "effects",
            "actions",
            "cardtext",
            "cardtext_tables",
            "effect_types",
            "citekeys",
            "keywords",
            "conditions",
            "counts",  # Magic: the counts card text names ("the number of Swamps you control"), read with it
            "levels",  # Magic: a leveler's LEVEL blocks, read with its text
            "soulbond",  # Magic: what a paired creature's text gives the pair, read with it
        }
        for low in sorted(low_layer & set(graph)):
            assert graph[low] <= low_layer, (game, low, graph[low])
        assert "settle" not in set().union(*(graph[m] for m in graph if m not in ("game", "__init__", "settle")))
        seen: list[str] = []

        def visit(module: str, trail: tuple[str, ...]) -> None:
            assert module not in trail, f"{game}: import cycle {' -> '.join((*trail, module))}"
            if module in seen:
                return
            for dep in graph.get(module, ()):
                visit(dep, (*trail, module))
            seen.append(module)

        for module in graph:
            visit(module, ())


@pytest.mark.parametrize("game", ["riftbound", "mtg"])
def test_both_games_have_the_same_module_names_for_the_same_roles(game):
    names = {p.stem for p in (REPO / "engine" / game).glob("*.py")}
    assert {
        "state",
        "build",
        "actions",
        "effects",
        "legality",
        "board",
        "combat",
        "turn",
        "settle",
        "candidates",
        "game",
    } <= names
    module = importlib.import_module(f"engine.{game}.game")
    cls = next(v for v in vars(module).values() if isinstance(v, type) and issubclass(v, Game) and v is not Game)
    for method in ("plan", "carry_out", "candidates", "view"):
        assert method in vars(cls), (cls.__name__, method)
    assert ScenarioError  # the one error type for what a scenario names wrongly, in both
