"""The README's synopsis keeps step with ``--help``: every option of every registered command
(including commands added later) appears in that command's lines of the synopsis."""

from __future__ import annotations

import re

import pytest

from pipeline.cli.main import build_parser, command_parsers
from tests.import_support import ROOT

COMMANDS = command_parsers(build_parser())


def synopsis() -> dict[str, str]:
    """Each command's lines of the README synopsis (its ``ofc NAME`` line and continuations)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## The `ofc` command", 1)[1].split("```", 2)[1]
    found: dict[str, str] = {}
    name = None
    for line in block.splitlines():
        start = re.match(r"ofc (\S+)", line)
        if start:
            name = start.group(1)
            found[name] = line
        elif name and line.startswith(" "):
            found[name] += "\n" + line
    return found


def test_every_command_is_in_the_synopsis():
    missing = sorted(set(COMMANDS) - set(synopsis()))
    assert not missing, f"add these commands to the README synopsis: {missing}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_of_the_command_is_in_its_synopsis_lines(name):
    lines = synopsis().get(name, "")
    options = {
        option
        for action in COMMANDS[name]._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    missing = sorted(o for o in options if not re.search(re.escape(o) + r"(?![\w-])", lines))
    assert not missing, f"ofc {name}: README synopsis lacks {missing}"


def test_the_readme_quotes_the_recorded_parse_speed():
    benchmarks = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    recorded = re.search(r"\| en_hands_per_cpu_s \| \*\*([\d,]+)\*\*", benchmarks).group(1)
    assert recorded in (ROOT / "README.md").read_text(encoding="utf-8")


def test_docs_rules_names_every_ruleset_option():
    """docs/rules.md is the users' rules reference: every option a rules file accepts is in it."""
    import inspect

    from ofc_core.rulesets import _build

    source = inspect.getsource(_build)
    options = re.search(r"known = \{(.*?)\}", source, re.S).group(1)
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    missing = [o for o in re.findall(r'"(\w+)"', options) if f"`{o}`" not in rules]
    assert not missing, f"docs/rules.md lacks {missing}"
