"""Random legal play: a seeded generator drives the Riftbound engine through thousands of steps and the
invariants of Core Rules v1.2 are checked after every one.

Invariants: at most one player has Priority and at most one has Focus; Focus only in a Showdown State
(313.5); Closed exactly when the chain is non-empty (309); in a Showdown Open State the Focus holder has
Priority (313.2); in a Neutral Open Action Phase the turn player has it (312.2.a); every play, move and
activation used a legal timing window (308.1.a, 309.1.a, 310.1.a, 143.1, 374); points never decrease;
every event cites at least one rule, from the v1.2 table, and that rule is in the v1.2 text when the
corpus is present; an illegal action leaves the game exactly as it was (the engine checks before it
changes anything); and the engine never gets stuck (some candidate action is always legal).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from engine.core import Citations, IllegalAction
from engine.riftbound import new_game
from scenarios.citations import timeline

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "riftbound" / "core-rules-v1.2.txt"
TABLE = yaml.safe_load((ROOT / "data" / "citations" / "riftbound-v1.2.yaml").read_text(encoding="utf-8"))
CITATIONS = Citations("riftbound", "v1.2", TABLE["citations"], timeline=timeline("riftbound"))
TABLE_RULES = {r for c in CITATIONS for r in c.rules}

SPELL_EFFECTS = [
    "deal 2 to target unit",
    "deal 4 to target unit at a battlefield. draw 1",
    "kill target unit",
    "return target unit to its owner's hand",
    "move target unit to a battlefield",
    "draw 1",
    "ready target unit",
    "exhaust target unit",
    "stun target unit",
    "buff target unit",
    "give target enemy unit +2 might this turn",
    "score 1",
    "counter target spell",
    "recall target unit",
    "heal target friendly unit",
    "",
]
TRIGGER_EFFECTS = ["draw 1", "buff me", "ready me", "give me +1 might this turn", "score 1"]
# Triggered abilities that choose targets as they go onto the Chain (390.1), on either player's turn.
TARGETING_TRIGGERS = [
    "deal 2 to target unit",
    "stun target enemy unit",
    "buff target friendly unit",
    "kill target unit at a battlefield",
    "counter target spell",
]


def _corpus_rules() -> set[str] | None:
    if not CORPUS.exists():
        return None
    try:
        from rulebook.readers import read_file

        return {r.number for r in read_file(CORPUS).rules}
    except ImportError:  # the Riftbound reader is not there yet: the table test covers the numbers
        return None


CORPUS_RULES = _corpus_rules()


def random_scenario(rng: random.Random) -> dict:
    players = ["Ana", "Ben"]
    bfs = [f"Field{i}" for i in range(rng.choice([2, 2, 3]))]
    units, cards, hands, n = [], {}, {p: [] for p in players}, 0
    controllers = {}
    for p in players:
        for _ in range(rng.randint(1, 3)):
            n += 1
            at = rng.choice(["base", "base", *bfs])
            if at != "base" and controllers.setdefault(at, p) != p:
                at = "base"
            unit = {
                "name": f"U{n}",
                "controller": p,
                "at": at,
                "might": rng.randint(1, 5),
                "exhausted": rng.random() < 0.3,
                "damage": 0,
            }
            kws = [k for k in ("Ganking", "Tank", "Deathknell") if rng.random() < 0.25]
            if kws:
                unit["keywords"] = kws
            if "Deathknell" in kws:
                unit["effect"] = rng.choice(TRIGGER_EFFECTS[:1] + ["score 1"] + TARGETING_TRIGGERS)
            if rng.random() < 0.3:
                unit["triggers"] = {
                    rng.choice(["attack", "defend", "conquer", "hold"]): rng.choice(
                        TRIGGER_EFFECTS + TARGETING_TRIGGERS
                    )
                }
            if rng.random() < 0.2:
                unit["ability"] = {
                    "cost": "exhaust",
                    "effect": rng.choice(["draw 1", "buff me", "deal 1 to target unit"]),
                    "keywords": rng.choice([[], ["Action"], ["Reaction"]]),
                }
            units.append(unit)
        for _ in range(rng.randint(2, 5)):
            n += 1
            name = f"C{n}"
            if rng.random() < 0.7:
                cards[name] = {
                    "type": "spell",
                    "effect": rng.choice(SPELL_EFFECTS),
                    "keywords": rng.choice(
                        [[], ["Action"], ["Reaction"], ["Action", "Hidden"], ["Reaction", "Hidden"], ["Hidden"]]
                    ),
                }
            else:
                cards[name] = {
                    "type": "unit",
                    "might": rng.randint(1, 4),
                    "keywords": rng.choice([[], ["Action"], ["Reaction"], ["Hidden"], ["Accelerate"]]),
                }
                if rng.random() < 0.3:
                    cards[name]["effect"] = rng.choice(TRIGGER_EFFECTS)
            hands[p].append(name)
    battlefields = [{"name": b, **({"controller": controllers[b]} if b in controllers else {})} for b in bfs]
    return {
        "game": "riftbound",
        "players": players,
        "victory_score": rng.choice([8, 10, 12]),
        "turn": {"player": rng.choice(players), "phase": rng.choice(["main", "main", "awaken", "beginning", "draw"])},
        "state": {
            "points": {p: rng.randint(0, 4) for p in players},
            "battlefields": battlefields,
            "units": units,
            "hand": hands,
            "deck": {p: rng.choice([1, 3, 6, 12, 20]) for p in players},
            **({"runes": {p: rng.randint(0, 3) for p in players}} if rng.random() < 0.3 else {}),
        },
        "cards": cards,
    }


def _check_state(snap: dict, players: list[str]) -> None:
    assert snap["priority"] in (None, *players)
    assert snap["focus"] in (None, *players)
    if snap["focus"] is not None:
        assert snap["state"].startswith("showdown"), snap
    if snap["state"].startswith("showdown") and not snap["winner"]:
        assert snap["focus"] is not None, snap
    assert snap["state"].endswith("closed") == bool(snap["chain"]), snap
    if snap["state"] == "showdown open" and snap["priority"] is not None:
        assert snap["priority"] == snap["focus"], snap
    if (
        snap["state"] == "neutral open"
        and snap["phase"] == "main"
        and not snap["awaiting"]
        and not snap["winner"]
        and snap["combat"] is None
    ):
        assert snap["priority"] == snap["turn_player"], snap
    if snap["winner"] or snap["awaiting"]:
        assert snap["priority"] is None


def _check_timing(sentence: str, before, scenario: dict) -> None:
    """An independent reading of the timing rules, from the card's own keywords."""
    s = before.s
    player, verb, rest = sentence.split(" ", 2) if sentence.count(" ") >= 2 else (*sentence.split(" "), "")
    if verb == "plays":
        name = rest.split(" to ")[0].split(" targeting ")[0]
        card = s.cards[name.lower()]
        hidden = card.zone == "facedown"
        raw = scenario["cards"].get(name) or next(u for u in scenario["state"]["units"] if u["name"] == name)
        kws = set(raw.get("keywords", []))
        reaction = "Reaction" in kws or hidden
        if s.chain:
            assert reaction, f"{sentence}: played in a Closed State without Reaction (309.1.a)"
        elif s.showdown:
            assert reaction or "Action" in kws, f"{sentence}: played in a Showdown without Action/Reaction (308.1.a)"
        else:
            assert player == s.turn_player and s.phase == "main", f"{sentence}: Neutral Open off-turn (310.1.a)"
    elif verb == "moves":
        assert player == s.turn_player and s.phase == "main" and not s.chain and not s.showdown, sentence  # 143.1
    elif verb == "activates":
        card = s.cards[rest.split(" targeting ")[0].split(" to ")[0].lower()]
        kws = card.defn.ability.keywords
        if s.chain:
            assert "Reaction" in kws, sentence
        elif s.showdown:
            assert kws & {"Action", "Reaction"}, sentence
        else:
            assert player == s.turn_player, sentence  # 374
    elif verb == "hides":
        assert player == s.turn_player and not s.chain, sentence  # 737.1.b
    if verb not in ("chooses", "assigns"):
        assert s.priority == player, f"{sentence}: acted without Priority (312.1)"


