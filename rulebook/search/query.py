"""Stage 1, the query: its words, judges' shorthand written out, stop words out, misspelt words
corrected, words stemmed.

Also the two stemmers every later stage compares words with: :func:`stem` (light, ours, applied alike
to the question and the rules) and :func:`porter` (SQLite FTS5's, which the index uses).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import sqlite3
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from functools import cache, lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import ClassVar

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from rulebook.search import cache as cached
from rulebook.search.index import SearchIndex, new_word_list, open_word_list, porter_stems, word_list_count
from rulebook.search.settings import DEFAULT, Settings
from rulebook.search.vocabulary import BOTH, irregular, shorthand, shorthand_table
from rulebook.store import Store

STOPWORDS = frozenset(
    """
a about above after again against all am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not
now of off on once only or other our ours ourselves out over own same she should so some such than that
the their theirs them themselves then there these they this those through to too under until up very was
we were what when where which while who whom why will with would you your yours yourself yourselves
get gets got happen happens happened does doing can't cannot may might must shall let lets
work works need needs mean means come comes go goes exactly still also ever really able allowed supposed
know want wants say says tell many much don't doesn't didn't isn't aren't won't
""".split()
)
# Kept although common: words that carry rules meaning in both games.
STOPWORDS = STOPWORDS - {
    "first",
    "before",
    "after",
    "until",
    "each",
    "all",
    "no",
    "not",
    "more",
    "other",
    "might",
    "own",
    "down",
    "up",
    "out",
    "off",
    "same",
    "once",
}

_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*|\d+(?:\.\d+)*[a-z]?")
_TEXT_WORD = re.compile(r"[a-z][a-z'’]*|\d+")


def words(query: str) -> list[str]:
    """The query's words, lower-cased (a rule number is one word).

    >>> words("Who gets Priority in 312.2b?")
    ['who', 'gets', 'priority', 'in', '312.2b']
    """
    return [w.lower().replace("’", "'") for w in _WORD.findall(query)]


def content_words(query: str) -> list[str]:
    """The words that matter for ranking: stop words out, unless nothing would be left.

    >>> content_words("what happens to my creature's counters")
    ['creature', 'counters']
    """
    all_words = [re.sub(r"'s$", "", w).rstrip("'") or w for w in words(query)]  # possessive 's only
    kept = [w for w in all_words if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    return kept or all_words


# A book's words asked for one by one before all of them are read at once: a store kept for many searches
# (judge serve) would otherwise remember every word ever asked, misspellings included.
ASKED_MOST = 4096


class BookWords(Mapping[str, int]):
    """A book's words and how often it uses them (the ``vocab`` table), read as they are asked for.

    Most searches only ask whether a few words are the book's; reading all of a book's words first
    (4,000 for the full Comprehensive Rules) cost 3 ms. A word asked for is looked up by the table's
    key; anything that goes through every word (a correction, the thesaurus) reads them all once, as
    :meth:`rulebook.search.index.SearchIndex.vocabulary` gives them, in the same order.
    """

    _MISSING = object()
    _of: ClassVar[weakref.WeakKeyDictionary[Store, dict[str, BookWords]]] = weakref.WeakKeyDictionary()

    def __init__(self, store: Store, book: str):
        self._index, self._book = SearchIndex.of(store), book
        self._all: dict[str, int] | None = None
        self._asked: dict[str, object] = {}

    @classmethod
    def of(cls, store: Store, book: str) -> BookWords:
        """The book's words over ``store``, made once per store: a store reads one library file, never
        changed in place, so what was read stays true while the store lives (``judge serve`` keeps a
        store per worker thread; the command line makes one a call)."""
        mine = cls._of.setdefault(store, {})
        found = mine.get(book)
        if found is None:
            found = mine[book] = cls(store, book)
        return found

    def _everything(self) -> dict[str, int]:
        if self._all is None:
            self._all = self._index.vocabulary(self._book)
        return self._all

    def __getitem__(self, word: str) -> int:
        if self._all is not None:
            return self._all[word]
        if word not in self._asked:
            if len(self._asked) >= ASKED_MOST:  # a kept store (judge serve): its words read whole instead
                self._asked.clear()
                return self._everything()[word]
            count = self._index.word_count(self._book, word)
            self._asked[word] = self._MISSING if count is None else count
        found = self._asked[word]
        if found is self._MISSING:
            raise KeyError(word)
        return found  # type: ignore[return-value]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        try:
            self[word]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())

    def __bool__(self) -> bool:
        if self._all is not None:
            return bool(self._all)
        return self._index.has_vocabulary(self._book)

    def items(self):
        return self._everything().items()

    def term_words(self) -> set[str]:
        """The book's one-word game terms, its glossary headwords and defined terms ("ganking",
        "showdown", "trample"): what a misspelling is first taken for (:func:`correct`). The words of
        longer headwords are ordinary words ("changing" of Text-Changing Effect)."""
        return {term.lower() for term in self._index.term_names(self._book) if _TEXT_WORD.fullmatch(term.lower())}

    def starting(self, prefix: str) -> list[str]:
        """The book's words whose first ``len(prefix)`` letters are ``prefix``, in the book's order."""
        if self._all is not None:
            return [w for w in self._all if w[: len(prefix)] == prefix]
        return self._index.words_starting(self._book, prefix)


@lru_cache(maxsize=16)
def _shorthand_pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """One regex matching any of the shorthand ``forms`` as a whole word of a query, in any case."""
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![\w/'’-])(?:{alternatives})(?![\w/'’-])", re.I)


def expand_shorthand(query: str, games: set[str] | None, used: Callable[[str], bool] | None = None) -> str:
    """The query with each shorthand word of ``games`` (every game: None) written out as it stands for
    (``data/search-shorthand.yaml``): the first of its meanings the book ``used`` (a phrase's parts
    are in one rule or term: :func:`book_uses`), else the first (the newest wording). A shorthand the
    book uses as a word itself ("APNAP") is kept beside what it means.

    >>> expand_shorthand("do SBAs use the stack", {"mtg"})
    'do state-based actions use the stack'
    >>> expand_shorthand("sba", {"mtg"}, used=lambda phrase: phrase == "state-based effects")
    'state-based effects'
    >>> expand_shorthand("APNAP", {"mtg"}, used=lambda phrase: True)
    'APNAP (active player, nonactive player order)'
    >>> expand_shorthand("sba", {"riftbound"}), expand_shorthand("sbac", {"mtg"})
    ('sba', 'sbac')
    """

    table = shorthand(games)
    if not table:
        return query

    def written_out(m: re.Match[str]) -> str:
        typed = m.group(0)
        means = table[typed.lower()]
        meant = means[0] if used is None else next((p for p in means if used(p)), means[0])
        return f"{typed} ({meant})" if used is not None and used(typed.lower()) else meant

    return _shorthand_pattern(tuple(table)).sub(written_out, query)


def shorthand_games(query: str) -> set[str]:
    """The games whose judges' shorthand the query uses (shorthand of either game not counted): a
    question's game may be told from it ("do SBAs use the stack" is Magic's).

    >>> sorted(shorthand_games("do SBAs use the stack")), sorted(shorthand_games("how many bfs, opp")), shorthand_games("dmg")
    (['mtg'], ['riftbound'], set())
    """

    return {
        game
        for game in shorthand_table()
        if game != BOTH
        and _shorthand_pattern(tuple(f for e in shorthand_table()[game] for f in e["short"])).search(query)
    }


def book_uses(store: Store, phrase: str, book: str | None) -> bool:
    """Whether one rule or glossary term of the book (every book: None) has every comma-separated part
    of ``phrase`` as a phrase (FTS5, Porter-stemmed): "targets, illegal, doesn't resolve" asks for the
    three in one rule."""
    parts = [p.strip() for p in phrase.split(",") if p.strip()]
    if not parts:
        return False
    match = " AND ".join('"' + p.replace('"', '""') + '"' for p in parts)
    return SearchIndex.of(store).matches(match, book)


def correct(
    query: str, vocabulary: Mapping[str, int], known: Callable[[str], bool] | None = None, settings: Settings = DEFAULT
) -> tuple[str, bool]:
    """Replace words that are not words with the closest word the book uses.

    A word is kept when the book uses it, when ``known(word)`` (the book's index already matches it
    in another form: FTS5 is Porter-stemmed, "decide" matches "decided"), or when it is an English
    word (:func:`english`): "killed" is a word, not a typo of "filled".

    Closest is fewest edits, a swap of two neighbouring letters counting one ("conqeur" is one edit
    from "conquer", three from "corner"), within ``settings.correct_edits``; among words as close, the
    one that keeps most of the letters typed, then one of the book's game terms (its one-word glossary
    headwords and defined terms: ``vocabulary.term_words()`` when it has them), then the word the book
    uses most.

    >>> correct("priorty passes", {"priority": 40, "passes": 9, "party": 1})
    ('priority passes', True)
    >>> correct("decide who", {"decided": 3}, known=lambda w: w == "decide")
    ('decide who', False)
    >>> correct("creature killed", {"create": 9, "filled": 3})
    ('creature killed', False)
    >>> correct("conqeur", {"corner": 50, "conquer": 2})[0], correct("conqeur", {"corner": 50})[0]
    ('conquer', 'conqeur')
    """
    out, changed = [], False
    terms: set[str] | None = None
    for token in re.split(r"(\s+)", query):
        word = token.lower()
        if (
            len(word) < settings.correct_min_length
            or not word.isalpha()
            or word in vocabulary
            or word in STOPWORDS
            or english(word)
            or (known and known(word))
        ):
            out.append(token)
            continue
        choice = closest(word, vocabulary, settings, terms if terms is not None else (terms := _term_words(vocabulary)))
        out.append(choice or token)
        changed = changed or choice is not None
    return "".join(out), changed


def closest(
    word: str, vocabulary: Mapping[str, int], settings: Settings = DEFAULT, terms: Collection[str] = frozenset()
) -> str | None:
    """The book's word a misspelt ``word`` stands for (:func:`correct`), or None when none is close.

    >>> closest("shodown", {"shown": 80, "showdown": 5}), closest("gankign", {"ganking": 1, "gaining": 9})
    ('showdown', 'ganking')
    >>> closest("ganking", {"gaining": 9}), closest("sheild", {"shield": 2, "sheila": 9}, terms={"shield"})
    (None, 'shield')
    """

    most = settings.correct_edits[0] if len(word) <= settings.correct_long else settings.correct_edits[1]
    candidates = [w for w in vocabulary if abs(len(w) - len(word)) <= most]
    near = process.extract(word, candidates, scorer=OSA.distance, score_cutoff=most, limit=None)
    if not near:
        return None
    # fewest edits; then the fewest letters changed rather than added or dropped (fuzz.ratio: "counterd" is
    # "countered" sooner than "counter"); then a game term; then the book's most used word
    return min(
        near, key=lambda n: (n[1], -round(fuzz.ratio(word, n[0]), 6), n[0] not in terms, -vocabulary.get(n[0], 0), n[0])
    )[0]


def _term_words(vocabulary) -> set[str]:
    """The words of the book's game terms, when the vocabulary knows them (:meth:`BookWords.term_words`)."""
    found = getattr(vocabulary, "term_words", None)
    return found() if found else set()


