"""Column formats the pages' tables share: one definition of a count, a rate,
points and a date, so that the same figure looks the same on every page.

Rates are shown from percentages (the pages multiply them by 100 first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

if TYPE_CHECKING:
    from streamlit.elements.lib.column_types import ColumnConfig


def count(label: str) -> ColumnConfig:
    """A whole number, with the reader's thousands separator."""
    return st.column_config.NumberColumn(label, format="localized")


def rate(label: str) -> ColumnConfig:
    """A percentage with one decimal (the column holds 12.3 for 12.3%)."""
    return st.column_config.NumberColumn(label, format="%.1f%%")


def points(label: str, decimals: int = 2) -> ColumnConfig:
    """Points with their sign: ``+1.25``, ``-3``."""
    return st.column_config.NumberColumn(label, format=f"%+.{decimals}f")


def number(label: str) -> ColumnConfig:
    """A figure with two decimals."""
    return st.column_config.NumberColumn(label, format="%.2f")


def day(label: str) -> ColumnConfig:
    """A date without its time."""
    return st.column_config.DatetimeColumn(label, format="YYYY-MM-DD")


def minute(label: str) -> ColumnConfig:
    """A date and time, to the minute."""
    return st.column_config.DatetimeColumn(label, format="YYYY-MM-DD HH:mm")


#: When a hand was played.
PLAYED = minute("Played (UTC)")
