"""Round trip: simulate, write en / ru / ofc-jsonl, parse, and get the simulated hands back.

The text formats are written from the hero's point of view, so the parsed
hands equal the simulated hands *as the hero sees them*: an opponent's
discards are hidden (placement rows with no card, counted in
``hidden_discards``) and an opponent's Fantasyland hand is known from the
showdown. ``hero_view`` applies exactly that to the simulated tables.
Every R10 preset, each format, hero in and out of Fantasyland.
"""

from __future__ import annotations

from functools import cache

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from ofc_core.rulesets import PRESET_NAMES
from parsers.jsonl import write_jsonl
from parsers.run import parse_files
from pipeline.simulator.chunk import run_chunk
from pipeline.simulator.render import en as render_en
from pipeline.simulator.render import ru as render_ru
from pipeline.simulator.render.common import write_hands
from pipeline.simulator.run import plan_chunks
from tests.hand_builder import build, example_hand

HANDS = 100
WHERE = ["source_file", "source_line"]


@cache
def simulated(preset: str, players: int = 3) -> tuple[dict[str, pl.DataFrame], str]:
    """A simulated batch of ``preset`` hands (as polars frames) and its hero's name."""
    spec = plan_chunks(preset, players, HANDS, seed=11, source_format="jsonl")[0]
    batch = run_chunk(spec)
    tables = {
        "hands": pl.from_arrow(batch.hands),
        "player_hands": pl.from_arrow(batch.player_hands),
        "placements": pl.from_arrow(batch.placements),
    }
    return tables, spec.roster[spec.hero].name


def relabel(tables: dict[str, pl.DataFrame], fmt: str) -> dict[str, pl.DataFrame]:
    """The same hands as read from a file of format ``fmt`` (ids ``<fmt>:<room id>``)."""
    new_id = pl.col("hand_id").str.replace(r"^[^:]+:", f"{fmt}:")
    out = {name: frame.with_columns(new_id) for name, frame in tables.items()}
    out["hands"] = out["hands"].with_columns(source_format=pl.lit(fmt))
    return out


def hero_view(tables: dict[str, pl.DataFrame], hero: str) -> dict[str, pl.DataFrame]:
    """What a text file written by ``hero`` can tell about the hands."""
    players = tables["player_hands"]
    seats = players.select("hand_id", "seat", is_hero=pl.col("player") == hero)
    # A text marks timeouts street by street, so ``timed_out`` is what the schema defines:
    # some placement was automatic (R8).
    auto = tables["placements"].group_by("hand_id", "seat").agg(auto=pl.col("auto").any())
    view = (
        players.join(auto, on=["hand_id", "seat"], how="left")
        .with_columns(
            timed_out=pl.col("auto").fill_null(False),
            hidden_discards=pl.when(pl.col("player") == hero)
            .then(pl.col("hidden_discards"))
            .otherwise(pl.col("discards").list.len().cast(pl.Int8) + pl.col("hidden_discards")),
            discards=pl.when(pl.col("player") == hero)
            .then("discards")
            .otherwise(pl.lit([], pl.List(pl.String))),
            # The text says "stays in Fantasyland" with no count (both specs).
            reported_fantasyland_cards=pl.when(pl.col("reported_fantasyland_stay"))
            .then(None)
            .otherwise("reported_fantasyland_cards"),
        )
        .drop("auto")
    )
    placements = (
        tables["placements"]
        .join(seats, on=["hand_id", "seat"])
        .with_columns(card=pl.when(pl.col("is_hero") | (pl.col("row") != "discard")).then("card"))
        .drop("is_hero")
    )
    return {"hands": tables["hands"], "player_hands": view, "placements": placements}


def write(tables: dict[str, pl.DataFrame], hero: str, fmt: str, path) -> None:
    arrow = {name: frame.to_arrow() for name, frame in tables.items()}
    if fmt == "jsonl":
        write_jsonl(path, [arrow])
    else:
        module = {"en": render_en, "ru": render_ru}[fmt]
        write_hands(
            path,
            module.render_hands(arrow["hands"], arrow["player_hands"], arrow["placements"], hero),
        )


def read_dataset(out) -> dict[str, pl.DataFrame]:
    return {
        name: pl.read_parquet(out / name)
        for name in ("hands", "player_hands", "placements", "rejects")
    }