ENGLISH_WORDS = ("spellchecker", "resources/en.json.gz")  # package, file: pyspellchecker's English word frequencies
ENGLISH_CACHE = "english-words.db"  # in $JUDGE_HOME/cache: the list's words, indexed (rulebook.search.cache)


def _english_file() -> Path | None:
    """The installed pyspellchecker's English word list, found without importing the package."""

    package, name = ENGLISH_WORDS
    try:
        spec = find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / name
        if path.is_file():
            return path
    return None


@cache
def _english_text() -> str:
    """pyspellchecker's English word list, as the text of its JSON (``"word": count,`` a line each).

    Read straight from the installed package's resource file, without importing the package: the
    file is decompressed once per process (about 12 ms) and a word is then looked up in the text
    (about 1.5 ms); parsing the JSON would cost 90 ms and SpellChecker() 150 ms. Empty when the
    package is not installed: then only the books' vocabulary protects a word."""
    path = _english_file()
    if path is None:
        return ""
    try:
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, ValueError):
        return ""


_ENGLISH_KEY = re.compile(r'(?<=\n)"([^"\n]*)": *(\d*)')  # a line's word and count: '\n"word": 1234,'
ENGLISH_TABLE_VERSION = "2"  # 2: each word's count kept (english_frequency)


@cache
def _english_table() -> sqlite3.Connection | None:
    """The English word list as a SQLite table of its words, kept in ``$JUDGE_HOME/cache``: a word is
    then looked up in microseconds, where decompressing the list costs 12 ms in every process. Made
    from :func:`_english_text` (every line's word as :func:`english` would find it) when absent or made
    from another file (path, size and modification time recorded); None when it cannot be kept."""

    source = _english_file()
    if source is None:
        return None
    st = source.stat()
    made_from = f"{source}|{st.st_size}|{st.st_mtime_ns}"
    path = cached.folder() / ENGLISH_CACHE
    kept = open_word_list(str(path), made_from, ENGLISH_TABLE_VERSION)
    if kept is not None:
        return kept
    text = _english_text()
    if not text:  # unreadable: english() says so from the text, as it would without a cache
        return None
    db = new_word_list(((w, int(n or 0)) for w, n in _ENGLISH_KEY.findall(text)), made_from, ENGLISH_TABLE_VERSION)
    if not cached.keep(path, db.serialize()):
        return None
    return db


