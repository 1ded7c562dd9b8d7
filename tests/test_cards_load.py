"""Card files read into the card library (issue 21): Scryfall card and rulings objects, MTGJSON v3 and v5,
the Riftbound card gallery and its errata, recognised by their content, one card per game and name in
$JUDGE_HOME/cards.db.

The corpora's card files are counted here by a parser of the test's own (a few lines per format, no code
of rulebook.cards): every card name and every ruling must be in the library after a load. Invented cards
(no publisher's text) cover the shapes the corpora lack, so most tests run on any machine."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import CORPORA, REPO, judge_in

from rulebook.cards import readers
from rulebook.cards.load import load as load_cards
from rulebook.cards.store import CardStore, card_db_path, name_symbols, norm_name
from rulebook.model import ReadError

CARDS = CORPORA / "cards"
INVENTED = REPO / "tests" / "data" / "cards" / "invented-scryfall.json"
SEED = REPO / "seeds" / "riftbound-300-detail.txt"


def corpus_card_files() -> list[Path]:
    if not CARDS.exists() or not (CORPORA / "riftbound" / "errata.json").exists():
        pytest.skip(
            f"the card files are absent ({CARDS}: real documents live in ../shared/corpora beside the checkout)"
        )
    return [
        *sorted((CARDS / "mtg" / "mtgjson-v3").glob("*.json")),
        *sorted((CARDS / "mtg" / "scryfall").glob("*.json")),
        *sorted((CARDS / "mtg" / "mtgjson-v5").glob("*.json")),
        CARDS / "riftbound" / "cards.json",
        CORPORA / "riftbound" / "errata.json",
    ]


@pytest.fixture(scope="module")
def corpus_library(tmp_path_factory):
    """Every card file of the corpora, loaded once: (home, store, files, reports)."""
    files = corpus_card_files()
    home = tmp_path_factory.mktemp("cards-home")
    store = CardStore(card_db_path(home))
    reports = load_cards(store, files)
    yield home, store, files, reports
    store.close()


# -- the test's own count of the files ---------------------------------------------------------------
def _norm(text: str) -> str:
    """The documented rule: two rulings are one when their date and their text, curly quotes and spacing
    aside, are the same."""
    for curly, straight in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"')):
        text = text.replace(curly, straight)
    return " ".join(text.split())


def _words(name: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", name.lower().replace("’", "'")))


def expected(files: list[Path]) -> tuple[dict[str, set[str]], dict[tuple[str, str], set]]:
    """Card names per game (lower case) and the distinct rulings of each card, read the simple way."""
    names: dict[str, set[str]] = {"mtg": set(), "riftbound": set()}
    rulings: dict[tuple[str, str], set] = defaultdict(set)
    oracle: dict[str, str] = {}
    scryfall_rulings, errata = [], []
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        if f.parent.name == "mtgjson-v3":
            for c in data["cards"]:
                halves = c.get("names") or []
                name = " // ".join(halves) if len(halves) > 1 and c["layout"] != "meld" else c["name"]
                names["mtg"].add(name.lower())
                rulings[("mtg", name.lower())] |= {(r["date"], _norm(r["text"])) for r in c.get("rulings", [])}
        elif f.parent.name == "mtgjson-v5":
            for c in data.get("data", data)["cards"]:
                names["mtg"].add(c["name"].lower())
                oracle[c["identifiers"]["scryfallOracleId"]] = c["name"].lower()
                rulings[("mtg", c["name"].lower())] |= {(r["date"], _norm(r["text"])) for r in c.get("rulings", [])}
        elif f.parent.name == "scryfall" and data["object"] == "card":
            names["mtg"].add(data["name"].lower())
            oracle[data["oracle_id"]] = data["name"].lower()
        elif f.parent.name == "scryfall":
            scryfall_rulings += data["data"]
        elif f.name == "cards.json":
            names["riftbound"] |= {c["name"].lower() for c in data["cards"]}
        elif f.name == "errata.json":
            for post in data:
                lines = post["content"].split("\n")
                for i, line in enumerate(lines):
                    if line.strip() == "#### [NEW TEXT]":
                        j = i - 1
                        while not lines[j].strip():
                            j -= 1
                        errata.append((lines[j].strip("# ").strip(), post["publishedAt"][:10], i))
    for r in scryfall_rulings:
        if r["oracle_id"] in oracle:
            rulings[("mtg", oracle[r["oracle_id"]])].add((r["published_at"], _norm(r["comment"])))
    rift = {_words(n): n for n in names["riftbound"]}
    for card, date, where in errata:
        if _words(card) in rift:
            rulings[("riftbound", rift[_words(card)])].add((date, where))
    return names, rulings


def test_every_card_and_ruling_of_the_files_is_in_the_library(corpus_library):
    _, store, files, _ = corpus_library
    names, rulings = expected(files)
    for game in ("mtg", "riftbound"):
        stored = {n.lower() for g, n in store.names(game)}
        assert stored == names[game], (game, sorted(stored ^ names[game])[:10])
        assert store.count(game) == len(names[game])
    wrong = []
    for game, name in store.names():
        card = store.card(game, name)
        if len(card.rulings) != len(rulings.get((game, name.lower()), ())):
            wrong.append((name, len(card.rulings), len(rulings.get((game, name.lower()), ()))))
    assert not wrong, wrong[:10]
    assert sum(len(v) for v in rulings.values()) > 17_900  # the files' 17,880 v3 rulings, PW24's, Scryfall's, errata


def test_the_names_index_holds_every_card(corpus_library):
    _, store, _, _ = corpus_library
    assert_index_is_the_cards(store)


def test_each_file_is_reported_with_its_format(corpus_library):
    _, _, files, reports = corpus_library
    formats = {Path(r["file"]).name: r["format"] for r in reports}
    assert formats["M10.json"] == "mtgjson-v3" and formats["PW24.json"] == "mtgjson-v5"
    assert (
        formats["fireice-nomultiverse.json"] == "scryfall-cards"
        and formats["ixidron-rulings.json"] == "scryfall-rulings"
    )
    assert formats["cards.json"] == "riftbound-gallery" and formats["errata.json"] == "riftbound-errata"
    errata = next(r for r in reports if r["format"] == "riftbound-errata")
    assert errata["rulings"] == 55 and errata["pending"] == 6  # the six Unleashed cards the gallery holds out
    gallery = next(r for r in reports if r["format"] == "riftbound-gallery")
    assert gallery["cards"] == 544 and gallery["new"] == 544


def test_a_second_load_of_the_same_files_changes_nothing(corpus_library):
    home, store, files, _ = corpus_library
    before = list(sqlite3.connect(card_db_path(home)).iterdump())
    again = load_cards(store, files)
    assert all(r["already_loaded"] and r["new"] == r["updated"] == 0 for r in again)
    assert list(sqlite3.connect(card_db_path(home)).iterdump()) == before


def test_cards_stay_when_a_rules_book_is_loaded_and_unloaded(corpus_library):
    from rulebook.library import Library

    home, store, _, _ = corpus_library
    count, bolt = store.count(), store.card("mtg", "Lightning Bolt")
    lib = Library(home, seeds=None)
    lib.load([SEED], "house")
    assert store.count() == count
    lib.unload("house")
    assert store.count() == count and store.card("mtg", "lightning bolt") == bolt


def test_newest_printing_gives_the_text_and_every_set_is_listed(corpus_library):
    _, store, _, _ = corpus_library
    angel = store.card("mtg", "Serra Angel")
    assert angel.sets[0] == "PW24" and angel.sets[-1] == "LEA" and len(angel.sets) == 11
    assert angel.keywords == ("Flying", "Vigilance") and angel.faces[0].power == "4"
    well = store.card("mtg", "Alive // Well")  # v3's two half records, one card
    assert [f.name for f in well.faces] == ["Alive", "Well"] and well.layout == "split"
    assert well.cost == "{3}{G} // {W}" and "Fuse" in well.keywords
    assert store.card("mtg", "Alive") is None


def test_riftbound_keywords_come_from_brackets_and_icons_read(corpus_library):
    _, store, _, _ = corpus_library
    scorcher = store.card("riftbound", "Blazing Scorcher")
    assert scorcher.keywords == ("Accelerate",)
    assert scorcher.text == "[Accelerate] (You may pay [1][Fury] as an additional cost to have me enter ready.)"
    assert scorcher.type_line == "Unit — Dragon Noxus" and scorcher.faces[0].might == "5"
    assert dict(scorcher.extra) == {
        "domains": ["Fury"],
        "energy": "5",
        "power": None,
        "might": "5",
        "tags": ["Dragon", "Noxus"],
    }
    assert store.card("riftbound", "Chemtech Enforcer").keywords == ("Assault 2",)
    texts = [store.card(g, n).text for g, n in store.names("riftbound")]
    assert not any(":rb_" in t for t in texts)
    assert [c.name for c in store.search("reveal", game="riftbound", keyword="hidden", limit=50)]


def test_an_erratum_replaces_the_text_and_stays_as_a_ruling(corpus_library):
    _, store, _, _ = corpus_library
    star = store.card("riftbound", "Falling Star")
    assert star.text == "Deal 3 to a unit.\nDeal 3 to a unit."
    assert star.rulings[0].source == "riftbound errata" and star.rulings[0].date == "2026-01-14"
    assert "Old text: Do this twice:" in star.rulings[0].text
    starter = store.card("riftbound", "Dark Child - Starter")  # the erratum names it "Dark Child, Starter"
    assert [r.date for r in starter.rulings] == ["2025-10-28"]
    guards = store.card("riftbound", "Guards!")  # Unleashed errata of a Spiritforged card
    assert "Then do this: You may pay [C] to ready it." in guards.text and guards.keywords == ("Hidden",)


def test_scryfall_faces_read_right():
    files = corpus_card_files()
    scryfall = [f for f in files if f.parent.name == "scryfall"]
    import tempfile

    store = CardStore(card_db_path(Path(tempfile.mkdtemp())))
    load_cards(store, scryfall)
    fire = store.card("mtg", "Fire // Ice")
    assert fire.layout == "split" and [(f.name, f.cost, f.type_line) for f in fire.faces] == [
        ("Fire", "{1}{R}", "Instant"),
        ("Ice", "{1}{U}", "Instant"),
    ]
    assert fire.text == fire.faces[0].text + "\n//\n" + fire.faces[1].text and fire.cost == "{1}{R} // {1}{U}"
    arlinn = store.card("mtg", "Arlinn Kord // Arlinn, Embraced by the Moon")
    assert arlinn.layout == "transform" and arlinn.faces[0].loyalty == "3" and arlinn.faces[1].cost is None
    assert arlinn.supertypes == ("Legendary",) and arlinn.types == ("Planeswalker",) and arlinn.cost == "{2}{R}{G}"
    cosima = store.card("mtg", "Cosima, God of the Voyage // The Omenkeel")
    assert cosima.layout == "modal_dfc" and cosima.faces[1].type_line == "Legendary Artifact — Vehicle"
    assert cosima.types == ("Creature", "Artifact") and cosima.keywords == ("Crew",)
    bushi = store.card("mtg", "Bushi Tenderfoot // Kenzo the Hardhearted")
    assert bushi.layout == "flip" and (bushi.faces[1].power, bushi.faces[1].toughness) == ("3", "4")
    assert bushi.keywords == ("Double Strike", "Bushido")  # an old object without "keywords": its keyword lines
    titan = store.card("mtg", "Erebos's Titan")  # an English and a German printing: one card, the Oracle text
    assert titan.text.startswith("As long as your opponents control no creatures") and titan.sets == ("ORI",)
    assert store.card("mtg", "Sarkhan the Masterless").text.startswith("Whenever a creature attacks you")  # ja
    ixidron = store.card("mtg", "Ixidron")  # its rulings, from the rulings list, by oracle id
    assert len(ixidron.rulings) == 5 and all(r.official and r.source == "scryfall" for r in ixidron.rulings)
    store.close()


# -- invented files: the shapes, without the corpora ---------------------------------------------------
def _v5_card(**more) -> dict:
    card = {
        "name": "Practice Golem",
        "manaCost": "{3}",
        "manaValue": 3.0,
        "type": "Artifact Creature — Golem",
        "types": ["Artifact", "Creature"],
        "subtypes": ["Golem"],
        "supertypes": [],
        "text": "Vigilance",
        "power": "3",
        "toughness": "3",
        "layout": "normal",
        "uuid": "00000000-0000-0000-0000-0000000000aa",
        "setCode": "TST",
        "keywords": ["Vigilance"],
        "colors": [],
        "identifiers": {"scryfallOracleId": "20000000-0000-0000-0000-000000000001"},
        "rulings": [{"date": "2026-01-02", "text": "An invented ruling."}],
    }
    card.update(more)
    return card


def _write(path: Path, value) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


@pytest.mark.parametrize("streamed", [False, True], ids=["parsed whole", "streamed"])
def test_every_mtgjson_shape_reads_the_same_card(tmp_path, monkeypatch, streamed):
    if streamed:  # every file counts as big: arrays element by element, AllPrintings set by set, ...
        monkeypatch.setattr(readers, "WHOLE", 0)
    card = _v5_card()
    meta = {"date": "2026-01-01", "version": "5.2.2"}
    s = {
        "baseSetSize": 1,
        "cards": [card],
        "code": "TST",
        "name": "Invented",
        "releaseDate": "2026-01-01",
        "tokens": [],
        "type": "core",
    }
    shapes = {
        "set.json": {"meta": meta, "data": s},
        "bare.json": {**s, "meta": meta},
        "AtomicCards.json": {"meta": meta, "data": {"Practice Golem": [{**card, "printings": ["TST"]}]}},
        "AllPrintings.json": {"meta": meta, "data": {"TST": s}},
    }
    v3 = {k: v for k, v in card.items() if k not in ("uuid", "setCode", "identifiers", "keywords", "manaValue")}
    v3_set = {"name": "Invented", "code": "TST", "releaseDate": "2026-01-01", "cards": [{**v3, "cmc": 3}]}
    shapes |= {"TST.json": v3_set, "AllSets.json": {"TST": v3_set, "TS2": {**v3_set, "code": "TS2", "cards": []}}}
    got = []
    for name, value in shapes.items():
        path = _write(tmp_path / name, value)
        assert readers.detect(path) == ("mtgjson-v3" if name in ("TST.json", "AllSets.json") else "mtgjson-v5"), name
        store = CardStore(card_db_path(tmp_path / name.replace(".json", "")))
        load_cards(store, [path])
        got.append(store.card("mtg", "practice golem"))
        store.close()
    assert all(c == got[0] for c in got[1:]), got
    golem = got[0]
    assert golem.keywords == ("Vigilance",) and golem.sets == ("TST",) and golem.types == ("Artifact", "Creature")
    assert golem.rulings == (readers.CardRuling("2026-01-02", "An invented ruling.", "mtgjson", True),)
    assert dict(golem.extra) == {"colors": [], "mana_value": 3}


def test_v3_halves_fold_into_one_card_and_keywords_come_from_keyword_lines(tmp_path):
    half = {
        "layout": "split",
        "names": ["Heads", "Tails"],
        "type": "Instant",
        "types": ["Instant"],
        "cmc": 1,
        "rulings": [{"date": "2018-01-01", "text": "Both halves."}],
    }
    s = {
        "name": "Invented",
        "code": "TV3",
        "releaseDate": "2018-01-01",
        "border": "black",
        "cards": [
            {
                **half,
                "name": "Heads",
                "manaCost": "{R}",
                "text": "Heads deals 1 damage to any target.",
                "originalText": "Heads deals 1 damage to target creature or player.",
            },
            {
                **half,
                "name": "Tails",
                "manaCost": "{U}",
                "text": "Draw a card.",
                "rulings": half["rulings"] + [{"date": "2018-01-02", "text": "Only tails."}],
            },
            {
                "name": "Drill Wyvern",
                "layout": "normal",
                "type": "Creature — Drake",
                "types": ["Creature"],
                "subtypes": ["Drake"],
                "manaCost": "{1}{U}",
                "cmc": 2,
                "power": "1",
                "toughness": "1",
                "text": "Flying, first strike\nProtection from red\nWhenever another creature with flying attacks, scry 1.",
            },
        ],
    }
    path = _write(tmp_path / "TV3.json", s)
    assert readers.detect(path) == "mtgjson-v3"
    store = CardStore(card_db_path(tmp_path))
    [report] = load_cards(store, [path])
    assert (report["cards"], report["rulings"], report["new"]) == (2, 2, 2)
    card = store.card("mtg", "Heads // Tails")
    assert [f.name for f in card.faces] == ["Heads", "Tails"] and card.extra["mana_value"] == 2
    assert card.faces[0].text == "Heads deals 1 damage to any target."  # `text`, never `originalText`
    assert [r.text for r in card.rulings] == ["Only tails.", "Both halves."]
    assert store.card("mtg", "Drill Wyvern").keywords == ("Flying", "First Strike", "Protection")
    # The same path, changed: its cards are replaced, a card it no longer has goes.
    s["cards"] = s["cards"][2:]
    s["cards"][0]["text"] = "Flying"
    [report] = load_cards(store, [_write(path, s)])
    assert (report["cards"], report["updated"], report["already_loaded"]) == (1, 1, False)
    assert store.card("mtg", "Heads // Tails") is None and store.card("mtg", "Drill Wyvern").text == "Flying"
    assert_index_is_the_cards(store)  # the card gone and the card changed, in the names index too
    store.close()


def test_rulings_wait_for_their_card(tmp_path):
    rulings = {
        "object": "list",
        "has_more": False,
        "data": [
            {
                "object": "ruling",
                "oracle_id": "10000000-0000-0000-0000-000000000001",
                "source": "wotc",
                "published_at": "2026-01-05",
                "comment": "Practice Bolt can target a battle.",
            },
            {
                "object": "ruling",
                "oracle_id": "10000000-0000-0000-0000-000000000001",
                "source": "scryfall",
                "published_at": "2026-01-06",
                "comment": "A note that is not the publisher's.",
            },
        ],
    }
    path = _write(tmp_path / "bolt-rulings.json", rulings)
    store = CardStore(card_db_path(tmp_path))
    [first] = load_cards(store, [path])
    assert first["format"] == "scryfall-rulings" and (first["cards"], first["pending"]) == (0, 2)
    [later] = load_cards(store, [INVENTED])
    bolt = store.card("mtg", "Practice Bolt")
    assert [(r.date, r.official) for r in bolt.rulings] == [("2026-01-06", False), ("2026-01-05", True)]
    assert later["new"] == 2 and store.search("damage any target")[0].name == "Practice Bolt"
    store.close()


def test_a_big_array_is_streamed_and_a_cut_one_refused_with_its_line(tmp_path):
    one = json.loads(INVENTED.read_text(encoding="utf-8"))[0]
    cards = [{**one, "name": f"Practice Bolt {i}", "oracle_id": f"o-{i}"} for i in range(2000)]
    path = tmp_path / "default-cards.json"
    path.write_text("[\n" + ",\n".join(json.dumps(c) for c in cards) + "\n]\n", encoding="utf-8")
    assert list(readers.iter_array(path, chunk=4096)) == cards
    cut = tmp_path / "cut.json"
    cut.write_bytes(path.read_bytes()[:300_000])
    with pytest.raises(ReadError, match="truncated") as caught:
        list(readers.iter_array(cut, chunk=4096))
    assert caught.value.line and caught.value.line > 500
    store = CardStore(card_db_path(tmp_path))
    with pytest.raises(ReadError):  # a load with a cut file stores nothing, not even the good files before it
        load_cards(store, [INVENTED, cut])
    assert store.count() == 0 and store.sources() == []
    store.close()


def test_a_load_waits_for_the_library_lock(tmp_path, monkeypatch):
    from rulebook.library import LibraryError
    from rulebook.lock import WriteLock

    monkeypatch.setenv("JUDGE_LOCK_TIMEOUT", "0.2")
    store = CardStore(card_db_path(tmp_path))
    with WriteLock(tmp_path, "load", "other"):
        with pytest.raises(LibraryError, match="busy"):
            load_cards(store, [INVENTED])
    assert store.count() == 0
    store.close()


def test_judge_load_takes_card_files_without_a_book(tmp_path):
    home = tmp_path / "home"
    code, out, err = judge_in(home, "load", INVENTED)
    assert code == 0, err
    assert out.strip() == f"loaded 2 cards (2 new, 0 updated), 0 rulings from {INVENTED} (scryfall-cards)"
    code, out, _ = judge_in(home, "load", INVENTED, "--json")
    [report] = json.loads(out)["cards"]
    assert report["already_loaded"] and report["unchanged"] == 2
    section = (REPO / "docs" / "json.md").read_text(encoding="utf-8").split("## `judge load", 1)[1].split("\n## ", 1)[0]
    assert all(f'"{k}"' in section for k in report), [k for k in report if f'"{k}"' not in section]
    code, out, err = judge_in(home, "load", INVENTED, "--json")
    assert json.loads(out).keys() == {"cards"}
    # A mix: the rule file needs --book; with it, both are loaded.
    code, out, err = judge_in(home, "load", INVENTED, SEED)
    assert (
        code == 2 and err.count("\n") == 1 and "--book is needed for the rule files (riftbound-300-detail.txt)" in err
    )
    code, out, err = judge_in(home, "load", INVENTED, SEED, "--book", "house", "--json")
    assert code == 0 and json.loads(out)["book"] == "house" and json.loads(out)["cards"][0]["already_loaded"]


def test_judge_load_refuses_json_that_is_no_card_file_in_one_line(tmp_path):
    odd = _write(tmp_path / "prices.json", {"object": "error", "code": "not_found", "details": "No card found."})
    code, out, err = judge_in(tmp_path / "home", "load", odd)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "a JSON object with keys object, code, details ('object': 'error')" in err
    assert "neither a rules text nor a card file" in err
    code, out, _ = judge_in(tmp_path / "home", "load", _write(tmp_path / "empty.json", []), "--json")
    assert code == 2 and "an empty JSON list" in json.loads(out)["error"]["message"]


def test_a_rule_file_that_fails_takes_the_cards_of_its_load_back(tmp_path):
    page = tmp_path / "rules.html"
    page.write_text("<!DOCTYPE html>\n<html><body><p>100.1. A rule.</p></body></html>\n", encoding="utf-8")
    home = tmp_path / "home"
    code, out, err = judge_in(home, "load", INVENTED, page, "--book", "house")
    assert code == 2 and "looks like an HTML page" in err
    store = CardStore(card_db_path(home))
    assert store.count() == 0 and store.sources() == []
    store.close()
    faq = tmp_path / "faq.md"  # Markdown that opens with a bracket is text, not JSON
    faq.write_text("[[Download the FAQ]](https://example.org/faq.pdf)\n\nQ: Can I?\nA: Yes.\n", encoding="utf-8")
    assert not readers.looks_like_json(faq) and readers.detect(faq) is None


# -- the names index (rulebook.cards.lookup reads it instead of every name) -----------------------------
def assert_index_is_the_cards(store: CardStore) -> None:
    """``names``, ``name_words`` and ``name_bits`` hold exactly the library's cards, as norm_name and
    name_symbols make them."""
    conn = store.conn
    rows = conn.execute("SELECT id, game, name, norm, front, words, printed FROM names").fetchall()
    assert {r[:3] for r in rows} == set(conn.execute("SELECT id, game, name FROM cards"))
    for _card_id, game, name, norm, front, words, printed in rows:
        assert (norm, front, words) == (norm_name(name), norm_name(name.split(" // ")[0]), len(norm.split())), name
        assert printed == len(store.card(game, name).sets), name
    assert set(conn.execute("SELECT word, id FROM name_words")) == {(w, r[0]) for r in rows for w in r[3].split()}
    expected: dict[str, set[int]] = defaultdict(set)
    for card_id, _, _, norm, *_ in rows:
        if norm:
            words = norm.split()
            expected["#repeats" if len(set(words)) < len(words) else f"#length {len(norm)}"].add(card_id)
            for symbol in name_symbols(norm):
                expected[symbol].add(card_id)
    stored = {key: int.from_bytes(bits, "little") for key, bits in conn.execute("SELECT key, bits FROM name_bits")}
    assert stored == {key: sum(1 << i for i in ids) for key, ids in expected.items()}


def _tables(path: Path, tables: tuple[str, ...]) -> dict[str, list]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}
    finally:
        conn.close()


def test_a_library_of_schema_1_is_upgraded_in_place_keeping_its_cards(tmp_path):
    """cards.db as the first card library wrote it (schema 1, no names index): opened, it gains the index
    in place; its cards, printings, rulings and sources stay as they were."""
    from rulebook.cards.lookup import find_card

    path = card_db_path(tmp_path)
    store = CardStore(path)
    load_cards(store, [INVENTED])
    store.close()
    conn = sqlite3.connect(path)
    for table in ("names", "name_words", "name_bits"):
        conn.execute(f"DROP TABLE {table}")
    for trigger in ("names_stale_ai", "names_stale_ad"):
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    kept = ("sources", "printings", "rulings", "keyword_names", "cards")
    before = _tables(path, kept)
    store = CardStore(path)
    assert store.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("2",)
    assert store.conn.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE 'names_stale_%'").fetchone() == (2,)
    assert _tables(path, kept) == before
    assert_index_is_the_cards(store)
    assert store.names() == [("mtg", "Drill Sergeant Drake"), ("mtg", "Practice Bolt")]
    found, _ = find_card(store, "practise bolt")
    assert (found.card.name, found.matched) == ("Practice Bolt", "spelling")
    found, _ = find_card(store, "drake")
    assert (found.card.name, found.matched) == ("Drill Sergeant Drake", "part")
    [report] = load_cards(store, [INVENTED])  # a load after the upgrade: the file is known, nothing changes
    assert report["already_loaded"] and _tables(path, kept) == before
    store.close()
    again = CardStore(path)  # opened again: nothing left to upgrade
    assert_index_is_the_cards(again)
    again.close()


def test_cards_written_without_the_names_index_are_indexed_again(tmp_path):
    """A card removed by code that does not keep the names index (an older judge's load, here plain SQL):
    the triggers on ``cards`` mark the index stale, and the next open builds it again."""
    path = card_db_path(tmp_path)
    store = CardStore(path)
    load_cards(store, [INVENTED])
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM cards WHERE name = 'Practice Bolt'")
    conn.commit()
    assert conn.execute("SELECT value FROM meta WHERE key = 'names'").fetchone() == ("stale",)
    conn.close()
    store = CardStore(path)
    assert store.names() == [("mtg", "Drill Sergeant Drake")]
    assert_index_is_the_cards(store)
    assert store.conn.execute("SELECT value FROM meta WHERE key = 'names'").fetchone() is None
    store.close()


def test_a_damaged_card_library_is_one_line(fresh_home):
    """A cards.db that is not a database (a disk fault, a file copied over it) is named in one line,
    exit 2, and left where it is for the judge to move away."""
    fresh_home.mkdir(parents=True, exist_ok=True)
    (fresh_home / "cards.db").write_bytes(b"not a database at all " * 100)
    code, _, err = judge_in(fresh_home, "card", "lightning bolt")
    assert code == 2 and err.count("\n") == 1 and "cards.db: cannot open the card library" in err
    assert "Traceback" not in err
    assert (fresh_home / "cards.db").read_bytes().startswith(b"not a database")
