"""Rulesets as data (docs/rules.md R10): load presets and users' rules files.

The presets ship as ``presets.toml`` and ``royalties.toml`` beside this file.
A user's rules file (``--rules-file``) has a ``[rulesets.NAME]`` table per
ruleset and a ``[royalties.NAME]`` table per royalty table, each of the same
shape as the shipped ones; either may ``extends`` a known one and override
only what differs.

>>> rs = load_ruleset("pineapple-2-4-pokerbet")
>>> rs.variant, rs.scoring, rs.scoop_value, rs.table_stakes, rs.fantasyland.repeat_limit
(<Variant.PINEAPPLE: 'pineapple'>, '2-4', 4, True, 1)
>>> pokerdom = load_ruleset("pineapple-2-4-pokerdom")
>>> pokerdom.foul_penalty, pokerdom.table_stakes, pokerdom.match_loss_cap, pokerdom.max_players
(6, True, None, 3)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ofc_core.categories import CATEGORY_NAMES
from ofc_core.errors import UserError, did_you_mean
from ofc_core.rulesets.royalty_table import RoyaltyTable, compile_royalty_table
from ofc_core.variants import MAX_PLAYERS, VARIANTS, Variant

__all__ = [
    "PRESET_NAMES",
    "FantasylandRules",
    "PairPointValue",
    "RoyaltyTable",
    "Ruleset",
    "StayCondition",
    "load_ruleset",
    "preset_spec",
]

_HERE = Path(__file__).parent
SCORING_SCHEMES = {"1-6": 6, "2-4": 4}  # scheme -> scoop value (R4)
ENTRY_KEYS = ("QQ", "KK", "AA", "trips")
ROW_CATEGORIES = {
    "top": ("high card", "pair", "trips"),
    "middle": CATEGORY_NAMES,
    "bottom": CATEGORY_NAMES,
}


@dataclass(frozen=True)
class StayCondition:
    """One way to stay in Fantasyland: ``row`` at least ``at_least``, or any row's royalty."""

    row: str | None = None
    at_least: str | None = None
    any_row_royalty_at_least: int | None = None


@dataclass(frozen=True)
class FantasylandRules:
    """Fantasyland entry, cards dealt and stay (R6, R9)."""

    entry: dict[str, int]
    lowball_entry: dict[str, int]
    stay: tuple[StayCondition, ...]
    stay_combine: str
    stay_cards: int
    repeat_limit: int

    @property
    def enabled(self) -> bool:
        return bool(self.entry or self.lowball_entry)

    @property
    def base_cards(self) -> int:
        """Cards a player who stays is dealt: the variant's base count; 0 with no Fantasyland."""
        return self.stay_cards if self.enabled else 0


NO_FANTASYLAND = FantasylandRules({}, {}, (), "any", 0, 0)


@dataclass(frozen=True)
class PairPointValue:
    """Money per point two players agreed between them, in place of the table's (R7);
    ``players`` in sorted order."""

    players: tuple[str, str]
    point_value: float


@dataclass(frozen=True)
class Ruleset:
    """Every option by which rooms differ, for one named ruleset."""

    name: str
    variant: Variant
    scoring: str
    foul_penalty: int
    royalties: RoyaltyTable
    fantasyland: FantasylandRules
    button_moves_in_fantasyland: bool = False
    table_stakes: bool = False
    deuce_of_spades: bool = False
    match_loss_cap: float | None = None  # points a player may lose in one match (R7)
    stack_must_cover_cap: bool = False  # a stack below the cap may not start a match (R7)
    max_players: int = 4  # players a hand may have (R10)
    pair_point_values: tuple[PairPointValue, ...] = ()  # pairs' own money per point (R7)

    @property
    def scoop_value(self) -> int:
        return SCORING_SCHEMES[self.scoring]

    @property
    def stack_to_start(self) -> float:
        """The least stack that may start a match (R7): the loss cap where a stack must cover
        it (``stack_must_cover_cap``), else 0."""
        return self.match_loss_cap if self.stack_must_cover_cap and self.match_loss_cap else 0.0

    @property
    def lowball_middle(self) -> bool:
        return self.variant is Variant.PINEAPPLE_27

    @property
    def allowed_players(self) -> str:
        """How many players a hand may have, in words: ``"2 or 3"``, ``"2 to 4"`` (R10)."""
        most = self.max_players
        return "2" if most == 2 else "2 or 3" if most == 3 else f"2 to {most}"

    def player_count_problem(self, players: int) -> str | None:
        """Why a hand of ``players`` cannot be played under this ruleset (R10), or None.

        >>> load_ruleset("pineapple-1-6-american").player_count_problem(4)
        'a pineapple hand has 2 or 3 players, this one has 4 (docs/rules.md, R10)'
        >>> load_ruleset("classic-1-6-american").player_count_problem(4) is None
        True
        """
        if 2 <= players <= self.max_players:
            return None
        return player_count_reason(self.variant, self.allowed_players, players)