@lru_cache(maxsize=4096)
def english(word: str) -> bool:
    """Whether ``word`` (lower case) is in pyspellchecker's English word list.

    >>> english("killed"), english("swings"), english("priorty")
    (True, True, False)
    """
    table = _english_table() if '"' not in word and "\n" not in word else None
    if table is not None:
        return word_list_count(table, word) is not None
    return f'\n"{word}":' in _english_text()


@lru_cache(maxsize=1024)
def english_frequency(word: str) -> int:
    """How often ``word`` (lower case) occurs in the English texts pyspellchecker counted; 0 when it is no
    English word (or the list is not installed). "wear" 207,741, "fame" 10,283, "thragtusk" 0.

    >>> english_frequency("wear") > english_frequency("fame") > english_frequency("thragtusk") == 0
    True
    """
    table = _english_table() if '"' not in word and "\n" not in word else None
    if table is not None:
        return word_list_count(table, word) or 0
    m = re.search(rf'\n"{re.escape(word)}": *(\d+)', _english_text())
    return int(m[1]) if m else 0


def fts_query(terms: list[str]) -> str:
    """An FTS5 query matching any of the words or phrases, each quoted.

    >>> fts_query(['priority', 'non-board zone'])
    '"priority" OR "non-board zone"'
    """
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def index_matches(store: Store, word: str, book: str | None) -> bool:
    """Whether the book's FTS index (Porter-stemmed) matches the word in any form: the typo corrector
    leaves such a word alone ("decide" matches "decided"; "priorty" matches nothing)."""
    return SearchIndex.of(store).matches(fts_query([word]), book)


