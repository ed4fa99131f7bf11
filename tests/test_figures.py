"""Figure builders on known frames: the scripted round of test_frames, and hand-made frames."""

from __future__ import annotations

import pandas as pd
import pytest
from test_frames import NAMES, scripted_game

from nidavellir.analysis import figures as G
from nidavellir.analysis import frames as F
from widgets.style import CLASS_COLOURS


@pytest.fixture(scope="module")
def tl() -> F.Timeline:
    return F.Timeline(scripted_game())


def by_name(fig, name: str):
    hits = [t for t in fig.data if t.name == name]
    assert len(hits) == 1, [t.name for t in fig.data]
    return hits[0]


def test_coin_economy_traces(tl: F.Timeline) -> None:
    fig = G.coin_economy(tl.coins_frame(), tl.events_frame(), tl.treasury_frame())
    assert [t.name for t in fig.data] == [
        *NAMES, "Royal Offering", "Trade", *(f"{n} coins" for n in NAMES),
        "Coins left", "Highest coin left"]
    steps = list(range(-1, 13))
    ann = by_name(fig, "Ann")
    assert list(ann.x) == steps
    assert list(ann.y) == [14] * 5 + [17] * 9  # the +3 transform at step 4
    assert list(by_name(fig, "Bo").y) == [14] * 13 + [16]
    offering = by_name(fig, "Royal Offering")
    assert (list(offering.x), list(offering.y)) == ([4], [17])
    assert "transforms coin 5 into 8" in offering.hovertext[0]
    trade = by_name(fig, "Trade")
    assert (list(trade.x), list(trade.y)) == ([12], [16])
    assert list(by_name(fig, "Coins left").y) == [28] * 5 + [27] * 8 + [26]
    assert set(by_name(fig, "Highest coin left").y) == {25}
    # Five coin lines per player, separated by gaps.
    coins = by_name(fig, "Ann coins")
    assert list(coins.y).count(None) == 5 and len(coins.y) == 5 * (len(steps) + 1)
    assert fig.layout.title.text == "Coin economy"
    assert fig.layout.xaxis3.title.text == G.STEP_AXIS


def test_class_ranks_traces(tl: F.Timeline) -> None:
    fig = G.class_ranks(tl.players_frame())
    names = [t.name for t in fig.data]
    assert names[:7] == ["Warriors", "Hunters", "Miners", "Blacksmiths", "Explorers",
                         "Complete lines", "Heroes"]
    assert names[7:] == list(NAMES) * 5 and len(fig.data) == 7 + 5 * 3
    warriors = by_name(fig, "Warriors")
    assert list(warriors.x) == list(NAMES) and list(warriors.y) == [0, 2, 0]
    assert list(warriors.text) == ["0", "2★", "0"]
    assert warriors.marker.color == CLASS_COLOURS["W"]
    assert list(by_name(fig, "Explorers").text) == ["1★", "0", "1★"]
    assert list(by_name(fig, "Complete lines").y) == [0, 0, 0]
    # Over time: Bo's warrior ranks (W9 at step 5, W8 at step 12).
    bo_warriors = fig.data[7 + 1]
    assert list(bo_warriors.y) == [0] * 6 + [1] * 7 + [2]
    assert [t.showlegend for t in fig.data[7:10]] == [True] * 3
    assert not any(t.showlegend for t in fig.data[10:])


def test_class_ranks_at_an_earlier_step(tl: F.Timeline) -> None:
    fig = G.class_ranks(tl.players_frame(), step=5)
    assert list(by_name(fig, "Warriors").y) == [0, 1, 0]
    assert "step 5" in fig.layout.annotations[0].text


def test_score_breakdown_stacks_the_scoring_categories(tl: F.Timeline) -> None:
    fig = G.score_breakdown(F.score_frame(tl.game))
    assert [t.name for t in fig.data] == ["Warriors", "Hunters", "Miners", "Blacksmiths",
                                          "Explorers", "Coins"]
    assert list(by_name(fig, "Warriors").y) == [0, 22, 0]
    assert list(by_name(fig, "Coins").y) == [17, 16, 14]
    assert fig.layout.barmode == "stack"
    assert [a.text for a in fig.layout.annotations] == ["<b>30</b>", "<b>41</b>", "<b>28</b>"]


