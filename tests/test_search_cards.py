"""``judge search`` knows cards and games (issue 21): a question naming a card shows the card first and
searches the rules with its text; without --game the game is the card's, the judge's default game, or
the one the question's words belong to, and the search says which; ``judge config`` sets the default."""

from __future__ import annotations

import json

import pytest

from tests.conftest import judge_in


def search(home, *args):
    code, out, err = judge_in(home, "search", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_a_question_naming_a_card_shows_it_first_and_searches_with_its_text(card_library):
    found = search(card_library, "can lightning bolt hit a planeswalker")
    assert found["card"]["name"] == "Lightning Bolt" and found["card"]["matched"] == "exact"
    assert found["card"]["words"] == "lightning bolt"
    assert found["game"] == {"game": "mtg", "from": "card", "evidence": ["Lightning Bolt"]}
    assert found["books"] == ["cr-2026"]
    assert "deals damage to any target" in found["context"]  # the card's text, its own name out
    assert "Lightning" not in found["context"]
    assert all(h["book"] == "cr-2026" for h in found["hits"])


def test_a_misspelt_card_inside_a_question(card_library):
    found = search(card_library, "glorybringr: can I still exert it if they have no non-dragon creature")
    assert found["card"]["name"] == "Glorybringer" and found["card"]["matched"] == "spelling"
    assert "701.43a" in [h["id"] for h in found["hits"][:5]]  # Exert, from the question and the card


def test_a_part_of_a_name_alone_names_the_card(card_library):
    found = search(card_library, "bolt")
    assert found["card"]["name"] == "Lightning Bolt" and found["card"]["matched"] == "part"


def test_a_riftbound_card_question(card_library):
    found = search(card_library, "jinx rebel: does discarding as a cost ready her")
    assert found["card"]["name"] == "Jinx, Rebel" and found["game"]["game"] == "riftbound"
    assert found["books"] == ["rb-1.3"]


@pytest.mark.parametrize(
    "query",
    ["when does damage wear off", "flash", "what is a sacrifice", "can a blocked creature deal damage to the player"],
)
def test_rules_words_are_not_taken_for_cards(card_library, query):
    """ "Wear" is a face of Wear // Tear, "Flash" and "Sacrifice" are Magic cards, "Fog" one too: as
    the rules use them, or typed in lower case, they are the rules' words."""
    assert search(card_library, query)["card"] is None


def test_a_name_of_both_games_is_not_guessed_between(card_library):
    found = search(card_library, "How does Switcheroo work?")
    assert found["card"]["name"] is None
    assert {c["game"] for c in found["card"]["choices"]} == {"mtg", "riftbound"}
    code, out, _ = judge_in(card_library, "search", "How does Switcheroo work?")
    assert "choose the game with --game" in out
    chosen = search(card_library, "How does Switcheroo work?", "--game", "riftbound")
    assert chosen["card"]["game"] == "riftbound" and chosen["game"]["from"] == "option"
    assert "Swap the Might" in chosen["card"]["text"]


def test_why_says_which_words_named_the_card(card_library):
    code, out, err = judge_in(card_library, "search", "does thragtusk trigger when exiled", "--why")
    assert code == 0, err
    assert out.startswith("card: Thragtusk")
    assert 'named by "thragtusk" (exact)' in out
    assert "the question names the card Thragtusk" in err


@pytest.mark.parametrize(
    "query, game, evidence",
    [
        ("when is the chain empty", "riftbound", "chain"),
        ("ganking", "riftbound", "ganking"),
        ("who gets priority after a spell resolves from the stack", "mtg", "stack"),
        ("sba", "mtg", "sba"),
    ],
)
def test_the_game_is_guessed_from_the_words(card_library, query, game, evidence):
    found = search(card_library, query)
    assert found["game"]["from"] == "words" and found["game"]["game"] == game
    assert evidence in found["game"]["evidence"]
    assert found["corrected"] in (None, "state-based actions")  # ganking is Riftbound's word: not "gaining"


@pytest.mark.parametrize("typed, word", [("shodown", "showdown"), ("conqeur", "conquer")])
def test_a_misspelt_game_word_is_corrected_in_its_own_game(card_library, typed, word):
    found = search(card_library, typed)
    assert found["game"]["game"] == "riftbound" and found["corrected"] == word


def test_a_question_of_no_game_in_particular_reads_every_game(card_library):
    found = search(card_library, "when does damage wear off")
    assert found["game"]["from"] == "none" and set(found["books"]) == {"cr-2026", "rb-1.3"}


def test_the_default_game_is_a_setting(card_library, monkeypatch):
    code, out, err = judge_in(card_library, "config", "game", "mtg")
    assert code == 0, err
    try:
        found = search(card_library, "when does damage wear off")
        assert found["game"] == {"game": "mtg", "from": "setting", "evidence": []} and found["books"] == ["cr-2026"]
        code, out, _ = judge_in(card_library, "config", "--json")
        assert json.loads(out)[0]["value"] == "mtg"
        monkeypatch.setenv("JUDGE_GAME", "riftbound")  # the environment overrides the file
        assert search(card_library, "when does damage wear off")["books"] == ["rb-1.3"]
        code, out, _ = judge_in(card_library, "rule", "601.2c")  # every command reads the default game
        assert code == 1 and "no rule 601.2c" in (out + _)
        # A card of the other game still names its game.
        assert search(card_library, "can lightning bolt hit a planeswalker")["game"]["from"] == "card"
    finally:
        judge_in(card_library, "config", "game", "--unset")
        monkeypatch.delenv("JUDGE_GAME")
    assert search(card_library, "when does damage wear off")["game"]["from"] == "none"


def test_a_wrong_setting_is_one_line(card_library, monkeypatch):
    code, _, err = judge_in(card_library, "config", "game", "mgt")
    assert code == 2 and "unknown game 'mgt' (did you mean \"mtg\"?)" in err and "Traceback" not in err
    code, _, err = judge_in(card_library, "config", "gmae", "mtg")
    assert code == 2 and '(did you mean "game"?)' in err
    monkeypatch.setenv("JUDGE_GAME", "riftbnd")
    code, _, err = judge_in(card_library, "search", "priority")
    assert code == 2 and err.count("\n") == 1 and "JUDGE_GAME" in err and "riftbound" in err


def test_a_damaged_settings_file_names_itself(fresh_home):
    fresh_home.mkdir(parents=True, exist_ok=True)
    (fresh_home / "config.json").write_text("{game: mtg", encoding="utf-8")
    code, _, err = judge_in(fresh_home, "search", "priority")
    assert code == 2 and "config.json:1: not valid JSON" in err and err.count("\n") == 1
    assert (fresh_home / "config.json").read_text(encoding="utf-8") == "{game: mtg"  # left as the judge wrote it


def test_seeds_alone_guess_the_game_too(home):
    found = search(home, "when is the chain empty")
    assert found["game"]["game"] == "riftbound" and found["card"] is None


@pytest.mark.parametrize(
    "query, name, matched",
    [
        ("can janna heal my units when there's no enemy unit here", "Janna, Savior", "part"),  # a first name
        ("resto angel blinks my creature, does it keep its counters", "Restoration Angel", "part"),  # beginnings
        ("tawnos coffin gets destroyed in response to its ability", "Tawnos's Coffin", "exact"),  # possessive dropped
        ("what do I choose when I play dragon's rage", "Dragon's Rage", "exact"),  # possessive kept
        ("what's the mana value of fire ice in my library", "Fire // Ice", "exact"),  # the name without //
        ("can I cast fame from my hand", "Claim // Fame", "exact"),  # a face, a rare English word
        ("wurmcoil gets exiled by swords to plowshares, do i get the tokens", "Wurmcoil Engine", "part"),  # first named
        (
            "skithyrix damage to a player is prevented",
            "Skithiryx, the Blight Dragon",
            "spelling",
        ),  # first name misspelt
        ("can my dragon block baneslayer", "Baneslayer Angel", "part"),  # a subtype is no name
        ("can i use the +2 and then the 0 on mind sculptor in the same turn", "Jace, the Mind Sculptor", "part"),
    ],
)
def test_cards_as_judges_shorten_them(card_library, query, name, matched):
    found = search(card_library, query)["card"]
    assert (found["name"], found["matched"]) == (name, matched)


def test_the_cards_ruling_nearest_the_question_is_shown(card_library):
    found = search(card_library, "insidious will copy a spell, is the copy cast")
    assert found["card"]["ruling"]["date"] == "2016-09-20"
    assert found["card"]["ruling"]["text"].startswith('The copy is created on the stack, so it\'s not "cast."')
    code, out, _ = judge_in(card_library, "search", "insidious will copy a spell, is the copy cast")
    assert "its ruling nearest the question (2016-09-20, mtgjson): The copy is created on the stack" in out
    assert search(card_library, "can bolt hit a planeswalker")["card"]["ruling"] is None  # none shares its words


def test_a_name_of_both_games_is_the_default_games_card(card_library, monkeypatch):
    code, out, _ = judge_in(card_library, "card", "switcheroo")
    assert code == 1 and "Switcheroo (mtg)" in out + _ and "Switcheroo (riftbound)" in out + _
    monkeypatch.setenv("JUDGE_GAME", "riftbound")
    code, out, err = judge_in(card_library, "card", "switcheroo", "--json")
    assert code == 0, err
    assert json.loads(out)["game"] == "riftbound"
    code, out, err = judge_in(card_library, "card", "lightning bolt", "--json")  # the other game's card still
    assert code == 0 and json.loads(out)["game"] == "mtg"
