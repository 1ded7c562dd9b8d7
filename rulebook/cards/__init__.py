"""Cards (issue 21): read from the files publishers ship (:mod:`rulebook.cards.readers`), kept one per game
and name in ``$JUDGE_HOME/cards.db`` (:mod:`rulebook.cards.store`), found as a judge names them
(:mod:`rulebook.cards.lookup`). The model is :mod:`rulebook.cards.model`."""