def player_count_reason(variant: str, allowed: str, players: int | str) -> str:
    """The one wording of a wrong player count, shared by ``ofc score`` and the parsers."""
    return f"a {variant} hand has {allowed} players, this one has {players} (docs/rules.md, R10)"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"rules file {path} does not exist") from None
    except IsADirectoryError:
        raise UserError(f"rules file {path} is a folder: give the TOML file itself") from None
    except OSError as error:
        raise UserError(f"rules file {path} does not read: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UserError(f"rules file {path} is not valid TOML: {error}") from None


@cache
def _shipped() -> tuple[dict[str, Any], dict[str, Any]]:
    return _read_toml(_HERE / "presets.toml"), _read_toml(_HERE / "royalties.toml")


PRESET_NAMES: tuple[str, ...] = tuple(_shipped()[0])


def _resolve(name: str, tables: dict[str, Any], kind: str, seen: tuple[str, ...] = ()) -> dict:
    """A table with its ``extends`` chain merged in: a child's keys win, and a table in it
    (a royalty row, a ruleset's ``fantasyland``) merges key by key, so that a child names
    only what differs (a table inside that, such as ``fantasyland.entry``, is replaced)."""
    if name not in tables:
        known = ", ".join(sorted(tables))
        hint = did_you_mean(name, tables, n=3)
        raise UserError(f"unknown {kind} {name!r}{hint} (known: {known})")
    if name in seen:
        raise UserError(f"{kind} {name!r} extends itself through {' -> '.join(seen)}")
    table = dict(tables[name])
    parent = table.pop("extends", None)
    if parent is None:
        return table
    merged = _resolve(parent, tables, kind, (*seen, name))
    nested = {k: merged[k] | v for k, v in table.items() if isinstance(merged.get(k), dict)}
    return merged | table | nested


def preset_spec(name: str) -> dict[str, Any]:
    """The data of a shipped preset, with what it ``extends`` merged in.

    >>> preset_spec("turbo-1-6-american")["header"]
    {'fantasyland': 'default', 'royalties': 'american'}
    """
    return _resolve(name, _shipped()[0], "ruleset")


def load_ruleset(name: str, rules_file: str | Path | None = None) -> Ruleset:
    """The ruleset ``name``, from the presets or from a user's rules file."""
    presets, royalties = _shipped()
    if rules_file is not None:
        user = _read_toml(Path(rules_file))
        unknown = set(user) - {"rulesets", "royalties"}
        if unknown:
            raise UserError(
                f"rules file {rules_file}: unexpected section(s) {sorted(unknown)}; "
                "use [rulesets.NAME] and [royalties.NAME]"
            )
        presets = presets | user.get("rulesets", {})
        royalties = royalties | user.get("royalties", {})
    spec = _resolve(name, presets, "ruleset")
    try:
        return _build(name, spec, royalties)
    except (KeyError, TypeError, ValueError) as error:
        raise UserError(f"ruleset {name!r} is invalid: {error}") from None


def _choice(spec: dict, key: str, allowed: tuple[str, ...] | dict, default: Any = None) -> Any:
    value = spec.get(key, default)
    if value not in allowed:
        raise ValueError(f"{key} must be one of {list(allowed)}, not {value!r}")
    return value


def _build(name: str, spec: dict[str, Any], royalty_tables: dict[str, Any]) -> Ruleset:
    known = {
        "variant",
        "scoring",
        "foul_penalty",
        "royalties",
        "fantasyland",
        "button_in_fantasyland",
        "table_stakes",
        "deuce_of_spades",
        "header",
        "match_loss_cap",
        "stack_must_cover_cap",
        "max_players",
        "pair_point_values",
    }
    unknown = set(spec) - known
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)}; known: {sorted(known)}")
    scoring = _choice(spec, "scoring", SCORING_SCHEMES)
    penalty = spec.get("foul_penalty", "scoop")
    if penalty == "scoop":
        penalty = SCORING_SCHEMES[scoring]
    if not isinstance(penalty, int) or penalty < 0:
        raise ValueError(f'foul_penalty must be "scoop" or a whole number >= 0, not {penalty!r}')
    table_name = spec["royalties"]
    table = compile_royalty_table(table_name, _resolve(table_name, royalty_tables, "royalty table"))
    variant = Variant(_choice(spec, "variant", VARIANTS))
    if variant is Variant.PINEAPPLE_27 and table.middle_lowball is None:
        raise ValueError(
            f"variant pineapple-27 needs a royalty table with middle_lowball, not {table_name!r}"
        )
    return Ruleset(
        name=name,
        variant=variant,
        scoring=scoring,
        foul_penalty=penalty,
        royalties=table,
        fantasyland=_fantasyland(spec.get("fantasyland")),
        button_moves_in_fantasyland=_choice(
            spec, "button_in_fantasyland", ("stays", "moves"), "stays"
        )
        == "moves",
        table_stakes=bool(spec.get("table_stakes", False)),
        deuce_of_spades=bool(spec.get("deuce_of_spades", False)),
        match_loss_cap=_loss_cap(spec.get("match_loss_cap")),
        stack_must_cover_cap=_cover_cap(spec),
        max_players=_max_players(spec.get("max_players"), variant),
        pair_point_values=_pair_point_values(spec.get("pair_point_values", [])),
    )


