"""Scenarios: a situation of play written as a file (``shared/spec/scenarios.md``), stepped through a
game's reference engine and explained rule by rule.

- :mod:`scenarios.scenario`: reading a scenario file, with errors that name their line;
- :mod:`scenarios.citations`: the citation tables, which give each citation key its rule numbers in an
  edition, and carry them onto another edition's book;
- :mod:`scenarios.expectations`: the ``expect`` items checked against the steps;
- :mod:`scenarios.explain`: :func:`~scenarios.explain.explain`, which returns an
  :class:`~scenarios.explain.Explanation`;
- :mod:`scenarios.render`: the explanation as text or markdown.

The engines (``engine/``) stay pure and do no I/O; this package reads files and the library for them,
and the command line (``judge/``) only prints.
"""
