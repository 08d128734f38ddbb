"""docs/rules.md R10: presets are data; users add rulesets in their own file, with clear errors."""

import pytest

from ofc_core.errors import UserError
from ofc_core.rulesets import PRESET_NAMES, load_ruleset

R10_PRESETS = {
    # name: (variant, scoring, foul penalty, royalty table, button moves, table stakes)
    "classic-1-6-american": ("classic", "1-6", 6, "american", False, False),
    "pineapple-1-6-american": ("pineapple", "1-6", 6, "american", False, False),
    "pineapple-progressive-american": ("pineapple", "1-6", 6, "american", False, False),
    "pineapple-2-4-pokerbet": ("pineapple", "2-4", 4, "russian", True, True),
    "pineapple-2-4-pokerdom": ("pineapple", "2-4", 6, "russian", True, True),
    "turbo-1-6-american": ("turbo", "1-6", 6, "american", False, False),
    "pineapple-27": ("pineapple-27", "1-6", 6, "american-27", False, False),
    "classic-stars-2013": ("classic", "1-6", 6, "stars-2013", False, False),
}


def test_r10_every_preset_ships():
    assert set(PRESET_NAMES) == set(R10_PRESETS)


@pytest.mark.parametrize(("name", "expected"), list(R10_PRESETS.items()))
def test_r10_preset_options(name, expected):
    rs = load_ruleset(name)
    got = (
        rs.variant,
        rs.scoring,
        rs.foul_penalty,
        rs.royalties.name,
        rs.button_moves_in_fantasyland,
        rs.table_stakes,
    )
    assert got == expected


def test_r10_stars_2013_has_no_fantasyland():
    assert not load_ruleset("classic-stars-2013").fantasyland.enabled
    assert load_ruleset("classic-stars-2013").fantasyland.base_cards == 0


def test_user_file_extends_a_preset_and_defines_a_royalty_table(tmp_path):
    path = tmp_path / "room.toml"
    path.write_text(
        """
[royalties.generous]
extends = "american"
bottom = { "straight" = 3, "flush" = 5, "full house" = 7, "quads" = 12 }

[rulesets.my-room]
extends = "pineapple-1-6-american"
royalties = "generous"
scoring = "2-4"
"""
    )
    rs = load_ruleset("my-room", path)
    assert (rs.variant, rs.scoring, rs.foul_penalty) == ("pineapple", "2-4", 4)
    assert list(rs.royalties.bottom[4:8]) == [3, 5, 7, 12]
    american = load_ruleset("pineapple-1-6-american").royalties
    assert list(rs.royalties.bottom[8:]) == list(american.bottom[8:]) == [15, 25]  # not named
    assert list(rs.royalties.middle) == list(american.middle)
    assert rs.fantasyland.entry["QQ"] == 14


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[rulesets.x]\nextends = "classic-1-6-american"\nscoring = "3-3"',
            "scoring must be one of",
        ),
        (
            '[rulesets.x]\nextends = "classic-1-6-american"\ncolour = "red"',
            "unknown option(s) ['colour']",
        ),
        ('[rulesets.x]\nextends = "nope"', "unknown ruleset 'nope'"),
        (
            '[rulesets.x]\nextends = "classic-1-6-american"\nroyalties = "gold"',
            "unknown royalty table 'gold'",
        ),
        ('[rulesets.x]\nextends = "x"', "extends itself"),
        ('[rooms.x]\nvariant = "classic"', "unexpected section"),
        ("[rulesets.x\n", "not valid TOML"),
        (
            '[royalties.t]\nextends = "american"\nbottom = { "straightish" = 1 }\n'
            '[rulesets.x]\nextends = "classic-1-6-american"\nroyalties = "t"',
            "bottom keys must be among",
        ),
        (
            '[rulesets.x]\nextends = "classic-1-6-american"\n[rulesets.x.fantasyland]\n'
            'entry = { "JJ" = 13 }\nstay_cards = 13',
            "fantasyland.entry keys",
        ),
    ],
)
def test_invalid_rules_files_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UserError, match=None) as error:
        load_ruleset("x", path)
    assert message in str(error.value)


def test_a_fantasyland_table_names_only_what_differs(tmp_path):
    """A partial [fantasyland] once failed with "ruleset 'r' is invalid: 'stay_cards'"."""
    path = tmp_path / "r.toml"
    path.write_text(
        '[rulesets.r]\nextends = "pineapple-1-6-american"\n'
        '[rulesets.r.fantasyland]\nentry = { "KK" = 14 }\n'
    )
    mine, theirs = load_ruleset("r", path).fantasyland, load_ruleset("pineapple-1-6-american")
    assert mine.entry == {"KK": 14}  # a table inside it is replaced whole
    assert (mine.stay_cards, mine.stay) == (theirs.fantasyland.stay_cards, theirs.fantasyland.stay)


def test_a_folder_given_as_rules_file_is_one_line(tmp_path):
    with pytest.raises(UserError, match="is a folder: give the TOML file itself"):
        load_ruleset("x", tmp_path)
