"""Named rule options (docs/rulings.md: where a ruling says "option")."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True)
class RuleOptions:
    first_game: bool = False
    """R25: Thrud, Ylud and Uline are left out."""
    pioneer_tie_to_box: bool = False
    """R3: when nobody wins Pioneer of the Kingdom, the top age-2 card goes to the box
    (unseen) instead of face up to the dwarf discard."""
    warrior_bonus_without_warriors: bool = False
    """R9: give the warrior majority bonus to every player even at 0 warrior ranks."""

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)

    def __reduce__(self) -> tuple[type[RuleOptions], tuple[bool, ...]]:
        # Copied and pickled through the constructor: the compiled build's frozen classes
        # cannot be restored field by field (docs/development.md, "The compiled build").
        return (RuleOptions, tuple(getattr(self, f.name) for f in fields(self)))

    @classmethod
    def from_dict(cls, data: object) -> RuleOptions:
        """The options of a mapping (a record's, a scenario's: any value, checked here)."""
        if not data:
            return cls()
        if not isinstance(data, dict):
            raise ValueError(f"rule options must be a mapping, not {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        for key, value in data.items():
            if not isinstance(value, bool):
                raise ValueError(f"rule option {key} must be true or false, not {value!r}")
        return cls(**data)
