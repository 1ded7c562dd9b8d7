"""Action sentences of ``game: mtg`` scenarios, parsed into data.

>>> parse("Ana casts Lightning Bolt targeting Ben")
Action(player='Ana', verb='cast', names=('Lightning Bolt',), targets=('Ben',), pairs=())
>>> parse("Ben blocks Hill Giant with Wall, Bears with Elf").pairs
(('Hill Giant', 'Wall'), ('Bears', 'Elf'))
>>> parse("Ana moves to combat_damage#2").names
('combat_damage#2',)
>>> parse("Ana declares no attackers").verb
'attack'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import ScenarioError


@dataclass(frozen=True)
class Action:
    player: str
    verb: str                       # cast, play, activate, attack, block, pass, move
    names: tuple[str, ...] = ()     # the card/object(s), attackers, or the phase
    targets: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()  # blocks: (attacker, blocker)


def _split(text: str) -> tuple[str, ...]:
    parts = [p.strip() for p in re.split(r",\s*|\s+and\s+", text) if p.strip()]
    return tuple(parts)


_PATTERNS = [
    (re.compile(r"^(\S+) casts (.+?)(?: targeting (.+))?$", re.I), "cast"),
    (re.compile(r"^(\S+) plays (.+)$", re.I), "play"),
    (re.compile(r"^(\S+) activates (.+?)(?: targeting (.+))?$", re.I), "activate"),
    (re.compile(r"^(\S+) declares no attackers$", re.I), "no_attack"),
    (re.compile(r"^(\S+) declares no blockers$", re.I), "no_block"),
    (re.compile(r"^(\S+) attacks with (.+)$", re.I), "attack"),
    (re.compile(r"^(\S+) blocks (.+)$", re.I), "block"),
    (re.compile(r"^(\S+) passes(?: priority)?$", re.I), "pass"),
    (re.compile(r"^(\S+) moves to (\S+)$", re.I), "move"),
]

SENTENCES = (
    "P casts CARD [targeting X[, Y]]", "P plays LAND", "P activates OBJECT [targeting X]",
    "P attacks with C[, C2]", "P blocks C with D[, C2 with D2]", "P declares no attackers",
    "P declares no blockers", "P passes", "P moves to PHASE",
)


def parse(sentence: str) -> Action:
    """Raises :class:`ScenarioError` (empty path: the caller knows which action) when not understood."""
    text = " ".join(str(sentence).split()).rstrip(".")
    for pattern, verb in _PATTERNS:
        m = pattern.match(text)
        if not m:
            continue
        player = m.group(1)
        if verb in ("cast", "activate"):
            return Action(player, verb, (m.group(2).strip(),), _split(m.group(3) or ""))
        if verb == "play":
            return Action(player, verb, (m.group(2).strip(),))
        if verb == "attack":
            return Action(player, "attack", _split(m.group(2)))
        if verb == "no_attack":
            return Action(player, "attack")
        if verb == "no_block":
            return Action(player, "block")
        if verb == "block":
            pairs = []
            for part in re.split(r",\s*(?=.+\swith\s)", m.group(2)):
                attacker, sep, blocker = part.partition(" with ")
                if not sep or not attacker.strip() or not blocker.strip():
                    raise ScenarioError((), f"cannot read block {part!r}: write 'P blocks ATTACKER with BLOCKER[, ATTACKER2 with BLOCKER2]'")
                pairs.append((attacker.strip(), blocker.strip()))
            return Action(player, "block", pairs=tuple(pairs))
        if verb == "pass":
            return Action(player, "pass")
        if verb == "move":
            return Action(player, "move", (m.group(2).strip().lower(),))
    raise ScenarioError((), f"cannot read action {text!r}; mtg actions: {'; '.join(SENTENCES)}")
