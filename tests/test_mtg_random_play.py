"""Random legal play of the Magic engine, thousands of steps in all, with the invariants checked after
every step (the Magic twin of the Riftbound random-play property test).

Each step proposes actions of every kind in random order and keeps the first the engine accepts; an
illegal one must leave the game exactly as it was (the engine checks an action before it changes
anything, so ``judge explain`` goes on from the same game without copying it).
"""

from __future__ import annotations

import random
import re

import pytest

from engine.core import IllegalAction, ScenarioError
from engine.mtg import PHASES, new_game
from scenarios.citations import load_citations
from tests.conftest import CORPORA

NEW, OLD = "2026-02-27", "2008-10-01"
CARDS = {
    "Shock": {"type": "instant", "cost": "R", "effect": "deal 2 damage to any target"},
    "Giant Growth": {"type": "instant", "cost": "G", "effect": "give target creature +3/+3 until end of turn"},
    "Counterspell": {"type": "instant", "cost": "UU", "effect": "counter target spell"},
    "Divination": {"type": "sorcery", "cost": "1U", "effect": "draw 2"},
    "Lava Axe": {"type": "sorcery", "cost": "R", "effect": "target player loses 5 life"},
    "Grizzly Bears": {"type": "creature", "cost": "1G", "power": 2, "toughness": 2},
    "Raging Goblin": {"type": "creature", "cost": "R", "power": 1, "toughness": 1, "keywords": ["Haste"]},
    "White Knight": {"type": "creature", "cost": "W", "power": 2, "toughness": 2, "keywords": ["First strike"]},
    "Fencer": {"type": "creature", "cost": "1W", "power": 1, "toughness": 2, "keywords": ["Double strike"]},
    "Wall": {"type": "creature", "cost": "W", "power": 0, "toughness": 4, "keywords": ["Defender"]},
    "Serra Angel": {"type": "creature", "cost": "W", "power": 4, "toughness": 4, "keywords": ["Vigilance"]},
    "Craw Wurm": {"type": "creature", "cost": "G", "power": 6, "toughness": 4, "keywords": ["Trample"]},
    "Ambush Viper": {"type": "creature", "cost": "G", "power": 2, "toughness": 1, "keywords": ["Flash"]},
    "Isamaru": {"type": "legendary creature", "cost": "W", "power": 2, "toughness": 2},
    "Pinger": {
        "type": "creature",
        "cost": "R",
        "power": 1,
        "toughness": 1,
        "ability": {"cost": "{T}", "effect": "deal 1 damage to any target"},
    },
    "Shrine": {
        "type": "enchantment",
        "cost": "W",
        "triggers": [{"when": "upkeep", "effect": "gain 1 life"}, {"when": "each end", "effect": "lose 1 life"}],
    },
    "Visionary": {
        "type": "creature",
        "cost": "G",
        "power": 1,
        "toughness": 1,
        "triggers": [{"when": "enters", "effect": "draw 1"}],
    },
    # issue 14: keywords, Auras, Equipment, tokens, counters, modes, X, prevention, replacement, "unless"
    "Typhoid Rats": {"type": "creature", "cost": "B", "power": 1, "toughness": 1, "keywords": ["Deathtouch"]},
    "Vampire": {"type": "creature", "cost": "B", "power": 2, "toughness": 2, "keywords": ["Lifelink", "Flying"]},
    "Giant Spider": {"type": "creature", "cost": "G", "power": 2, "toughness": 4, "keywords": ["Reach"]},
    "Sunblade Guardian": {
        "type": "creature",
        "cost": "W",
        "power": 2,
        "toughness": 2,
        "keywords": ["Protection from red"],
    },
    "Kitchen Finks": {"type": "creature", "cost": "G", "power": 3, "toughness": 2, "keywords": ["Persist"]},
    "Pacifism": {
        "type": "enchantment — aura",
        "cost": "W",
        "keywords": ["Enchant creature"],
        "effect": "Enchanted creature can't attack or block.",
    },
    "Bonesplitter": {
        "type": "artifact — equipment",
        "cost": "1",
        "keywords": ["Equip {1}"],
        "effect": "Equipped creature gets +2/+0.",
    },
    "Raise the Alarm": {"type": "instant", "cost": "W", "effect": "Create two 1/1 white Soldier creature tokens."},
    "Battlegrowth": {"type": "instant", "cost": "G", "effect": "put a +1/+1 counter on target creature"},
    "Wither Touch": {"type": "instant", "cost": "B", "effect": "put two -1/-1 counters on target creature"},
    "Fire Charm": {
        "type": "instant",
        "cost": "R",
        "effect": "Choose one — • Fire Charm deals 2 damage to target creature. • Draw a card.",
    },
    "Blaze": {"type": "sorcery", "cost": "{X}{R}", "effect": "Blaze deals X damage to target creature or player"},
    "Mana Leak": {"type": "instant", "cost": "U", "effect": "Counter target spell unless its controller pays {2}"},
    "Healing Salve": {
        "type": "instant",
        "cost": "W",
        "effect": "Prevent the next 3 damage that would be dealt to target creature or player this turn",
    },
    "Fog": {"type": "instant", "cost": "G", "effect": "Prevent all combat damage that would be dealt this turn."},
    "Dread Sanctum": {
        "type": "enchantment",
        "cost": "B",
        "effect": "If a creature an opponent controls would die, exile it instead.",
    },
    "Elvish Seer": {
        "type": "creature",
        "cost": "G",
        "power": 1,
        "toughness": 1,
        "effect": "When Elvish Seer enters, draw a card.",
    },
    "Gods Willing": {
        "type": "instant",
        "cost": "W",
        "effect": "target creature gains protection from red until end of turn",
    },
    "Poison Dart": {"type": "sorcery", "cost": "B", "effect": "target player gets two poison counters"},
}
LANDS = ["Mountain", "Forest", "Island", "Plains"]
# Keywords the 2008 rules lack: these cards are in the 2026 games only.
CARDS_2026 = {
    "Goblin Heelcutter": {"type": "creature", "cost": "R", "power": 3, "toughness": 2, "keywords": ["Menace"]},
    "Gladecover Scout": {"type": "creature", "cost": "G", "power": 1, "toughness": 1, "keywords": ["Hexproof"]},
    "Darksteel Myr": {
        "type": "artifact creature",
        "cost": "1",
        "power": 0,
        "toughness": 1,
        "keywords": ["Indestructible"],
    },
    "Young Wolf": {"type": "creature", "cost": "G", "power": 1, "toughness": 1, "keywords": ["Undying"]},
    "Spectral Adversary": {
        "type": "creature",
        "cost": "U",
        "power": 2,
        "toughness": 1,
        "keywords": ["Flying", "Ward 1"],
    },
}
SORCERY_SPEED = {
    n for n, c in {**CARDS, **CARDS_2026}.items() if c["type"] != "instant" and "Flash" not in c.get("keywords", [])
}


