"""``judge card NAME`` and ``judge cards QUERY`` (issue 21): a card named as a judge types it, its text
with every keyword linked to the rule that defines it in the game's default book, its rulings, and the
FAQ rulings that name it. The card files and rule documents are the corpora's, loaded once a module."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CORPORA, judge_in

CARDS = CORPORA / "cards"


@pytest.fixture
def library(card_library):
    """The session's card library (tests/conftest.py): the 2026 CR, Riftbound v1.2 (with the Origins and
    Spiritforged FAQs) and v1.3 (the default), and every card file of the corpora."""
    return card_library


# (what a judge types, the card found, its game)
NAMED = [
    ("Lightning Bolt", "Lightning Bolt", "mtg"),
    ("lightning blot", "Lightning Bolt", "mtg"),
    ("serra angel", "Serra Angel", "mtg"),
    ("llanowar elves", "Llanowar Elves", "mtg"),
    ("wrath of god", "Wrath of God", "mtg"),
    ("counterspel", "Counterspell", "mtg"),
    ("giant growth", "Giant Growth", "mtg"),
    ("shivan dragon", "Shivan Dragon", "mtg"),
    ("baneslayer", "Baneslayer Angel", "mtg"),
    ("doom blade", "Doom Blade", "mtg"),
    ("smugglers copter", "Smuggler's Copter", "mtg"),
    ("cyclonic rift", "Cyclonic Rift", "mtg"),
    ("vampire nighthawk", "Vampire Nighthawk", "mtg"),
    ("thragtusk", "Thragtusk", "mtg"),
    ("snapcaster", "Snapcaster Mage", "mtg"),
    ("goblin guide", "Goblin Guide", "mtg"),
    ("glorybringr", "Glorybringer", "mtg"),
    ("fire // ice", "Fire // Ice", "mtg"),
    ("arlinn kord", "Arlinn Kord // Arlinn, Embraced by the Moon", "mtg"),
    ("ancestral recall", "Ancestral Recall", "mtg"),
    ("tarmogoyf", "Tarmogoyf", "mtg"),
    ("blazing scorcher", "Blazing Scorcher", "riftbound"),
    ("blazing scorchr", "Blazing Scorcher", "riftbound"),
    ("pouty poro", "Pouty Poro", "riftbound"),
    ("jinx demolitionist", "Jinx, Demolitionist", "riftbound"),
    ("vi destructive", "Vi, Destructive", "riftbound"),
    ("immortal phoenix", "Immortal Phoenix", "riftbound"),
    ("noxus hopeful", "Noxus Hopeful", "riftbound"),
    ("vayne hunter", "Vayne, Hunter", "riftbound"),
    ("thermo beam", "Thermo Beam", "riftbound"),
]


@pytest.mark.parametrize("typed, name, game", NAMED, ids=[t for t, _, _ in NAMED])
def test_a_card_is_found_as_a_judge_names_it(library, typed, name, game):
    code, out, err = judge_in(library, "card", typed, "--json")
    assert code == 0, err
    card = json.loads(out)
    assert (card["name"], card["game"]) == (name, game)
    assert card["matched"] in ("exact", "part", "spelling") and card["text"] is not None


@pytest.mark.parametrize(
    "typed, game, links",
    [
        ("Vampire Nighthawk", "mtg", {"Flying": "702.9", "Deathtouch": "702.2", "Lifelink": "702.15"}),
        ("Glorybringer", "mtg", {"Flying": "702.9", "Haste": "702.10", "exert": "701.43"}),
        ("Doom Blade", "mtg", {"destroy": "701.8"}),
        ("Blazing Scorcher", "riftbound", {"Accelerate": "805"}),
        ("Pouty Poro", "riftbound", {"Deflect": "809"}),
        ("Thermo Beam", "riftbound", {"kill": "428"}),
    ],
)
def test_keywords_and_keyword_actions_link_to_their_rules_in_the_default_book(library, typed, game, links):
    code, out, err = judge_in(library, "card", typed, "--game", game, "--json")
    card = json.loads(out)
    got = {link["word"] if link["kind"] == "keyword" else link["title"]: link["rule"] for link in card["links"]}
    assert card["book"] == ("cr-2026" if game == "mtg" else "rb-1.3")
    assert {k: got.get(k) for k in links} == links


def test_keyword_links_follow_the_book_riftbound_v12(library):
    """The same keywords under Core Rules v1.2's numbers (731 Accelerate, 735 Deflect)."""
    import os

    from judge.books import open_store
    from rulebook.cards.lookup import links
    from rulebook.cards.store import CardStore, card_db_path

    os.environ["JUDGE_HOME"] = str(library)
    try:
        cards, rules = CardStore(card_db_path(library)), open_store()
        found = {
            link["word"]: link["rule"] for link in links(rules, "rb-1.2", cards.card("riftbound", "Blazing Scorcher"))
        }
        assert found["Accelerate"] == "731"
        found = {link["word"]: link["rule"] for link in links(rules, "rb-1.2", cards.card("riftbound", "Pouty Poro"))}
        assert found["Deflect"] == "735"
    finally:
        os.environ.pop("JUDGE_HOME", None)


