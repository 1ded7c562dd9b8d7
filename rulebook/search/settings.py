"""Every number the ranking was tuned with, in one place.

A stage reads its numbers from the :class:`Settings` it is given, never from a module constant, so a
benchmark can try other values without editing code::

    from dataclasses import replace
    search(store, question, settings=replace(Settings(), proximity_bonus=0.5))

The defaults are the values measured in docs/benchmarks.md; change one only with a measurement.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


# repr=False: the generated repr of forty fields is compiled afresh in every process (0.9 ms of each
# search's start); the one below is compiled once with the module, and names only what was changed.
@dataclass(frozen=True, repr=False)
class Settings:
    """The tuning of every search stage (defaults: what ships).

    >>> Settings()
    Settings()
    >>> Settings(proximity_bonus=0.5, candidates=50)
    Settings(candidates=50, proximity_bonus=0.5)
    """

    # Query: typo correction (query.correct) ---------------------------------------------------
    correct_min_length: int = 4
    """A word shorter than this is never corrected (too many real words lie within a letter of it)."""
    correct_edits: tuple[int, int] = (1, 2)
    """A correction is at most this many edits from the word typed (a letter added, dropped or changed,
    or two neighbours swapped: optimal string alignment): the first for a word of up to
    ``correct_long`` letters, the second for a longer one."""
    correct_long: int = 7
    """... (the length beyond which two edits are allowed)."""

    # Lexical: bm25 candidates (lexical) --------------------------------------------------------
    candidates: int = 100
    """bm25 candidates read and rescored per search."""
    title_weight: float = 4.0
    """bm25 column weight of a rule's title when picking the candidates (its text counts 1)."""
    examples_weight: float = 0.5
    """bm25 column weight of a rule's examples when picking the candidates."""
    term_weights: tuple[float, float] = (6.0, 1.0)
    """bm25 column weights of a glossary term's headword and its definition."""
    ruling_weights: tuple[float, float, float] = (0.5, 2.0, 1.0)
    """bm25 column weights of a ruling's topic, question and answer."""

    # Lexical: rescoring (every signal multiplies the candidate's bm25 score) --------------------
    coverage_power: float = 1.0
    """x coverage ** power: coverage is the idf-weighted share of the query's words the rule has."""
    context_credit: float = 0.6
    """A query word found only in the headings above the rule (or its parent's text) counts this much."""
    prefix_credit: float = 0.7
    """A rule word that the query word begins ("react" in "reaction") counts this much."""
    prefix_min: int = 4
    """... for query words at least this long."""
    example_credit: float = 0.7
    """A query word found only in the rule's examples (the situation a judge describes) counts this much."""
    proximity_bonus: float = 0.25
    """x (1 + bonus) per adjacent pair of query words found close together in the rule (or one example)."""
    proximity_window: int = 3
    """"Close": at most this many words apart, either order."""
    cited_weight: float = 0.1
    """x (1 + weight * ln(1 + references to the rule)): the citation graph's in-degree."""
    defines_factor: float = 2.0
    """x this for the rule that defines a term the query names (Riftbound: a derived term's rule; MTG:
    the glossary entry's "See rule ..."), and its sub-rules."""
    heading_factor: float = 0.5
    """x this for a heading (a rule with a title and no text): it names a topic but answers nothing."""
    repeat_similarity: float = 0.8
    """A rule whose word stems overlap (Jaccard) this much with a rule ranked above it is a repeat ..."""
    repeat_factor: float = 0.5
    """... and its score is multiplied by this, so the top of the list offers different answers."""

    # Expansion: the search vocabulary (data/search-synonyms.yaml) -------------------------------
    synonym_credit: float = 0.6
    """A synonym group's other word (or the rules' own word), in place of the word typed."""
    broader_credit: float = 0.5
    """What the word typed is an instance of ("trash" -> "non-board zone")."""
    un_credit: float = 0.7
    """"un" + the word typed ("spend" / "unspent", "block" / "unblocked")."""
    un_min: int = 4
    """... for words at least this long."""

    # Expansion: the book's own thesaurus (expansion.associated) -------------------------------
    associated_credit: float = 0.4
    """A word the book uses mostly together with the query word (0 turns the thesaurus off)."""
    associated_terms: int = 8
    """... this many per query word."""
    associated_docs: int = 60
    """... read from the query word's first rules by bm25."""
    associated_min_docs: int = 3
    """... found in at least this many of them."""
    associated_min_idf: float = 3.0
    """... only for query words at least this rare (idf as for coverage): the associates of common
    words are generic, and reading their rules costs time."""

    # Expansion: two defined terms together (expansion.interactions) --------------------------
    interaction_credit: float = 0.5
    """A query word whose term the rule does not name but whose definition's terms it uses."""
    interaction_min_idf: float = 4.0
    """... between terms rare enough to be the question's subject ("deathtouch", not "creature")."""
    interaction_max_uses: int = 40
    """... counting only definition terms that at most this many rules use (not "creature", "player")."""

    # The answer: rules first for a question (answer.rules_first) -------------------------------
    question_words: int = 3
    """A query with more content words than this reads as a question (so does one that starts with a
    question word or ends with "?")."""
    rules_first_top: int = 5
    """For a question, the first this many hits ..."""
    rules_first_others: int = 2
    """... hold at most this many terms and rulings while rules remain (a question is answered by rules)."""

    # Fusion: words and meaning (fusion.fuse) ------------------------------------------------
    fusion_depth: int = 100
    """Rules taken from each list (words, meaning) into the fusion."""
    fusion_k: int = 5
    """Reciprocal rank fusion: a rule scores the sum over the lists of weight / (k + its rank there)."""
    meaning_weight: float = 1.75
    """The meaning model's list counts this much against the words' 1."""
    meaning_only_cosine: float = 0.55
    """A rule no word matched needs at least this cosine to be shown: 95% of answers' best rows reach
    it on the evaluation questions. A query none of whose words a book uses gets nothing from it."""
    meaning_familiar: float = 0.5
    """... and the query must be at least this near (cosine) a remembered judges' question of the book:
    99% of the evaluation questions are (0.548 and more), nonsense is not ("quantum chromodynamics
    lecture notes" 0.43, "my cat likes tuna fish" 0.46)."""
    fused_tail_decay: float = 0.99
    """A fused rule ranked below every word hit scores the last word score x this per place further."""

    def __repr__(self) -> str:
        changed = (f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if getattr(self, f.name) != f.default)
        return f"Settings({', '.join(changed)})"


DEFAULT = Settings()
