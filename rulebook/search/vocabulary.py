"""The search vocabulary file, ``data/search-synonyms.yaml``: irregular forms and synonym groups.

Judges' words for what the rules call otherwise (see that file and docs/decisions.md, "Search
vocabulary"). Read once per process; :mod:`rulebook.search.query` uses its irregular forms when
stemming, :mod:`rulebook.search.expansion` its groups.

Every search reads it, so the shipped file's table is also kept as JSON in ``$JUDGE_HOME/cache/``
(:mod:`rulebook.search.cache`) with the YAML text it was read from: reading that costs a tenth of a
millisecond, where importing PyYAML and parsing the file cost about 15 ms. A cache whose YAML text is
not the file's is read again from the file, and kept anew.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from rulebook.search import cache as cached

SYNONYMS_FILE = "search-synonyms.yaml"
CACHED = "search-vocabulary.json"  # in $JUDGE_HOME/cache: {"yaml": the file's text, "table": the table}


@cache
def vocabulary_table(path: str | None = None) -> dict[str, Any]:
    """The search vocabulary: ``{"irregular": {form: base}, "groups": [{games, words, rules, broader}]}``;
    empty when the file is absent."""
    file = Path(path) if path else cached.shipped(SYNONYMS_FILE)
    if not file.is_file():
        return {"irregular": {}, "groups": []}
    text = file.read_text(encoding="utf-8")
    if path:  # another file (a test's, a benchmark's): read as it is, not cached
        return _table(_parse(text))
    keep = cached.folder() / CACHED
    try:
        stored = json.loads(keep.read_text(encoding="utf-8"))
        if stored["yaml"] == text:
            return _table(stored["table"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    table = _table(_parse(text))
    plain = {**table, "groups": [{**g, "games": sorted(g["games"])} for g in table["groups"]]}
    cached.keep(keep, json.dumps({"yaml": text, "table": plain}, ensure_ascii=False).encode("utf-8"))
    return table


def _parse(text: str) -> dict[str, Any]:
    """The YAML file's data (libyaml's parser when PyYAML has it: ten times faster, same data)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


def _table(data: dict[str, Any]) -> dict[str, Any]:
    """The table of the file's data (or of a cached table: the same again)."""
    return {"irregular": {str(k).lower(): str(v).lower() for k, v in (data.get("irregular") or {}).items()},
            "groups": [{"games": set(g.get("games") or ()), "words": [str(w).lower() for w in g.get("words") or ()],
                        "rules": [str(w).lower() for w in g.get("rules") or ()],
                        "broader": [str(w).lower() for w in g.get("broader") or ()]}
                       for g in data.get("groups") or ()]}


@cache
def irregular() -> dict[str, str]:
    """Inflected forms the light stemmer cannot reduce, and the word each inflects ("spent": "spend")."""
    return vocabulary_table()["irregular"]