def _loss_cap(value: Any) -> float | None:
    """``match_loss_cap``: points, more than 0; absent means no cap (R7)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"match_loss_cap must be a number of points above 0, not {value!r}")
    return float(value)


def _cover_cap(spec: dict[str, Any]) -> bool:
    """``stack_must_cover_cap``: true or false (absent: false), and only with a cap (R7)."""
    value = spec.get("stack_must_cover_cap", False)
    if not isinstance(value, bool):
        raise ValueError(f"stack_must_cover_cap must be true or false, not {value!r}")
    if value and spec.get("match_loss_cap") is None:
        raise ValueError("stack_must_cover_cap = true needs a match_loss_cap to cover")
    return value


def _max_players(value: Any, variant: str) -> int:
    """``max_players``: 2 up to what the variant allows (R10); absent means the variant's most."""
    most = MAX_PLAYERS[variant]
    if value is None:
        return most
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= most:
        raise ValueError(
            f"max_players for {variant} must be a whole number from 2 to {most}, not {value!r}"
        )
    return value


def _pair_point_values(spec: Any) -> tuple[PairPointValue, ...]:
    """``pair_point_values``: a list of ``{ players = ["A", "B"], point_value = V }``, V money
    per point (0 or more) that players A and B agreed between them (R7).

    >>> _pair_point_values([{"players": ["Anna", "Boris"], "point_value": 2}])
    (PairPointValue(players=('Anna', 'Boris'), point_value=2.0),)
    """
    shape = 'a list of { players = ["A", "B"], point_value = 2.0 }'
    if not isinstance(spec, list):
        raise ValueError(f"pair_point_values must be {shape}, not {spec!r}")
    agreed: dict[tuple[str, str], float] = {}
    for entry in spec:
        players = entry.get("players") if isinstance(entry, dict) else None
        value = entry.get("point_value") if isinstance(entry, dict) else None
        if (
            not isinstance(entry, dict)
            or set(entry) != {"players", "point_value"}
            or not isinstance(players, list)
            or len(players) != 2
            or not all(isinstance(p, str) and p.strip() for p in players)
            or players[0] == players[1]
            or isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value < float("inf")
        ):
            raise ValueError(
                f"pair_point_values must be {shape} (two different names, a value of 0 or "
                f"more), not {entry!r}"
            )
        pair = (min(players), max(players))
        if pair in agreed:
            raise ValueError(f"pair_point_values names the pair {list(pair)} twice")
        agreed[pair] = float(value)
    return tuple(PairPointValue(pair, value) for pair, value in agreed.items())


def _fantasyland(spec: dict[str, Any] | None) -> FantasylandRules:
    if not spec or not (spec.get("entry") or spec.get("lowball_entry")):
        return NO_FANTASYLAND
    entry = {str(k): int(v) for k, v in spec.get("entry", {}).items()}
    bad = set(entry) - set(ENTRY_KEYS)
    if bad:
        raise ValueError(
            f"fantasyland.entry keys must be among {list(ENTRY_KEYS)}, not {sorted(bad)}"
        )
    lowball = {str(k): int(v) for k, v in spec.get("lowball_entry", {}).items()}
    if set(lowball) - {"75432"}:
        raise ValueError('fantasyland.lowball_entry accepts only the key "75432"')
    return FantasylandRules(
        entry=entry,
        lowball_entry=lowball,
        stay=tuple(_stay_condition(c) for c in spec.get("stay", [])),
        stay_combine=_choice(spec, "stay_combine", ("any", "all"), "any"),
        stay_cards=int(spec["stay_cards"]),
        repeat_limit=int(spec.get("repeat_limit", 0)),
    )


def _stay_condition(spec: dict[str, Any]) -> StayCondition:
    if "any_row_royalty_at_least" in spec:
        return StayCondition(any_row_royalty_at_least=int(spec["any_row_royalty_at_least"]))
    row = _choice(spec, "row", ROW_CATEGORIES)
    return StayCondition(row=row, at_least=_choice(spec, "at_least", ROW_CATEGORIES[row]))
