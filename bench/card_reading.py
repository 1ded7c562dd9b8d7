"""How much of the real cards the engines read (issue 23): the share of cards read whole, per set and
per card type, the commonest phrases left unread, and a smoke run that plays each card read.

    python bench/card_reading.py --corpora ../shared/corpora [--game riftbound|mtg] [--smoke]
        [--sets OGN,SFD] [--json] [--top 30] [--edition 2026-02-27]

A card is *read whole* when a scenario holding it (in a hand, or a battlefield under ``state:
battlefields``, or a rune in ``state: runes``, the library's card as contract version 3 takes it)
builds: the engine refused no field and no sentence of its text. Magic cards are read under the newest
edition's rules (``--edition``). A card of several faces and a card whose stats vary (``*``) count
as unread, with the reason. With ``--smoke`` each card read
is also played: a scenario with the card in its controller's hand, a creature or unit of hers and two
of her opponent's as targets and costs not checked (``costs: ignore``), the first legal action that plays it carried out,
then passes until the stack or chain is empty (at most 12 actions); any exception but an illegal
action is a failure, with its message.

Magic: the MTGJSON v3 sets of ``cards/mtg/mtgjson-v3/`` less the Un-sets (``UN_SETS``), and less the
card types the issue leaves out (planes, phenomena, schemes, conspiracies, vanguards). Riftbound: the
card gallery ``cards/riftbound/cards.json`` with the errata.

The blind part (tuning never looks at it; measure it once, after a change): Riftbound's newest set,
Spiritforged (SFD), and the two newest Magic sets by release date (M19, GRN): a card printed only in
them is left out unless ``--blind``, which measures them alone.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.core import IllegalAction  # noqa: E402
from rulebook.cards.load import load  # noqa: E402
from rulebook.cards.scenario import CardLibrary  # noqa: E402
from rulebook.cards.store import CardStore, card_db_path  # noqa: E402
from scenarios.explain import new_engine  # noqa: E402
from scenarios.reading import engine_reading, holding, newest_edition  # noqa: E402
from scenarios.scenario import ScenarioFileError, read_scenario  # noqa: E402

UN_SETS = {"UGL", "UNH", "UST", "UND", "UNF", "UNK"}
LEFT_OUT_TYPES = {"Plane", "Phenomenon", "Scheme", "Conspiracy", "Vanguard"}
BLIND = {"riftbound": ("SFD",), "mtg": ()}  # the Magic blind sets are the two newest loaded (see blind_sets)


def blind_sets(game: str, sets_by_date: list[str]) -> tuple[str, ...]:
    return BLIND[game] if game == "riftbound" else tuple(sets_by_date[-2:])


def files(corpora: Path, game: str) -> list[Path]:
    if game == "riftbound":
        return [corpora / "cards" / "riftbound" / "cards.json", corpora / "riftbound" / "errata.json"]
    return sorted(p for p in (corpora / "cards" / "mtg" / "mtgjson-v3").glob("*.json") if p.stem not in UN_SETS)


def set_dates(corpora: Path) -> list[str]:
    """The MTGJSON v3 sets, oldest first (their releaseDate)."""
    dated = []
    for path in files(corpora, "mtg"):
        with path.open(encoding="utf-8") as f:
            head = f.read(4000)
        m = re.search(r'"releaseDate"\s*:\s*"([^"]+)"', head)
        dated.append((m[1] if m else "9999", path.stem))
    return [code for _, code in sorted(dated)]


def read_whole(card, library, edition: str) -> str | None:
    """None when the engine reads the card whole, else the refusal's message (scenarios.reading)."""
    try:
        reading = engine_reading(card, library, edition or None)
    except Exception as exc:  # an engine fault, not a refusal: counted unread, named
        return f"ENGINE FAULT {type(exc).__name__}: {exc}"
    return reading.refused


def smoke(card, library, edition: str = "") -> str | None:
    """None when the card is played and its chain or stack resolves without an engine error."""
    game, name = card.game, card.name
    try:
        scenario = read_scenario(holding(card, edition=edition or None, smoke=True), name, library)
        engine, _ = new_engine(scenario)
    except ScenarioFileError as exc:
        return f"setup: {exc.message}"
    verb = "casts" if game == "mtg" else "plays"
    try:
        heads = [f"Ana {verb} {n}" for n in (name, *(f.name for f in card.faces if card.layout != "transform"))]
        plays = [a for a in engine.legal_actions() if a.startswith(tuple(heads))]  # a split card: a half's name
        if not plays:
            return None  # nothing to play here (a land drop used, a card needing what the board lacks)
        engine.apply(plays[0])
        for _ in range(12):
            legal = engine.legal_actions()
            passes = [a for a in legal if a.endswith(" passes")]
            if not passes:
                break
            engine.apply(passes[0])
    except IllegalAction:
        return None
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