def scenario(rng: random.Random, edition: str = NEW) -> dict:
    cards = {**CARDS, **(CARDS_2026 if edition == NEW else {})}
    deck = list(cards) + LANDS * 2
    perms = [{"name": rng.choice(LANDS), "controller": p} for p in ("Ana", "Ben") for _ in range(rng.randint(1, 4))]
    creatures = [n for n, c in cards.items() if "creature" in c["type"]]
    perms += [
        {"name": name, "controller": p} for p in ("Ana", "Ben") for name in rng.sample(creatures, rng.randint(0, 3))
    ]
    return {
        "players": ["Ana", "Ben"],
        "turn": {
            "player": rng.choice(["Ana", "Ben"]),
            "phase": rng.choice(["untap", "upkeep", "main1", "end"]),
            "number": rng.choice([1, 3]),
        },
        **({"costs": "ignore"} if rng.random() < 0.5 else {}),
        "state": {
            "life": {"Ana": rng.randint(3, 20), "Ben": rng.randint(3, 20)},
            "permanents": perms,
            "hand": {p: rng.sample(deck, 5) for p in ("Ana", "Ben")},
            "library": {p: rng.sample(deck, rng.randint(3, 12)) for p in ("Ana", "Ben")},
        },
        "cards": cards,
    }


