"""Probability lessons: exact answers from the deck composition next to Monte Carlo.

Every question has an **exact** answer (a :class:`fractions.Fraction`, with a float
view) computed by counting, and a **seeded simulation** of the same question that
returns an :class:`Estimate` (estimate, standard error, 95% confidence interval, number
of simulations). A lesson shows both side by side, and :func:`running_estimates` /
:func:`convergence_figure` show the law of large numbers at work.

>>> p = p_tavern_shows("H", n=3, players=3, age=1)
>>> p.value == 1 - Fraction(comb(30, 3), comb(36, 3))
True
>>> est = simulate_tavern_shows("H", n=3, players=3, age=1, trials=4000, seed=1)
>>> abs(est.estimate - float(p)) < 4 * est.se
True

One module per concern:

- :mod:`.results`: what an answer is (``Exact``, ``Estimate``, ``Distribution``,
  ``DistributionEstimate``, ``estimate_from``, ``side_by_side``);
- :mod:`.pools`: targets and card pools (the box deck, a live game's unseen cards);
- the question families: :mod:`.taverns` (a tavern shows a class; a round's count,
  hypergeometric), :mod:`.ages` (a card reaches the taverns in an age; expectations),
  :mod:`.lines` (a first line, simulation only), :mod:`.bids` (bid ties), :mod:`.trades`
  (the coin a trade takes), :mod:`.strategies` (bot against bot over whole games);
- :mod:`.figures`: running estimates and the figures;
- :mod:`.questions`: the lab's questions by key, each with the named numbers of its exact
  answer (``Question.facts``), which lesson texts quote through placeholders.

Targets: a class (``"H"``, ``"hunter"``, :class:`~nidavellir.cards.Suit`), a card token
(``"W10"``, ``"+3"``), or ``"RO"`` for any Royal Offering.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from ...stats import Z95
from .ages import (
    PIONEER_POLICIES,
    appears_trial,
    expected_seen,
    p_appears,
    seen_by_round,
    simulate_appears,
    simulate_expected_seen,
)
from .bids import bid_tie_trial, p_bid_tie, simulate_bid_tie
from .figures import convergence_figure, distribution_figure, running_estimates
from .lines import LINE_ASSUMPTION, line_curve, simulate_line
from .pools import Target, box_pool, deck_composition, pool_for, target, unseen_pool
from .questions import (
    ASKS,
    GRADES,
    QUESTION_KINDS,
    QUESTIONS,
    SIMULATION_FACTS,
    Question,
    QuestionKind,
    parse_coins,
    parse_treasury,
    question,
    register,
)
from .results import (
    Distribution,
    DistributionEstimate,
    Estimate,
    Exact,
    estimate_from,
    format_outcome,
    outcome_key,
    side_by_side,
)
from .strategies import compare_strategies, strategy_seats, strategy_summary
from .taverns import (
    p_tavern_shows,
    round_distribution,
    round_trial,
    simulate_round_distribution,
    simulate_tavern_shows,
    tavern_trial,
)
from .trades import simulate_trade, trade_distribution, trade_trial

__all__ = [
    "Z95", "Exact", "Estimate", "Distribution", "DistributionEstimate", "Target", "target",
    "box_pool", "unseen_pool", "pool_for", "deck_composition",
    "p_tavern_shows", "simulate_tavern_shows", "tavern_trial",
    "round_distribution", "simulate_round_distribution", "round_trial",
    "p_appears", "simulate_appears", "expected_seen", "simulate_expected_seen",
    "seen_by_round", "appears_trial", "PIONEER_POLICIES",
    "simulate_line", "line_curve", "LINE_ASSUMPTION",
    "p_bid_tie", "simulate_bid_tie", "bid_tie_trial",
    "trade_distribution", "simulate_trade", "trade_trial",
    "compare_strategies", "strategy_summary", "strategy_seats",
    "estimate_from", "side_by_side", "running_estimates", "convergence_figure",
    "distribution_figure", "format_outcome", "outcome_key",
    "Question", "question", "QUESTIONS", "ASKS", "SIMULATION_FACTS", "QUESTION_KINDS",
    "QuestionKind", "register", "GRADES", "parse_coins", "parse_treasury",
    "Fraction", "comb",
]
