"""The search vocabulary files: ``data/search-synonyms.yaml`` (irregular forms and synonym groups) and
``data/search-shorthand.yaml`` (judges' shorthand, a table per game).

Judges' words for what the rules call otherwise (see those files and docs/decisions.md, "Search
vocabulary" and "Judges' shorthand"). Read once per process; :mod:`rulebook.search.query` uses the
irregular forms when stemming and the shorthand before correcting a query,
:mod:`rulebook.search.expansion` the groups, :func:`rulebook.terms.find_terms` the shorthand.

Every search reads them, so each shipped file's table is also kept as JSON in ``$JUDGE_HOME/cache/``
(:mod:`rulebook.search.cache`) with the YAML text it was read from: reading that costs a tenth of a
millisecond, where importing PyYAML and parsing the file cost about 15 ms. A cache whose YAML text is
not the file's is read again from the file, and kept anew.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from rulebook.search import cache as cached

SYNONYMS_FILE = "search-synonyms.yaml"
CACHED = "search-vocabulary.json"  # in $JUDGE_HOME/cache: {"yaml": the file's text, "table": the table}
SHORTHAND_FILE = "search-shorthand.yaml"
SHORTHAND_CACHED = "search-shorthand.json"  # the same, for the shorthand
BOTH = "both"  # the shorthand table's key for entries of either game


def _kept(
    name: str,
    kept_as: str,
    path: str | None,
    table: Callable[[dict], dict],
    plain: Callable[[dict], dict] = lambda t: t,
) -> dict[str, Any] | None:
    """The table of the shipped file ``name`` (or of ``path``, not cached), through its JSON copy
    ``kept_as`` in the cache folder; None when the file is absent. ``plain``: the table as JSON can
    keep it (sets as sorted lists); ``table`` reads either the file's data or that back."""
    file = Path(path) if path else cached.shipped(name)
    if not file.is_file():
        return None
    text = file.read_text(encoding="utf-8")
    if path:  # another file (a test's, a benchmark's): read as it is, not cached
        return table(_parse(text))
    keep = cached.folder() / kept_as
    try:
        stored = json.loads(keep.read_text(encoding="utf-8"))
        if stored["yaml"] == text:
            return table(stored["table"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    made = table(_parse(text))
    cached.keep(keep, json.dumps({"yaml": text, "table": plain(made)}, ensure_ascii=False).encode("utf-8"))
    return made


@cache
def vocabulary_table(path: str | None = None) -> dict[str, Any]:
    """The search vocabulary: ``{"irregular": {form: base}, "groups": [{games, words, rules, broader}]}``;
    empty when the file is absent."""
    found = _kept(
        SYNONYMS_FILE,
        CACHED,
        path,
        _table,
        lambda t: {**t, "groups": [{**g, "games": sorted(g["games"])} for g in t["groups"]]},
    )
    return found if found is not None else {"irregular": {}, "groups": []}


def _parse(text: str) -> dict[str, Any]:
    """The YAML file's data (libyaml's parser when PyYAML has it: ten times faster, same data)."""
    import yaml  # only when the JSON copy is stale: every search reads the copy

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


def _table(data: dict[str, Any]) -> dict[str, Any]:
    """The table of the file's data (or of a cached table: the same again)."""
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
def shorthand_table(path: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Judges' shorthand, by game (``both``: either game): ``{game: [{"short": [forms], "means":
    [phrases, newest first]}]}``, in lower case; empty when the file is absent."""
    return _kept(SHORTHAND_FILE, SHORTHAND_CACHED, path, _shorthand) or {}


def _shorthand(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The shorthand table of the file's data (or of a cached table: the same again)."""
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