def test_rulings_come_newest_first_and_faq_rulings_naming_the_card(library):
    code, out, err = judge_in(library, "card", "smugglers copter", "--json")
    rulings = json.loads(out)["rulings"]
    dates = [r["date"] for r in rulings]
    assert rulings and dates == sorted(dates, reverse=True) and all(r["official"] for r in rulings)
    code, out, err = judge_in(library, "card", "Sun Disc", "--json")
    card = json.loads(out)
    assert any("Sun Disc" in f["question"] + f["answer"] for f in card["faq"])
    code, text, err = judge_in(library, "card", "Sun Disc")
    assert "FAQ rulings naming it" in text


def test_an_unknown_card_says_what_it_may_have_meant(library):
    code, out, err = judge_in(library, "card", "lightnin bolts of doom xyz")
    assert code == 1 and err.startswith("judge: no card named")
    code, out, err = judge_in(library, "card", "serra angle")
    assert code == 0 and "Serra Angel" in out


def test_cards_searches_names_and_text_by_type_and_keyword(library):
    code, out, err = judge_in(library, "cards", "destroy target creature", "--game", "mtg", "--json")
    found = json.loads(out)
    assert code == 0 and found and all(c["game"] == "mtg" for c in found)
    code, out, err = judge_in(library, "cards", "dragon", "--keyword", "Flying", "--type", "Creature", "--json")
    found = json.loads(out)
    assert found and all("Flying" in c["keywords"] and "Creature" in c["type_line"] for c in found)


def test_no_cards_loaded_is_one_line(fresh_home, judge):
    code, out, err = judge("card", "Lightning Bolt")
    assert code == 1 and err.count("\n") == 1 and "no cards are loaded" in err