def test_running_score(tl: F.Timeline) -> None:
    fig = G.running_score(tl.players_frame())
    assert [t.name for t in fig.data] == list(NAMES)
    assert by_name(fig, "Bo").y[-1] == 41


def test_hero_timeline_groups_heroes_by_class() -> None:
    events = pd.DataFrame({
        "step": [30, 35, 40, 41], "age": [1, 1, 2, 2],
        "kind": ["HeroRecruited", "AgeEnded", "HeroRecruited", "HeroRecruited"],
        "card": ["Skaa", None, "Kraal", "Dwerg Ymir"],
        "name": ["Ann", None, "Bo", "Ann"],
        "description": ["Ann recruits Skaa", "End of age 1", "Bo recruits Kraal",
                        "Ann recruits Dwerg Ymir"],
    })
    fig = G.hero_timeline(events, names=["Ann", "Bo", "Cy"])
    assert [t.name for t in fig.data] == ["Warrior heroes", "Neutral heroes"]
    kraal, neutral = fig.data
    assert (list(kraal.x), list(kraal.y), list(kraal.text)) == ([40], ["Bo"], ["Kraal"])
    assert list(neutral.text) == ["Skaa", "Dwerg Ymir"]
    assert kraal.marker.color == CLASS_COLOURS["W"]
    assert neutral.marker.color == CLASS_COLOURS["neutral"]
    assert list(fig.layout.yaxis.categoryarray) == ["Ann", "Bo", "Cy"]
    assert fig.layout.shapes[0].x0 == 35.5


def test_hero_timeline_without_heroes(tl: F.Timeline) -> None:
    fig = G.hero_timeline(tl.events_frame(), names=NAMES)
    assert len(fig.data) == 0 and fig.layout.title.text == "Heroes recruited"


def test_figures_of_a_whole_game_mark_the_second_age() -> None:
    from nidavellir.bots import play_game

    tl = F.Timeline(play_game(3, "random", seed=2))
    fig = G.coin_economy(tl.coins_frame(), tl.events_frame(), tl.treasury_frame())
    first_of_age_2 = int(tl.players_frame().query("age == 2")["step"].min())
    assert {s.x0 for s in fig.layout.shapes} == {first_of_age_2 - 0.5}
    heroes = tl.events_frame().query("kind == 'HeroRecruited'")
    fig = G.hero_timeline(tl.events_frame(), names=tl.names)
    assert sum(len(t.x) for t in fig.data) == len(heroes)


# ---------------------------------------------------------------------- live charts

@pytest.mark.slow(reason='the live charts drawn after every decision of a game: about 1.5 s of CPU')
def test_live_charts_redraw_after_every_decision() -> None:
    from nidavellir import Game
    from widgets.charts import PLOTLY_MIME, LiveCharts
    from widgets.session import Session

    session = Session(Game.new(players=2, seed=4), ["human", "random"])
    charts = LiveCharts(session)
    assert list(charts.outputs) == ["coins", "ranks"]
    for _ in range(4):
        session.submit(session.game.legal_actions()[0])
        assert charts.drawn_at == len(session.game.history) and charts.error is None
        spec = charts.figure("coins")
        assert len(spec["data"][0]["x"]) == len(session.game.history) + 1
        assert spec["config"]["displaylogo"] is False
    output = charts.outputs["ranks"].outputs
    assert len(output) == 1 and set(output[0]["data"]) == {PLOTLY_MIME, "text/plain"}
    session.undo()
    assert charts.drawn_at == len(session.game.history)
    assert session.new_game({"players": 3, "seats": ["human", "random", "random"], "seed": 5})
    assert len(charts.figure("coins")["data"][0]["x"]) == len(session.game.history) + 1


