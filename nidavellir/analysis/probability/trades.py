"""Question family 6: the coin a trade takes from the Royal Treasury (R6, R7)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from ... import cards as C
from ... import coins as K
from ...i18n import _
from .pools import run_trials
from .results import Distribution, DistributionEstimate, distribution_estimate

if TYPE_CHECKING:
    from ...game import Game


# ====================================================================== 6. the coin a trade gives

def _coin(c: int | str) -> int:
    """A coin code from a value or label: 0 is the bronze exchange coin, ``3*`` the
    Hunting Master's coin, any other value a gold coin (bronze vs gold only decides
    which of two equal coins goes back, never the value taken, R7)."""
    if isinstance(c, str):
        text = K.parse_label(c)
        if text.endswith("*"):
            return K.HUNTER_COIN
        c = int(text)
    if c == C.EXCHANGE_COIN_VALUE:
        return K.EXCHANGE_COIN
    return K.gold(int(c))


def _treasury(treasury: K.Treasury | Mapping[int, int] | None, players: int) -> K.Treasury:
    if treasury is None:
        return K.Treasury(C.treasury(players))
    if isinstance(treasury, K.Treasury):
        return treasury.copy()
    return K.Treasury(dict(treasury))


def _trade_result(a: int, b: int, treasury: K.Treasury) -> int | None:
    give, _keep = K.trade_pair(a, b)
    return treasury.lookup(K.value(a) + K.value(b), K.value(give))


def _purse_coins(hand: Sequence[int] | None, purse: Sequence[int] | None) -> list[int]:
    """The coins the purse is drawn from: the purse itself, or the hand without its
    exchange coin (the purse is then 2 of them at random)."""
    if purse is not None:
        if len(purse) != 2:
            raise ValueError(_("a purse holds 2 coins, not {n}").format(n=len(purse)))
        return list(purse)
    if hand is None:
        raise ValueError(_("give a hand (the purse is then random) or a purse"))
    others = list(hand)
    exchange = [c for c in others if K.is_exchange(c)]
    if not exchange:
        raise ValueError(_("a trade needs the exchange coin ({coins}) in the hand").format(
            coins="0 or 3*"))
    others.remove(exchange[0])
    if len(others) < 2:
        raise ValueError(_("a trade needs 2 more coins than the exchange coin"))
    return others


def _trade_inputs(hand: Iterable[int | str] | None, purse: Iterable[int | str] | None,
                  treasury: K.Treasury | Mapping[int, int] | None, players: int,
                  game: Game | None, seat: int) -> tuple[list[int], K.Treasury]:
    if game is not None:
        players = game.config.players
        if treasury is None:
            treasury = game.state.treasury
        if hand is None and purse is None:
            coins = sorted(game.state.players[seat].coins())
            return _purse_coins(coins, None), _treasury(treasury, players)
    hand_c = [_coin(c) for c in hand] if hand is not None else None
    purse_c = [_coin(c) for c in purse] if purse is not None else None
    return _purse_coins(hand_c, purse_c), _treasury(treasury, players)


def trade_distribution(hand: Iterable[int | str] | None = None,
                       purse: Iterable[int | str] | None = None,
                       treasury: K.Treasury | Mapping[int, int] | None = None,
                       players: int = 3, game: Game | None = None, seat: int = 0
                       ) -> Distribution:
    """The value of the coin a trade takes from the treasury (``None``: no coin
    qualifies, the purse stays), by :meth:`nidavellir.coins.Treasury.lookup` (R6) and
    :func:`nidavellir.coins.trade_pair` (R7).

    With a ``purse`` the answer is certain. With a ``hand`` (5 coins including the
    exchange coin) the player bids the exchange coin and 2 other coins at random, so the
    purse is each of the C(4, 2) = 6 pairs of the other coins with probability 1/6.
    ``game`` takes the hand of ``seat`` and the treasury from a live game (coins are
    public knowledge: every transform and trade is announced).
    """
    coins, tre = _trade_inputs(hand, purse, treasury, players, game, seat)
    pairs = list(itertools.combinations(coins, 2))
    counts = Counter(_trade_result(a, b, tre) for a, b in pairs)
    pmf = {v: Fraction(n, len(pairs)) for v, n in counts.items()}
    shown = ", ".join(f"{K.label(a)}+{K.label(b)}" for a, b in pairs)
    return Distribution("coin taken by a trade", pmf,
                        f"each purse equally likely: {shown}; Treasury.lookup(sum, given up)",
                        {"purses": len(pairs), "treasury": tre.as_dict()})


def trade_trial(hand: Iterable[int | str] | None = None, purse: Iterable[int | str] | None = None,
                treasury: K.Treasury | Mapping[int, int] | None = None, players: int = 3,
                game: Game | None = None, seat: int = 0) -> Callable[[random.Random], int | None]:
    coins, tre = _trade_inputs(hand, purse, treasury, players, game, seat)

    def trial(rng: random.Random) -> int | None:
        a, b = rng.sample(coins, 2)  # the two coins left in the purse
        return _trade_result(a, b, tre)
    return trial


def simulate_trade(hand: Iterable[int | str] | None = None,
                   purse: Iterable[int | str] | None = None,
                   treasury: K.Treasury | Mapping[int, int] | None = None, players: int = 3,
                   game: Game | None = None, seat: int = 0, trials: int = 10_000,
                   seed: int | None = 0) -> DistributionEstimate:
    """Random bids (the purse = 2 random coins of the 4 others), then the R6 lookup."""
    trial = trade_trial(hand, purse, treasury, players, game, seat)
    return distribution_estimate("coin taken by a trade", run_trials(trial, trials, seed), seed)