def porter(words: list[str]) -> dict[str, str]:
    """The index's (Porter) stem of each word, as FTS5 computes it.

    >>> sorted(porter(["vigilence", "vigilance", "decide"]).items())
    [('decide', 'decid'), ('vigilance', 'vigil'), ('vigilence', 'vigil')]
    """
    return porter_stems(words)


def book_forms(terms: list[str], vocabulary: Mapping[str, int]) -> list[str]:
    """Each word the books never use as typed but their index matches (Porter: "vigilence" and
    "vigilance" are both "vigil") in the form the books use, for the rescoring, whose own light stemmer
    would not see them as one word. Other words are kept.

    >>> book_forms(["vigilence", "creature"], {"vigilance": 5, "vigil": 1, "creature": 90})
    ['vigilance', 'creature']
    """
    odd = [t for t in terms if t.isalpha() and len(t) >= 4 and t not in vocabulary]
    if not odd:
        return terms
    starting = getattr(vocabulary, "starting", None)  # a BookWords reads only those words
    near = {
        t: [
            w
            for w in (starting(t[:3]) if starting else vocabulary)
            if w[:3] == t[:3] and abs(len(w) - len(t)) <= 3 and w != t
        ]
        for t in odd
    }
    stems = porter(sorted(set(odd) | {w for ws in near.values() for w in ws}))
    out = []
    for t in terms:
        same = [w for w in near.get(t, ()) if stems.get(w) == stems.get(t)]
        if len(same) > 1:  # several forms of the word: the closest spelling
            out.append(max(same, key=lambda w: (fuzz.ratio(t, w), vocabulary[w])))
        else:
            out.append(same[0] if same else t)
    return out