def assert_same_hands(parsed: dict[str, pl.DataFrame], expected: dict[str, pl.DataFrame]) -> None:
    keys = {
        "hands": ["hand_id"],
        "player_hands": ["hand_id", "seat"],
        "placements": ["hand_id", "seat", "street", "row", "card"],
    }
    for name, key in keys.items():
        want = expected[name].drop(WHERE, strict=False)
        got = parsed[name].drop(WHERE, strict=False).select(want.columns)
        assert_frame_equal(
            got.sort(key, nulls_last=True), want.sort(key, nulls_last=True), check_dtypes=True
        )


@pytest.mark.parametrize("fmt", ["en", "ru", "jsonl"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_parsed_hands_equal_simulated_hands(preset, fmt, tmp_path):
    tables, hero = simulated(preset)
    tables = relabel(tables, fmt)
    write(tables, hero, fmt, tmp_path / f"hands.{fmt}")
    summary = parse_files([tmp_path / f"hands.{fmt}"], tmp_path / "out")
    parsed = read_dataset(tmp_path / "out")
    assert parsed["rejects"].height == 0, parsed["rejects"].to_dicts()[:3]
    assert summary.read == summary.stored == HANDS
    expected = tables if fmt == "jsonl" else hero_view(tables, hero)
    assert_same_hands(parsed, expected)


def test_simulated_hands_cover_fantasyland_and_timeouts_on_both_sides():
    """The round trip is only as good as its data: it holds FL hands of hero and opponents."""
    hero_fl = opponent_fl = timeouts = 0
    for preset in PRESET_NAMES:
        tables, hero = simulated(preset)
        fl = tables["player_hands"].filter("in_fantasyland")
        hero_fl += fl.filter(pl.col("player") == hero).height
        opponent_fl += fl.filter(pl.col("player") != hero).height
        timeouts += tables["player_hands"].get_column("timed_out").sum()
    assert hero_fl > 0 and opponent_fl > 0 and timeouts > 0


def test_four_handed_classic_round_trips_in_both_text_formats(tmp_path):
    tables, hero = simulated("classic-1-6-american", players=4)
    for fmt in ("en", "ru"):
        labelled = relabel(tables, fmt)
        write(labelled, hero, fmt, tmp_path / f"four.{fmt}")
        parse_files([tmp_path / f"four.{fmt}"], tmp_path / fmt)
        assert_same_hands(read_dataset(tmp_path / fmt), hero_view(labelled, hero))


@pytest.mark.parametrize("fmt", ["en", "ru"])
@pytest.mark.parametrize("hero", ["Alice", "Bob", "Carol [RU]", "Nobody"])
def test_spec_example_round_trips_from_every_seat(fmt, hero, tmp_path):
    """Hero out of FL (Alice, Bob), in FL (Carol), and an observer who sees no dealt cards."""
    h, p, c = build([example_hand(source_format=fmt)])
    tables = {
        "hands": pl.from_arrow(h),
        "player_hands": pl.from_arrow(p),
        "placements": pl.from_arrow(c),
    }
    write(tables, hero, fmt, tmp_path / "example.txt")
    parse_files([tmp_path / "example.txt"], tmp_path / "out")
    parsed = read_dataset(tmp_path / "out")
    assert parsed["rejects"].height == 0, parsed["rejects"].to_dicts()
    assert_same_hands(parsed, hero_view(tables, hero))


def test_jsonl_inside_a_zip_is_read_and_named_by_its_member(tmp_path):
    import zipfile

    h, p, c = build([example_hand(source_format="jsonl")])
    write_jsonl(tmp_path / "hands.jsonl", [{"hands": h, "player_hands": p, "placements": c}])
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as archive:
        archive.write(tmp_path / "hands.jsonl", "inner/hands.jsonl")
    summary = parse_files([tmp_path / "a.zip"], tmp_path / "out")
    hands = read_dataset(tmp_path / "out")["hands"]
    assert summary.stored == 1 and summary.files[0].format == "jsonl"
    assert hands.get_column("source_file").to_list() == [f"{tmp_path / 'a.zip'}!/inner/hands.jsonl"]