def proposals(g, rng: random.Random) -> list[str]:
    snap = g.snapshot()
    names = [p.name for p in g.s.battlefield] + g.s.players + [s.name for s in g.s.stack]
    if g.s.pending == "attackers":
        mine = [p.name for p in g.s.battlefield if p.controller == g.s.turn_player and p.is_a("creature")]
        chosen = rng.sample(mine, rng.randint(0, len(mine))) if mine else []
        return ([f"{g.s.turn_player} attacks with {', '.join(chosen)}"] if chosen else []) + [
            f"{g.s.turn_player} declares no attackers"
        ]
    if g.s.pending == "blockers":
        attackers = [p.name for p in g.s.battlefield if p.attacking]
        mine = [p.name for p in g.s.battlefield if p.controller == g.s.defending and p.is_a("creature")]
        pairs = [f"{rng.choice(attackers)} with {b}" for b in rng.sample(mine, rng.randint(0, len(mine)))]
        return ([f"{g.s.defending} blocks {', '.join(pairs)}"] if pairs else []) + [
            f"{g.s.defending} declares no blockers"
        ]
    if g.s.pending in ("damage", "triggers", "mode", "pay"):
        options = g.candidates()  # they include a way on: a move, the default order, not paying
        return rng.sample(options, len(options))
    who = snap["priority"]
    if who == "none":
        return []
    out = []
    for card in g.s.hand[who]:
        target = rng.choice(names)
        out += [
            f"{who} casts {card.name} targeting {target}",
            f"{who} casts {card.name}",
            f"{who} plays {card.name}",
            f"{who} casts {card.name} with X={rng.randint(0, 3)} targeting {target}",
        ]
    for perm in g.s.battlefield:
        if perm.controller == who:
            out.append(f"{who} activates {perm.name} targeting {rng.choice(names)}")
            out.append(f"{who} activates {perm.name}")
    rng.shuffle(out)
    passes = [f"{who} passes"] * 3 + [f"{who} moves to {rng.choice(PHASES)}"]
    rng.shuffle(passes)
    return out[:4] + passes if rng.random() < 0.5 else passes + out