def test_live_charts_lose_no_update_that_arrives_while_drawing() -> None:
    from widgets.charts import LiveCharts

    class Plain:
        def __init__(self) -> None:
            self.game = scripted_game(3)
            self.observers: list = []

        def notify(self) -> None:
            for observer in self.observers:
                observer(self)

    session = Plain()
    charts = LiveCharts(session, charts=("coins",))
    draw = charts.refresh
    calls = []

    def slow_refresh() -> None:
        if not calls:  # another decision lands while the first redraw runs
            session.game.apply("take +3")
            session.notify()
        calls.append(len(session.game.history))
        draw()

    charts.refresh = slow_refresh  # type: ignore[method-assign]
    session.notify()
    assert calls == [4, 4] and charts.drawn_at == 4
    assert len(charts.figure("coins")["data"][0]["x"]) == 5


def test_live_charts_hide_bids_not_yet_revealed() -> None:
    from widgets.charts import HIDDEN_BID, mask_hidden_bids

    game = scripted_game(2)  # Ann and Bo have bid, Cy has not: nothing is revealed
    coins = F.coins_frame(game)
    masked = mask_hidden_bids(coins, game, viewer=0)
    now = masked[masked["step"] == 1]
    # Neither Bo's bids nor his purse: which coins he bid would show by elimination.
    assert set(now[now["name"] == "Bo"]["place"]) == {HIDDEN_BID}
    assert set(now[now["name"] == "Ann"]["place"]) == {"T1", "T2", "T3", "purse"}
    assert mask_hidden_bids(coins, game, viewer=None) is coins
    revealed = scripted_game(3)  # the Laughing Goblin is revealed: T1 shows
    masked = mask_hidden_bids(F.coins_frame(revealed), revealed, viewer=0)
    bo = masked[(masked["step"] == 2) & (masked["name"] == "Bo")]
    assert sorted(bo["place"]) == ["T1"] + [HIDDEN_BID] * 4


def test_what_if_chart_shows_now_and_the_coachs_estimate() -> None:
    from nidavellir.analysis.whatif import what_if

    table = what_if(scripted_game(8), level="search@10", seed=2)  # Ann: B or M2
    fig = G.what_if_chart(table)
    assert [t.name for t in fig.data] == ["Score now", "Expected by the end"]
    now, final = fig.data
    # The options in the coach's order; "now" is the score sheet's change.
    assert list(now.x) == table["action"].tolist()
    assert sorted(now.x) == ["take B", "take M2"]
    assert dict(zip(now.x, now.y, strict=True)) == {"take B": 3, "take M2": 2}
    before = table["score_total"] - table["delta_total"]
    assert list(final.y) == (table["expected_score"] - before).round(2).tolist()
    assert list(final.error_y.array) == (1.96 * table["score_se"]).round(2).tolist()
    assert fig.layout.title.text == "What if Ann..."
    assert [t.name for t in G.what_if_chart(what_if(scripted_game(8))).data] == ["Score now"]


def test_live_charts_fill_the_play_apps_chart_box() -> None:
    from widgets.app import play_app
    from widgets.charts import add_live_charts

    app = play_app(players=2, seats=["human", "random"], seed=1, bot_delay=0)
    live = add_live_charts(app)
    assert app.charts_box.children == (live,)
    app.session.submit(app.session.game.legal_actions()[0])
    assert live.drawn_at == len(app.session.game.history)


def test_live_charts_wait_for_bots_that_play_without_a_pause() -> None:
    """Issue 44: a game between bots with no pause between their moves (a browser test
    waits for one to end) is never held up by the charts: drawn in the bots' thread at
    every move (about 0.5 s each), they made its length grow with the machine's load
    past any patience. They are drawn once the bots stop, and then show the game's end."""
    from nidavellir import Game
    from widgets.charts import LiveCharts
    from widgets.session import Session

    session = Session(Game.new(players=2, seed=4), ["random", "random"], bot_delay=0,
                      background=True)
    charts = LiveCharts(session)
    before = charts.renders
    session.new_game({"players": 2, "seats": ["random", "random"], "seed": 6, "bot_delay": 0})
    session.wait()
    assert session.game.is_over and len(session.game.history) > 60
    assert charts.drawn_at == len(session.game.history) and charts.error is None
    assert charts.renders - before <= 3, charts.renders - before
