"""``judge card NAME`` and ``judge cards QUERY`` (issue 21): a card named as a judge types it, its text
with every keyword linked to the rule that defines it in the game's default book, its rulings, and the
FAQ rulings that name it. The card files and rule documents are the corpora's, loaded once a module."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CORPORA, judge_in

CARDS = CORPORA / "cards"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """A library with the 2026 CR, Riftbound v1.2 (with the Origins and Spiritforged FAQs) and v1.3 (the
    default), and every card file of the corpora."""
    if not CARDS.exists():
        pytest.skip(f"the card files are absent ({CARDS})")
    home = tmp_path_factory.mktemp("cards-home")
    loads = [("load", CORPORA / "mtg" / "MagicCompRules-2026-02-27.txt", "--book", "cr-2026"),
             ("load", CORPORA / "riftbound" / "core-rules-v1.2.txt", CORPORA / "riftbound" / "faq-origins.md",
              CORPORA / "riftbound" / "faq-spiritforged.md", "--book", "rb-1.2"),
             ("load", CORPORA / "riftbound" / "core-rules-v1.3.txt", "--book", "rb-1.3"),
             ("load", *sorted((CARDS / "mtg" / "mtgjson-v3").glob("*.json")), *sorted((CARDS / "mtg" / "scryfall").glob("*.json")),
              *sorted((CARDS / "mtg" / "mtgjson-v5").glob("*.json")), CARDS / "riftbound" / "cards.json",
              CORPORA / "riftbound" / "errata.json")]
    for args in loads:
        code, _, err = judge_in(home, *args)
        assert code == 0, err
    return home


# (what a judge types, the card found, its game)
NAMED = [
    ("Lightning Bolt", "Lightning Bolt", "mtg"), ("lightning blot", "Lightning Bolt", "mtg"),
    ("serra angel", "Serra Angel", "mtg"), ("llanowar elves", "Llanowar Elves", "mtg"),
    ("wrath of god", "Wrath of God", "mtg"), ("counterspel", "Counterspell", "mtg"),
    ("giant growth", "Giant Growth", "mtg"), ("shivan dragon", "Shivan Dragon", "mtg"),
    ("baneslayer", "Baneslayer Angel", "mtg"), ("doom blade", "Doom Blade", "mtg"),
    ("smugglers copter", "Smuggler's Copter", "mtg"), ("cyclonic rift", "Cyclonic Rift", "mtg"),
    ("vampire nighthawk", "Vampire Nighthawk", "mtg"), ("thragtusk", "Thragtusk", "mtg"),
    ("snapcaster", "Snapcaster Mage", "mtg"), ("goblin guide", "Goblin Guide", "mtg"),
    ("glorybringr", "Glorybringer", "mtg"), ("fire // ice", "Fire // Ice", "mtg"),
    ("arlinn kord", "Arlinn Kord // Arlinn, Embraced by the Moon", "mtg"),
    ("ancestral recall", "Ancestral Recall", "mtg"), ("tarmogoyf", "Tarmogoyf", "mtg"),
    ("blazing scorcher", "Blazing Scorcher", "riftbound"), ("blazing scorchr", "Blazing Scorcher", "riftbound"),
    ("pouty poro", "Pouty Poro", "riftbound"), ("jinx demolitionist", "Jinx, Demolitionist", "riftbound"),
    ("vi destructive", "Vi, Destructive", "riftbound"), ("immortal phoenix", "Immortal Phoenix", "riftbound"),
    ("noxus hopeful", "Noxus Hopeful", "riftbound"), ("vayne hunter", "Vayne, Hunter", "riftbound"),
    ("thermo beam", "Thermo Beam", "riftbound"),
]


@pytest.mark.parametrize("typed, name, game", NAMED, ids=[t for t, _, _ in NAMED])
def test_a_card_is_found_as_a_judge_names_it(library, typed, name, game):
    code, out, err = judge_in(library, "card", typed, "--json")
    assert code == 0, err
    card = json.loads(out)
    assert (card["name"], card["game"]) == (name, game)
    assert card["matched"] in ("exact", "part", "spelling") and card["text"] is not None


@pytest.mark.parametrize("typed, game, links", [
    ("Vampire Nighthawk", "mtg", {"Flying": "702.9", "Deathtouch": "702.2", "Lifelink": "702.15"}),
    ("Glorybringer", "mtg", {"Flying": "702.9", "Haste": "702.10", "exert": "701.43"}),
    ("Doom Blade", "mtg", {"destroy": "701.8"}),
    ("Blazing Scorcher", "riftbound", {"Accelerate": "805"}),
    ("Pouty Poro", "riftbound", {"Deflect": "809"}),
    ("Thermo Beam", "riftbound", {"kill": "428"}),
])
def test_keywords_and_keyword_actions_link_to_their_rules_in_the_default_book(library, typed, game, links):
    code, out, err = judge_in(library, "card", typed, "--game", game, "--json")
    card = json.loads(out)
    got = {link["word"] if link["kind"] == "keyword" else link["title"]: link["rule"] for link in card["links"]}
    assert card["book"] == ("cr-2026" if game == "mtg" else "rb-1.3")
    assert {k: got.get(k) for k in links} == links


def test_keyword_links_follow_the_book_riftbound_v12(library):
    """The same keywords under Core Rules v1.2's numbers (731 Accelerate, 735 Deflect)."""
    from judge.books import open_store
    from rulebook.cards.lookup import links
    from rulebook.cards.store import CardStore, card_db_path

    import os

    os.environ["JUDGE_HOME"] = str(library)
    try:
        cards, rules = CardStore(card_db_path(library)), open_store()
        found = {link["word"]: link["rule"] for link in links(rules, "rb-1.2", cards.card("riftbound", "Blazing Scorcher"))}
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