def check_step(g, before, action: str, events, cited_exists) -> None:
    snap, old = g.snapshot(), before.snapshot()
    players = set(g.s.players)
    assert snap["priority"] in players | {"none"}
    if snap["phase"] == "untap":
        assert snap["priority"] == "none"
    if snap["phase"] == "cleanup" and snap["priority"] != "none":
        assert any(("turn.cleanup_priority" in e.keys) for e in events)
    assert all(n <= 1 for n in snap["lands_played"].values())
    # The stack: removed objects leave from the top (LIFO) unless countered; new ones are casts,
    # activations, triggers or combat damage.
    common = 0
    while common < min(len(old["stack"]), len(snap["stack"])) and old["stack"][common] == snap["stack"][common]:
        common += 1
    removed, added = old["stack"][common:], snap["stack"][common:]
    if removed:
        top_went = old["stack"][-1] in removed or any("effect.counter" in e.keys for e in events)
        assert top_went
        if len(removed) > 1 and not any("effect.counter" in e.keys for e in events):
            # a resolution followed by passes resolving more: each left from the top in turn
            assert sum(1 for e in events if "resolve.spell" in e.keys) >= len(removed) - len(
                [e for e in events if "effect.counter" in e.keys]
            )
    kinds = {"cast.announce", "activate.on_stack", "trigger.to_stack", "combat.damage_on_stack"}
    if added:
        assert any(kinds & set(e.keys) for e in events)
    # Sorcery-speed casts: by the active player, in a main phase, with an empty stack.
    m = re.match(r"^(\w+) (?:casts|plays) (.+?)(?: targeting .*)?$", action)
    if m and m.group(2) in SORCERY_SPEED and any("cast.announce" in e.keys for e in events):
        assert m.group(1) == before.s.turn_player and before.s.step in ("main1", "main2") and not before.s.stack
    if snap["life"] != old["life"]:
        assert any({"damage.player", "life.change", "mana.burn"} & set(e.keys) for e in events)
    # Decisions the rules wait for: nobody has priority meanwhile, and someone is named to decide.
    if snap.get("pending") in ("damage", "triggers", "mode", "pay"):
        assert snap["priority"] == "none" and snap.get("awaiting"), snap
    # Counters annihilate in pairs before anyone receives priority (704.5q).
    if snap["priority"] != "none":
        for counters in snap.get("counters", {}).values():
            assert not (counters.get("+1/+1") and counters.get("-1/-1")), counters
    # A token off the battlefield ceases to exist by the time a player has priority (704.5d).
    if snap["priority"] != "none":
        assert not any(
            c.token for zone in (g.s.graveyard, g.s.hand, g.s.exile) for cards in zone.values() for c in cards
        )
    for e in events:
        assert e.rules, e
        for r in e.rules:
            assert cited_exists(r), (r, e)
    assert snap["winner"] in players | {None, "draw"}


def rule_numbers(edition: str):
    name = {NEW: "MagicCompRules-2026-02-27.txt", OLD: "MagicCompRules-2008-10-01.txt"}[edition]
    path = CORPORA / "mtg" / name
    if not path.exists():
        return lambda r: True  # the corpus is absent: only the presence of citations is checked
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig") if raw.startswith(b"\xef\xbb\xbf") else raw.decode("cp1252")
    numbers = set(re.findall(r"^(\d{3}(?:\.\d+[a-z]?)?)\.?\s", text.replace("\r", "\n"), re.M))
    return numbers.__contains__


def play_random(edition: str, steps_wanted: int, seed: str | None = None) -> dict[str, int]:
    """Random games under ``edition`` until ``steps_wanted`` legal steps were taken, the invariants checked
    after each; returns how many steps of each verb were taken. Used by the test below (a short run) and
    by ``bench/engine_speed.py --random`` (a long one)."""
    cite = load_citations("mtg", edition)
    exists = rule_numbers(edition)
    rng = random.Random(seed or f"mtg-{edition}")
    steps = 0
    kinds: dict[str, int] = {}
    while steps < steps_wanted:
        g = new_game(scenario(rng, edition), cite)
        for _ in range(150):
            if g.s.over:
                break
            applied = False
            before = g.copy()
            for action in proposals(g, rng):
                try:
                    events = g.apply(action)
                except IllegalAction as exc:
                    assert exc.rules
                    assert g.s == before.s, f"the illegal {action!r} changed the game"
                    continue
                except ScenarioError:  # a proposal that misnames something (a target for a card without one)
                    assert g.s == before.s, f"{action!r}, which names what is not there, changed the game"
                    continue
                check_step(g, before, action, events, exists)
                kinds[action.split()[1]] = kinds.get(action.split()[1], 0) + 1
                applied = True
                steps += 1
                break
            assert applied, (g.snapshot(), "no legal action: passing must always be possible")
    return kinds


@pytest.mark.parametrize("edition", [NEW, OLD])
def test_random_legal_play_keeps_the_invariants(edition):
    kinds = play_random(edition, 1200)
    assert {"casts", "plays", "attacks", "blocks", "passes", "moves"} <= set(kinds)
    assert {"assigns", "chooses", "pays"} & set(kinds), kinds  # the new decisions are reached too