# -- a name as the judge types it, against every name of the library ---------------------------------------
class EveryName:
    """find_card's answer worked out the plain way, over every name of the library, as it was before the
    names index: the name as printed; case and punctuation aside; a part (every word typed begins a word
    of the name: fewest extra words, then the card in most sets); a misspelling (rapidfuzz WRatio at least
    80 over every name; names within 2 of the best are not guessed between)."""

    def __init__(self, store):
        from rulebook.cards.store import norm_name

        self.store, self.norm = store, norm_name
        every = store.conn.execute("SELECT game, name FROM cards ORDER BY game, name").fetchall()  # not the index
        self.names = {game: [(g, n) for g, n in every if game in (None, g)] for game in (None, "mtg", "riftbound")}
        self.norms = {game: [norm_name(n) for _, n in names] for game, names in self.names.items()}
        self.fronts = {game: [norm_name(n.split(" // ")[0]) for _, n in names] for game, names in self.names.items()}

    def find(self, name: str, game: str | None = None):
        from rapidfuzz import fuzz, process

        from rulebook.games import names

        GAMES = names()

        store = self.store
        for g in [game] if game else GAMES:
            card = store.card(g, name.strip())
            if card is not None and (game or not any(store.card(o, name.strip()) for o in GAMES if o != g)):
                return (card.game, card.name, "exact"), []
        names, norms = self.names[game], self.norms[game]
        if not names:
            return None, []
        wanted = self.norm(name)
        exact = [names[i] for i in range(len(names)) if wanted in (norms[i], self.fronts[game][i])]
        if len(exact) == 1 or (exact and len({n for _, n in exact}) == 1):
            return (*exact[0], "exact"), []
        if exact:
            return None, [f"{n} ({g})" for g, n in exact]
        words = wanted.split()
        part = sorted(
            (len(norms[i].split()) - len(words), len(n), g, n)
            for i, (g, n) in enumerate(names)
            if words and all(any(t.startswith(w) for t in norms[i].split()) for w in words)
        )
        if part:
            best = [p for p in part if p[0] == part[0][0]]
            if len(best) > 1:
                printed = sorted(((len(store.card(g, n).sets), g, n) for _, _, g, n in best[:50]), reverse=True)
                if printed[0][0] > printed[1][0]:
                    best = [(0, 0, printed[0][1], printed[0][2])]
            if len(best) == 1:
                return (best[0][2], best[0][3], "part"), []
            return None, [f"{n} ({g})" if game is None else n for _, _, g, n in best[:8]]
        choices = dict(enumerate(norms))
        ranked = process.extract(wanted, choices, scorer=fuzz.WRatio, limit=8, score_cutoff=80)
        if not ranked:
            return None, [
                names[i][1]
                for _, _, i in process.extract(wanted, choices, scorer=fuzz.WRatio, limit=3, score_cutoff=60)
            ]
        tied = [names[i] for _, score, i in ranked if score >= ranked[0][1] - 2]
        if len(tied) == 1:
            return (*tied[0], "spelling"), []
        return None, [n for _, n in tied]


def _typed(rnd, name: str) -> list[str]:
    """What a judge may type for a name: a slip or two of the keys, a word of it, the words swapped."""

    def slip(text: str) -> str:
        chars = list(text)
        for _ in range(rnd.choice((1, 1, 2))):
            at, how = rnd.randrange(len(chars)), rnd.random()
            if how < 0.3 and len(chars) > 1:
                del chars[at]
            elif how < 0.6:
                chars.insert(at, rnd.choice("abcdefghijklmnopqrstuvwxyz"))
            elif how < 0.8:
                chars[at] = rnd.choice("abcdefghijklmnopqrstuvwxyz")
            elif at + 1 < len(chars):
                chars[at], chars[at + 1] = chars[at + 1], chars[at]
        return "".join(chars)

    words = name.lower().split()
    return [slip(name.lower()), slip(name), slip(words[-1]), " ".join(reversed(words[:2]))]


def test_a_name_is_found_as_scoring_every_name_finds_it(library):
    """The names index (rulebook.cards.store) and the scores worked out without rapidfuzz give the answer
    of matching every name of the library: names the judge may type, misspelt most of them, and names
    that find nothing, several equal ones, or a word shared by hundreds of names (``of the``)."""
    import random

    from rulebook.cards.lookup import find_card
    from rulebook.cards.store import CardStore, card_db_path

    store = CardStore(card_db_path(library))
    every = EveryName(store)
    rnd = random.Random(21)
    typed = [
        "lightning blot",
        "serra angle",
        "lord of the nuded",
        "lightnin bolts of doom xyz",
        "angle serra",
        "xq",
        "bolt bolt",
        "of the",
        "",
        "ab",
        "a",
        "fire ice",
        "sword of",
        "blazing scorchr",
        "jinx",
        "qqqq zzzz",
    ]
    for _, name in rnd.sample(every.names[None], 30):
        typed += _typed(rnd, name)
    for text in typed:
        for game in (None, "mtg", "riftbound"):
            found, suggestions = find_card(store, text, game)
            got = ((found.card.game, found.card.name, found.matched) if found else None, suggestions)
            assert got == every.find(text, game), (text, game)
    store.close()


