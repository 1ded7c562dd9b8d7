"""The search vocabulary files: ``data/search-synonyms.yaml`` (irregular forms and synonym groups) and
``data/search-shorthand.yaml`` (judges' shorthand, a table per game).

Judges' words for what the rules call otherwise (see those files and docs/decisions.md, "Search
vocabulary" and "Judges' shorthand"). Read once per process; :mod:`rulebook.search.query` uses the
irregular forms when stemming and the shorthand before correcting a query,
:mod:`rulebook.search.expansion` the groups, :func:`rulebook.terms.find_terms` the shorthand.

Every search reads them, and importing PyYAML and parsing the files cost about 15 ms, so each is
shipped with a JSON twin (``search-synonyms.json``, ``search-shorthand.json``) made from it by
:mod:`rulebook.search.vocabulary_source` (``python -m rulebook.search.vocabulary_source`` after editing
a YAML file; a test fails while a twin is out of date). A search reads the twins: a tenth of a
millisecond.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from rulebook.search import cache as cached

SYNONYMS_FILE = "search-synonyms.yaml"
SHORTHAND_FILE = "search-shorthand.yaml"
BOTH = "both"  # the shorthand table's key for entries of either game
GENERATED = "_generated"  # the twin's note naming its source: not part of the table


def twin(name: str) -> str:
    """The JSON twin's name of the YAML file ``name``."""
    return name.removesuffix(".yaml") + ".json"


def _twin_data(name: str) -> dict[str, Any] | None:
    """The data of the shipped YAML file ``name``, read from its JSON twin; None when absent."""
    try:
        data = json.loads(cached.shipped(twin(name)).read_text(encoding="utf-8"))
    except OSError:
        return None
    data.pop(GENERATED, None)
    return data


@cache
def vocabulary_table() -> dict[str, Any]:
    """The search vocabulary: ``{"irregular": {form: base}, "groups": [{games, words, rules, broader}]}``;
    empty when the file is absent."""
    return _table(_twin_data(SYNONYMS_FILE) or {})


def _table(data: dict[str, Any]) -> dict[str, Any]:
    """The table of the file's data (or of a twin's: the same again)."""
    return {
        "irregular": {str(k).lower(): str(v).lower() for k, v in (data.get("irregular") or {}).items()},
        "groups": [
            {
                "games": set(g.get("games") or ()),
                "words": [str(w).lower() for w in g.get("words") or ()],
                "rules": [str(w).lower() for w in g.get("rules") or ()],
                "broader": [str(w).lower() for w in g.get("broader") or ()],
            }
            for g in data.get("groups") or ()
        ],
    }


@cache
def irregular() -> dict[str, str]:
    """Inflected forms the light stemmer cannot reduce, and the word each inflects ("spent": "spend")."""
    return vocabulary_table()["irregular"]


@cache
def shorthand_table() -> dict[str, list[dict[str, Any]]]:
    """Judges' shorthand, by game (``both``: either game): ``{game: [{"short": [forms], "means":
    [phrases, newest first]}]}``, in lower case; empty when the file is absent."""
    return _shorthand(_twin_data(SHORTHAND_FILE) or {})


def _shorthand(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The shorthand table of the file's data (or of a twin's: the same again)."""
    return {
        str(game): [
            {
                "short": [str(s).lower() for s in e.get("short") or ()],
                "means": [str(m).lower() for m in e.get("means") or ()],
            }
            for e in entries or ()
            if e.get("short") and e.get("means")
        ]
        for game, entries in (data or {}).items()
    }


def shorthand(games: set[str] | None) -> dict[str, list[str]]:
    """Each shorthand form of ``games`` (every game: None) and what it means, newest wording first
    (``{"sba": ["state-based actions", "state-based effects"]}``). A form that two of the games read
    otherwise is left out: a search of several games at once cannot say which is meant.

    >>> shorthand({"mtg"})["sba"]
    ['state-based actions', 'state-based effects']
    >>> "etb" in shorthand({"riftbound"}), "bf" in shorthand({"riftbound"}), "dmg" in shorthand({"riftbound"})
    (False, True, True)
    """
    table = shorthand_table()
    keys = [g for g in table if g == BOTH or games is None or g in games]
    out: dict[str, list[str]] = {}
    clash: set[str] = set()
    for game in keys:
        for entry in table[game]:
            for form in entry["short"]:
                if form in out and out[form] != entry["means"]:
                    clash.add(form)
                out.setdefault(form, entry["means"])
    return {form: means for form, means in out.items() if form not in clash}
