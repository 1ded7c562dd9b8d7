"""Action sentences of ``game: mtg`` scenarios, parsed into data.

>>> parse("Ana casts Lightning Bolt targeting Ben")
Action(player='Ana', verb='cast', names=('Lightning Bolt',), targets=('Ben',), pairs=(), x=None, mode=None, amounts=(), pays=True)
>>> parse("Ben blocks Hill Giant with Wall, Bears with Elf").pairs
(('Hill Giant', 'Wall'), ('Bears', 'Elf'))
>>> parse("Ben blocks Craw Wurm with Bears and Wall, Giant with Elf").pairs
(('Craw Wurm', 'Bears'), ('Craw Wurm', 'Wall'), ('Giant', 'Elf'))
>>> parse("Ana moves to combat_damage#2").names
('combat_damage#2',)
>>> parse("Ana declares no attackers").verb
'attack'
>>> a = parse('Ana casts Fireball with X=3 targeting Ben')
>>> a.names, a.x, a.targets
(('Fireball',), 3, ('Ben',))
>>> parse('Ana casts Charm choosing "draw a card"').mode
'draw a card'
>>> parse("Ana assigns damage: Elves 1, Ben 5").amounts
(('Elves', 1), ('Ben', 5))
>>> parse("Ben orders triggers: A, B").names
('A', 'B')
>>> a = parse("Ana puts Affa Guard Hound trigger on the stack targeting Bear")
>>> a.verb, a.names, a.targets
('aim', ('Affa Guard Hound trigger',), ('Bear',))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import ScenarioError


@dataclass(frozen=True)
class Action:
    player: str
    verb: str  # cast, play, activate, attack, block, pass, move, assign, order, aim, choose, pay, scry
    names: tuple[str, ...] = ()  # the card/object(s), attackers, the phase, or the triggers in order
    targets: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()  # blocks: (attacker, blocker)
    x: int | None = None  # casts ... with X=N
    mode: str | None = None  # casts ... choosing "MODE"; chooses MODE
    amounts: tuple[tuple[str, int], ...] = ()  # assigns damage: (recipient, amount)
    pays: bool = True  # pays / does not pay


def _split(text: str) -> tuple[str, ...]:
    parts = [p.strip() for p in re.split(r",\s*|\s+and\s+", text) if p.strip()]
    return tuple(parts)


_PATTERNS = [
    (
        re.compile(
            r"^(\S+) casts (.+?)(?: with x ?= ?(\S+))?(?: choosing (\"[^\"]*\"|.+?))?(?: targeting (.+))?$", re.I
        ),
        "cast",
    ),
    (re.compile(r"^(\S+) chooses (\"[^\"]*\"|.+?)(?: targeting (.+))?$", re.I), "choose"),
    (re.compile(r"^(\S+) assigns damage(?: from (.+?))?\s*:\s*(.*)$", re.I), "assign"),
    (re.compile(r"^(\S+) orders triggers\s*:\s*(.*)$", re.I), "order"),
    (re.compile(r"^(\S+) puts (.+?) on the stack(?: choosing (\"[^\"]*\"|.+?))?(?: targeting (.+))?$", re.I), "aim"),
    (re.compile(r"^(\S+) scries\s*:\s*(.*)$", re.I), "scry"),
    (re.compile(r"^(\S+) discards (.+)$", re.I), "discard"),
    (re.compile(r"^(\S+) takes (.+)$", re.I), "take"),
    (re.compile(r"^(\S+) pays(?: (\{[^}]*\}|\d+))?$", re.I), "pay"),
    (re.compile(r"^(\S+) (?:does not pay|declines to pay|doesn't pay)$", re.I), "no_pay"),
    (re.compile(r"^(\S+) plays (.+?)(?: paying (\d{1,3}) life)?$", re.I), "play"),
    (re.compile(r"^(\S+) activates (.+?)(?: targeting (.+))?$", re.I), "activate"),
    (re.compile(r"^(\S+) crews (.+?) with (.+)$", re.I), "crew"),
    (re.compile(r"^(\S+) declares no attackers$", re.I), "no_attack"),
    (re.compile(r"^(\S+) declares no blockers$", re.I), "no_block"),
    (re.compile(r"^(\S+) attacks with (.+?)(?:,? exerting (.+))?$", re.I), "attack"),
    (re.compile(r"^(\S+) blocks (.+)$", re.I), "block"),
    (re.compile(r"^(\S+) passes(?: priority)?$", re.I), "pass"),
    (re.compile(r"^(\S+) (?:declines|does not cast it|doesn't cast it)$", re.I), "decline"),
    (re.compile(r"^(\S+) sacrifices (.+)$", re.I), "sacrifice"),
    (re.compile(r"^(\S+) pairs (.+?) with (.+)$", re.I), "pair"),
    (re.compile(r"^(\S+) accepts$", re.I), "accept"),
    (re.compile(r"^(\S+) moves to (\S+)$", re.I), "move"),
]

SENTENCES = (
    'P casts CARD [with X=N] [choosing "MODE"] [targeting X[, Y]]',
    "P casts CARD kicked | bestowed | dashed | overloaded | surged | unleashed [targeting X] (a keyword its caster "
    "chooses to use)",
    "P chooses MODE [targeting X]",
    "P plays LAND [paying N life]",
    "P activates OBJECT [targeting X]",
    "P crews VEHICLE with C[, C2] (tapping them: Crew N)",
    "P attacks with C[, C2][ exerting C] (exert: an optional cost to attack, 701.43d)",
    "P blocks C with D[ and D2][, C2 with D3]",
    "P declares no attackers",
    "P declares no blockers",
    "P assigns damage: X 2, Y 1",
    "P orders triggers: A, B",
    'P puts TRIGGER on the stack [choosing "MODE"] targeting X[, Y]',
    "P scries: top CARD[, CARD2]; bottom CARD3 (each card looked at, by name or as card N from the top)",
    "P discards CARD[, CARD2]",
    "P takes CARD | nothing[; bottom CARD2, CARD3] (from the cards looked at)",
    "P pays {N}",
    "P does not pay",
    "P passes",
    "P declines (not casting the card a resolving ability offers: rebound)",
    "P sacrifices NAME (the creature an exploit ability sacrifices as it resolves)",
    "P pairs A with B (the creatures a soulbond ability pairs as it resolves)",
    "P chooses counters | servos (as a fabricate ability resolves)",
    "P accepts | P declines (what a resolving 'you may' offers)",
    "P moves to PHASE",
)


_BLOCK_FORM = "P blocks ATTACKER with BLOCKER[ and BLOCKER2][, ATTACKER2 with BLOCKER3]"


def _unquote(text: str) -> str:
    return text.strip().strip('"').strip("\u201c\u201d").strip()


def _amounts(text: str) -> tuple[tuple[str, int], ...]:
    out = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        m = re.match(r"^(.+?)\s+(\d{1,4})$", part)
        if not m:
            raise ScenarioError(
                (),
                f"cannot read damage assignment {part!r}: write 'P assigns damage: Elves 1, Ben 5' "
                "(a creature or player, then an amount)",
            )
        out.append((m.group(1).strip(), int(m.group(2))))
    if not out:
        raise ScenarioError((), "an assignment names where the damage goes: 'P assigns damage: Elves 1, Ben 5'")
    return tuple(out)


def _blocks(text: str) -> tuple[tuple[str, str], ...]:
    """``Wurm with Bears and Wall, Giant with Elf`` -> (attacker, blocker) pairs, one per blocker: a name
    after ``with`` joined by "and" or a comma is one more blocker of the same attacker; a piece read before
    the first ``with`` is part of the attacker's name (``Hit and Run with Bears``). A blocker's name with a
    comma or "and" in it is split here and joined again where the whole is on the battlefield
    (:func:`engine.mtg.legality.block`)."""
    pairs: list[tuple[str, str]] = []
    prefix = ""
    parts = re.split(r"(,\s*(?:and\s+)?|\s+and\s+)", text) + [""]  # piece, separator, ..., piece, ""
    for piece, sep in zip(parts[::2], parts[1::2], strict=True):
        attacker, with_, blocker = piece.partition(" with ")
        if with_:
            attacker, blocker = (prefix + attacker).strip(), blocker.strip()
            prefix = ""
            if not attacker or not blocker:
                raise ScenarioError((), f"cannot read block {piece!r}: write '{_BLOCK_FORM}'")
            pairs.append((attacker, blocker))
        elif pairs and piece.strip():
            pairs.append((pairs[-1][0], piece.strip()))  # one more creature blocking the same attacker
        else:
            prefix += piece + sep
    if prefix.strip() or not pairs:
        raise ScenarioError((), f"cannot read block {text!r}: write '{_BLOCK_FORM}'")
    return tuple(pairs)


_SCRY_FORM = "P scries: top CARD[, CARD2]; bottom CARD3"


def _scry(player: str, text: str) -> Action:
    """``top A, B; bottom C``: the cards kept on top (the first named on top) and those put on the bottom
    (the last named lowest), as names of the cards looked at; names: the top, targets: the bottom."""
    top: list[str] = []
    bottom: list[str] = []
    for part in [p.strip() for p in text.split(";") if p.strip()]:
        where, _, names = part.partition(" ")
        where = where.lower()
        if where not in ("top", "bottom") or not names.strip():
            raise ScenarioError((), f"cannot read {part!r}: write '{_SCRY_FORM}' (either part may be left out)")
        (top if where == "top" else bottom).extend(n.strip() for n in names.split(",") if n.strip())
    if not top and not bottom:
        raise ScenarioError((), f"say where the cards go: '{_SCRY_FORM}'")
    return Action(player, "scry", tuple(top), tuple(bottom))


def parse(sentence: str) -> Action:
    """Raises :class:`ScenarioError` (empty path: the caller knows which action) when not understood."""
    text = " ".join(str(sentence).split()).rstrip(".")
    for pattern, verb in _PATTERNS:
        m = pattern.match(text)
        if not m:
            continue
        player = m.group(1)
        if verb == "cast":
            x = None
            if m.group(3) is not None:
                if not m.group(3).isdigit() or len(m.group(3)) > 4:
                    raise ScenarioError((), f"X is a whole number: 'P casts CARD with X=3', not X={m.group(3)}")
                x = int(m.group(3))
            mode = _unquote(m.group(4)) if m.group(4) is not None else None
            return Action(player, verb, (m.group(2).strip(),), _split(m.group(5) or ""), x=x, mode=mode)
        if verb == "choose":
            return Action(player, "choose", (), _split(m.group(3) or ""), mode=_unquote(m.group(2)))
        if verb == "assign":
            return Action(player, "assign", (m.group(2).strip(),) if m.group(2) else (), amounts=_amounts(m.group(3)))
        if verb == "order":
            names = tuple(n.strip() for n in m.group(2).split(",") if n.strip())
            if not names:
                raise ScenarioError(
                    (), "name the triggers in the order they go on the stack: 'P orders triggers: A, B'"
                )
            return Action(player, "order", names)
        if verb == "scry":
            return _scry(player, m.group(2))
        if verb == "take":  # "A, B; bottom C, D" or "nothing; bottom C"
            part, _, rest = m.group(2).partition(";")
            taken = () if part.strip().lower() == "nothing" else tuple(n.strip() for n in part.split(",") if n.strip())
            where, _, listed = rest.strip().partition(" ")
            if rest.strip() and where.lower() not in ("bottom", "top"):
                raise ScenarioError((), "write 'P takes CARD; bottom CARD2, CARD3' or 'P takes nothing'")
            return Action(player, verb, taken, tuple(n.strip() for n in listed.split(",") if n.strip()))
        if verb == "discard":  # the cards chosen, comma-separated (a name may hold "and")
            return Action(player, verb, tuple(n.strip() for n in m.group(2).split(",") if n.strip()))
        if verb in ("pay", "no_pay"):
            said = m.group(2).strip("{}") if verb == "pay" and m.group(2) else ""
            if said and not said.isdigit():
                raise ScenarioError((), f"cannot read the payment {m.group(2)!r}: write 'P pays {{3}}'")
            return Action(player, "pay", pays=verb == "pay", x=int(said) if said else None)
        if verb == "aim":  # a modal triggered ability's mode is chosen as it is put on the stack (700.2b)
            mode = _unquote(m.group(3)) if m.group(3) is not None else None
            return Action(player, verb, (m.group(2).strip(),), _split(m.group(4) or ""), mode=mode)
        if verb == "activate":
            return Action(player, verb, (m.group(2).strip(),), _split(m.group(3) or ""))
        if verb == "crew":  # the creatures tapped to pay the cost are given as its targets are
            return Action(player, verb, (m.group(2).strip(),), _split(m.group(3)))
        if verb == "play":  # "paying N life": a land that asks it as it enters (a shockland)
            return Action(player, verb, (m.group(2).strip(),), x=int(m.group(3)) if m.group(3) else None)
        if verb == "attack":
            return Action(player, "attack", _split(m.group(2)), _split(m.group(3) or ""))  # targets: exerted
        if verb == "no_attack":
            return Action(player, "attack")
        if verb == "no_block":
            return Action(player, "block")
        if verb == "block":
            return Action(player, "block", pairs=_blocks(m.group(2)))
        if verb == "pass":
            return Action(player, "pass")
        if verb == "decline":
            return Action(player, "decline")
        if verb == "sacrifice":
            return Action(player, "sacrifice", (m.group(2).strip(),))
        if verb == "pair":
            return Action(player, "pair", (m.group(2).strip(), m.group(3).strip()))
        if verb == "accept":
            return Action(player, "accept")
        if verb == "move":
            return Action(player, "move", (m.group(2).strip().lower(),))
    raise ScenarioError((), f"cannot read action {text!r}; mtg actions: {'; '.join(SENTENCES)}")
