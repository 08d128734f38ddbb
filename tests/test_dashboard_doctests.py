"""The examples in the dashboard's docstrings (pytest collects doctests under tests/ only)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import dashboard

#: Every module of the package but the Streamlit script itself.
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(dashboard.__path__, prefix="dashboard.")
    if info.name != "dashboard.app"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