_QUOTED = re.compile(r'cannot read "([^"]+)"|unknown [a-z ]+ "([^"]+)"')


def phrase(message: str, name: str) -> str:
    """The unread phrase of a refusal, the card's name and numbers generalised: what a grammar lacks."""
    m = _QUOTED.search(message)
    text = next((g for g in m.groups() if g), message) if m else message
    text = text.replace(name, "~")
    text = re.sub(r"\b\d+\b", "N", text)
    return text[:110]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    ap.add_argument("--game", choices=("riftbound", "mtg"), action="append")
    ap.add_argument("--sets", help="only these set codes (comma-separated)")
    ap.add_argument("--smoke", action="store_true", help="also play each card read")
    ap.add_argument("--top", type=int, default=25, help="unread phrases listed")
    ap.add_argument("--blind", action="store_true", help="measure the blind sets (once, after a change)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--edition",
        default=newest_edition("mtg") or "",
        help="Magic: explain each card under these rules (edition: of the scenario); default: the newest "
        "edition a citation table is written for, the rules a judge holds ('' : the default book's, the seed's "
        "2008 rules in a fresh library, which refuse later keywords)",
    )
    args = ap.parse_args(argv)
    if not args.corpora.is_dir():
        print(f"no corpora at {args.corpora}: real card files live in ../shared/corpora", file=sys.stderr)
        return 2
    games = args.game or ["riftbound", "mtg"]
    wanted = set(args.sets.split(",")) if args.sets else None
    report = {}
    with tempfile.TemporaryDirectory() as home:
        store = CardStore(card_db_path(Path(home)))
        for game in games:
            started = time.perf_counter()
            load(store, files(args.corpora, game))
            library = CardLibrary(Path(home))
            blind = blind_sets(game, set_dates(args.corpora) if game == "mtg" else [])
            per_set: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
            per_type: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
            phrases: collections.Counter[str] = collections.Counter()
            examples: dict[str, str] = {}
            faults: list[str] = []
            total = [0, 0, 0]
            for _, name in sorted(store.names(game)):
                card = library.card(game, name)
                if card is None:
                    continue
                if game == "mtg" and set(card.types) & LEFT_OUT_TYPES:
                    continue
                sets = [s for s in card.sets if s not in UN_SETS]
                if not sets:
                    continue
                if (set(sets) & set(blind)) and not args.blind and set(sets) <= set(blind):
                    continue  # only in a blind set: never looked at while tuning
                if args.blind and not set(sets) <= set(blind):  # only cards no tuning run saw
                    continue
                if wanted and not set(sets) & wanted:
                    continue
                edition = args.edition if game == "mtg" else ""
                kind = (card.types or ("",))[0]
                why = read_whole(card, library, edition)
                played = None
                if why is None and args.smoke and kind not in ("Battlefield", "Rune"):
                    played = smoke(card, library, edition)
                    if played:
                        faults.append(f"{card.name}: {played}")
                ok = why is None
                passed = ok and played is None
                for bucket in [total, *(per_set[s] for s in sets), per_type[(card.types or ("?",))[0]]]:
                    bucket[0] += 1
                    bucket[1] += ok
                    bucket[2] += passed
                if why is not None:
                    p = phrase(why, card.name)
                    phrases[p] += 1
                    examples.setdefault(p, card.name)
            report[game] = {
                "cards": total[0],
                "read": total[1],
                "passed": total[2] if args.smoke else None,
                "share_read": round(total[1] / max(total[0], 1), 3),
                "blind": args.blind,
                "blind_sets": list(blind),
                "per_set": {s: v for s, v in sorted(per_set.items())},
                "per_type": {t: v for t, v in sorted(per_type.items())},
                "unread": [{"phrase": p, "cards": n, "example": examples[p]} for p, n in phrases.most_common(args.top)],
                "smoke_faults": faults[:50],
                "seconds": round(time.perf_counter() - started, 1),
            }
        store.close()
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for game, r in report.items():
        blind = f" (blind sets {', '.join(r['blind_sets'])})" if r["blind"] else ""
        print(f"\n{game}{blind}: {r['read']}/{r['cards']} cards read whole ({r['share_read']:.1%}), {r['seconds']} s")
        if r["passed"] is not None:
            print(f"  and played in the smoke run: {r['passed']}/{r['cards']} ({r['passed'] / max(r['cards'], 1):.1%})")
        print("  per set:  " + "; ".join(f"{s} {v[1]}/{v[0]}" for s, v in r["per_set"].items()))
        print("  per type: " + "; ".join(f"{t} {v[1]}/{v[0]}" for t, v in r["per_type"].items()))
        print("  commonest unread phrases:")
        for u in r["unread"]:
            print(f"    {u['cards']:4d}  {u['phrase']}   (e.g. {u['example']})")
        for f in r["smoke_faults"][:15]:
            print(f"  smoke fault: {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
