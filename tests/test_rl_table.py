"""The RL action table never moves (issue 59, item 2): the published table
(nidavellir/integrations/rl_actions.txt) is versioned and append-only, and the running table
starts with it, index for index, whatever cards and kinds the lab has: tests/test_plugin_hero.py
runs this file with a made-up hero and kind installed, whose actions come after.
"""

from __future__ import annotations

from pathlib import Path

from nidavellir import parse_action
from nidavellir.actions import VERBS
from nidavellir.integrations.encoding import (
    ACTIONS,
    Version,
    action_at,
    action_index,
    declared,
    digest,
    publish,
    read_published,
)


def test_every_published_version_is_a_prefix_of_the_next() -> None:
    versions, published = read_published()
    assert versions and versions[0].number == 1
    assert [v.number for v in versions] == list(range(1, len(versions) + 1))
    assert all(a.size < b.size for a, b in zip(versions, versions[1:], strict=False))
    assert versions[-1].size == len(published)
    for v in versions:
        # A version's lines are never edited: the digest of its prefix is the one published.
        assert digest(published[:v.size]) == v.sha256, f"version {v.number} was changed"
    assert len(set(published)) == len(published)


def test_every_published_index_means_the_same_action() -> None:
    published = read_published()[1]
    assert ACTIONS[:len(published)] == published
    for i, text in enumerate(published):
        # The text still names an action of the lab, and it is still index i.
        assert str(parse_action(text)) == text, text
        assert action_index(text) == i and action_at(i) == text


def test_new_actions_come_after_the_published_ones() -> None:
    published = read_published()[1]
    assert set(ACTIONS) == set(published) | set(declared())
    assert len(set(ACTIONS)) == len(ACTIONS)
    assert {t.split()[0] for t in ACTIONS} == set(VERBS)


def test_publishing_appends_a_version(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    # A version 1 that lacks the table's last two actions, as if they were new.
    short = read_published()[1][:-2]
    path.write_text(f"# version 1: {len(short)} actions, sha256 {digest(short)}\n"
                    + "\n".join(short) + "\n", encoding="utf-8")
    version = publish(path)
    assert version == Version(2, len(ACTIONS), digest(ACTIONS))
    versions, table = read_published(path)
    assert table == ACTIONS and versions == (Version(1, len(short), digest(short)), version)
    assert publish(path) is None