def test_scores_worked_out_here_are_rapidfuzz_s_and_their_bounds_hold():
    """rulebook.cards.lookup scores a misspelt name without rapidfuzz when the answer is certain: its
    WRatio must be rapidfuzz's, and each bound it prunes by must be at least rapidfuzz's score."""
    import random
    from collections import Counter

    from rapidfuzz import fuzz

    from rulebook.cards import lookup
    from rulebook.cards.store import name_symbols, norm_name

    rnd = random.Random(5)
    words = [
        "lightning",
        "bolt",
        "serra",
        "angel",
        "of",
        "the",
        "lord",
        "undead",
        "fire",
        "ice",
        "a",
        "ab",
        "bab",
        "storm",
        "crow",
        "sto",
    ]

    def name() -> str:
        return " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 4)))

    def slip(text: str) -> str:
        chars = list(text)
        for _ in range(rnd.randint(0, 3)):
            at = rnd.randrange(len(chars) + 1)
            if rnd.random() < 0.5 and at < len(chars):
                del chars[at]
            else:
                chars.insert(at, rnd.choice("abelnost "))
        return norm_name("".join(chars))

    checked = 0
    for _ in range(4000):
        theirs = name()
        ours = slip(theirs) if rnd.random() < 0.7 else name()
        if not ours or len(set(ours.split())) < len(ours.split()):
            continue  # lookup scores here only names whose words do not repeat
        score = fuzz.WRatio(ours, theirs)
        assert abs(lookup._wratio(ours, theirs) - score) < 1e-9, (ours, theirs)
        shared = (Counter(name_symbols(ours)) & Counter(name_symbols(theirs))).total()
        tokens, their_words = set(ours.split()), theirs.split()
        assert lookup._char_bound(ours, Counter(ours), tokens, theirs) >= score - 1e-9, (ours, theirs)
        bound = lookup._bigram_bound(len(ours), len(theirs), shared)
        if not tokens.isdisjoint(their_words) or len(set(their_words)) < len(their_words):
            bound = max(bound, lookup._word_bound(len(ours), len(theirs), tokens, their_words, shared))
        else:
            need = lookup._shared_bigrams(len(ours), len(theirs))
            assert score < 80 or (need is not None and shared >= need), (ours, theirs)
        assert bound >= score - 1e-9, (ours, theirs)
        checked += 1
    assert checked > 3000


def test_the_terms_of_a_book_are_kept_and_made_again_when_stale(library):
    """What linking a card reads of a book is kept in $JUDGE_HOME/cache/cards/BOOK.json: the same links
    with and without it, and a file kept for another state of the book is not believed."""
    import os

    from judge.books import open_store
    from rulebook.cards.lookup import book_terms, links
    from rulebook.cards.store import CardStore, card_db_path

    os.environ["JUDGE_HOME"] = str(library)
    try:
        rules, cards = open_store(), CardStore(card_db_path(library))
        card = cards.card("mtg", "Glorybringer")
        kept = library / "cache" / "cards" / "cr-2026.json"
        kept.unlink(missing_ok=True)
        first = links(rules, "cr-2026", card)
        assert kept.exists() and links(rules, "cr-2026", card) == first
        data = json.loads(kept.read_text(encoding="utf-8"))
        data["key"][1], data["terms"] = "another fingerprint", {}
        kept.write_text(json.dumps(data), encoding="utf-8")
        assert book_terms(rules, "cr-2026")[0] and links(rules, "cr-2026", card) == first
        assert json.loads(kept.read_text(encoding="utf-8"))["key"][1] != "another fingerprint"
    finally:
        os.environ.pop("JUDGE_HOME", None)