def _check_events(events) -> None:
    for e in events:
        assert e.rules, f"event cites no rule: {e.what}"
        for r in e.rules:
            assert r in TABLE_RULES
            if CORPUS_RULES is not None:
                assert r in CORPUS_RULES, f"{r} (cited by {e.what!r}) is not in the v1.2 text"


def play_random_game(seed: int, max_steps: int) -> int:
    rng = random.Random(seed)
    scenario = random_scenario(rng)
    game = new_game(scenario, CITATIONS)
    players = scenario["players"]
    _check_events(game.opening)
    _check_state(game.snapshot(), players)
    points = dict(game.snapshot()["points"])
    steps = 0
    for _ in range(max_steps):
        if game.s.winner:
            break
        options = game.candidates()
        assert options, f"seed {seed}: no candidate action in {game.snapshot()}"
        rng.shuffle(options)
        # Favour keeping the game moving now and then, so turns, showdowns and combats all happen.
        if rng.random() < 0.35:
            options.sort(key=lambda o: not (o.endswith("passes") or o.endswith("ends turn")))
        before = game.copy()
        for sentence in options:
            try:
                events = game.apply(sentence)
            except IllegalAction as exc:
                assert exc.rules, sentence
                assert game.s == before.s, f"seed {seed}: the illegal {sentence!r} changed the game"
                continue
            _check_timing(sentence, before, scenario)
            break
        else:
            pytest.fail(f"seed {seed}: none of {options} is legal in {game.snapshot()}")
        steps += 1
        snap = game.snapshot()
        _check_events(events)
        _check_state(snap, players)
        for p in players:
            assert snap["points"][p] >= points[p], f"seed {seed}: {p}'s points went down after {sentence}"
        points = dict(snap["points"])
    return steps


def test_random_legal_play_keeps_the_invariants():
    total = sum(play_random_game(seed, 200) for seed in range(100))
    assert total >= 3000, total
