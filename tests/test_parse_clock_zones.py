"""Local clocks to UTC (``parsers.resolve.utc``).

A fixed offset (``+03:00``, ``UTC``, half hours such as ``+05:30``) is
subtracted: the result is Python's own arithmetic for that offset, and the
time zone database's where the database takes the offset (whole hours; it
refuses ``+05:30``, which once made every such ``ru`` hand an internal
error). Named zones go through the database, daylight saving and all.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from parsers.resolve import utc
from parsers.zones import ru_zone
from tests.parse_helpers import parse_bytes
from tests.test_parse_fast_path_ru import example_text

_OFFSETS = ["+03:00", "-05:00", "+05:30", "-04:30", "+14:00", "-12:00", "+00:00", "UTC"]
_NAMED = ["Europe/Moscow", "America/New_York"]


def _offset(zone: str) -> timezone:
    if zone == "UTC":
        return UTC
    minutes = int(zone[1:3]) * 60 + int(zone[4:6])
    return timezone(timedelta(minutes=minutes if zone[0] == "+" else -minutes))


def _by_database(local: pl.Series, zone: str) -> pl.Series:
    return local.dt.replace_time_zone(
        zone, ambiguous="earliest", non_existent="null"
    ).dt.convert_time_zone("UTC")


@settings(deadline=None)
@given(
    st.lists(
        st.tuples(
            st.none() | st.datetimes(datetime(1900, 1, 1), datetime(2200, 12, 31)),
            st.none() | st.sampled_from(_OFFSETS + _NAMED),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_clocks_convert_as_python_and_the_time_zone_database_do(rows):
    clocks = pl.DataFrame(
        rows, schema={"local": pl.Datetime("us"), "zone": pl.String}, orient="row"
    )
    zones = [z for z in clocks.get_column("zone").unique().to_list() if z is not None]
    got = clocks.with_columns(at=utc(pl.col("local"), pl.col("zone"), zones))["at"].to_list()
    for (local, zone), value in zip(rows, got, strict=True):
        if local is None or zone is None:
            assert value is None
        elif zone in _NAMED or zone[4:] == "00" or zone == "UTC":
            assert value == _by_database(pl.Series([local]), zone).item()
        if local is not None and zone in _OFFSETS:
            assert value == local.replace(tzinfo=_offset(zone)).astimezone(UTC)


def test_a_half_hour_offset_is_stored_at_its_utc_time(tmp_path):
    text = example_text().replace("(МСК)", "(UTC+05:30)")
    assert ru_zone("UTC+05:30") == "+05:30"
    summary, tables = parse_bytes(text.encode(), tmp_path)
    assert (summary.read, summary.rejected) == (3, 0)
    (tmp_path / "msk").mkdir()
    moscow = parse_bytes(example_text().encode(), tmp_path / "msk")[1]["hands"]
    gap = moscow.get_column("played_at") - tables["hands"].get_column("played_at")
    assert gap.to_list() == [timedelta(hours=2, minutes=30)] * 3  # +05:30 is 2.5 h east of +03:00