_VOWEL = re.compile("[aeiouy]").search


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light stemmer, applied alike to the question and the rules: plurals, -ed, -ing, a final e or y.

    >>> [stem(w) for w in ("passes", "passed", "priorities", "damaged", "creatures", "killed", "stopped")]
    ['pass', 'pass', 'prioriti', 'damag', 'creatur', 'kill', 'stop']
    """
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.rstrip("'")
    w = irregular().get(w, w)
    if len(w) <= 3:
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    # -ing, else -ed, when a vowel is left in at least three letters (one test per suffix: every word
    # of a book is stemmed once per search, and slicing for both cost a quarter of the time)
    cut = 3 if w.endswith("ing") else 2 if w.endswith("ed") else 0
    if cut and len(w) - cut >= 3 and _VOWEL(w, 0, len(w) - cut):
        w = w[:-cut]
        if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
            w = w[:-1]
    if len(w) > 3 and w[-1] == "y":
        w = w[:-1] + "i"
    if len(w) > 3 and w[-1] == "e":
        w = w[:-1]
    return w


def stems(text: str | None) -> list[str]:
    """The light stem of every word of a text, in order.

    >>> stems("Creatures dealt damage")
    ['creatur', 'deal', 'damag']
    """
    return list(map(stem, _TEXT_WORD.findall((text or "").lower())))


# Books keep their rules' stems (rules.stems) so that a search does not stem a hundred candidates
# again (2.4 ms of each). Bump when stem() or stems() would stem a stored text otherwise; a test
# records their code's digest for each version, and the version is part of every book's fingerprint.
STEMS_VERSION = "1"


def stemmer() -> str:
    """What stored stems were made with: :data:`STEMS_VERSION` and a digest of the irregular forms
    (``data/search-synonyms.yaml``), part of every book's fingerprint: another stemmer rebuilds the books."""

    table = json.dumps(sorted(irregular().items()), ensure_ascii=False)
    return f"{STEMS_VERSION}:{hashlib.sha256(table.encode('utf-8')).hexdigest()[:16]}"


def stored_stems(title: str | None, text: str | None, examples: Iterable[str] = ()) -> str:
    """A rule's stems as its book keeps them (``rules.stems``): a line for its title, one for its text,
    then one per example, the stems separated by spaces (a stem holds neither).

    >>> stored_stems("Priority", "Players pass priority.", ["Alice passed."])
    'prioriti\\nplayer pass prioriti\\nalic pass'
    >>> rule_stems(stored_stems(None, "Draw.", []))
    ([], ['draw'], [])
    """
    return "\n".join(" ".join(stems(part)) for part in (title, text, *examples))


def rule_stems(stored: str) -> tuple[list[str], list[str], list[list[str]]]:
    """The stems of a rule's title, of its text and of each example, from :func:`stored_stems`."""
    title, text, *examples = stored.split("\n")
    return title.split(), text.split(), [e.split() for e in examples]


def phrase_stems(phrase: str) -> tuple[str, ...]:
    """The stems of a word or phrase, as a tuple to compare phrases with."""
    return tuple(stem(w) for w in _TEXT_WORD.findall(phrase.lower()))
