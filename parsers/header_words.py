"""Header words of the room text formats and the ruleset presets they name (docs/rules.md R10).

A hand header names four things: the variant (R2), the Fantasyland kind
(R6), the scoring scheme (R4) and the royalty table (R5). Each R10 preset is
one combination of them, read from its data (``variant``, ``scoring`` and
the ``header`` table of ``ofc_core/rulesets/presets.toml``); the renderers
write a preset's words and the parsers map the words back to a preset.

The Fantasyland word is optional in both formats; absent means the variant's
default (``default`` below), and ``[FL 13]`` on a classic or turbo header,
``[FL 14]`` on a pineapple one, say the same thing as the default.

A header whose words match no preset exactly (the ``ru`` spec's own example,
``Ананас · счёт 1-6 · роялти: российские``, is one) is given the closest
preset of the same variant: scoring counts most, then the Fantasyland kind,
then the royalty table; ``ofc parse`` says so in its summary, and
``--ruleset`` overrides the choice.

>>> resolve(HeaderWords("pineapple", "progressive", "1-6", "american"))
('pineapple-progressive-american', True)
>>> resolve(HeaderWords("pineapple", "14", "2-4", "russian"))
('pineapple-2-4-pokerdom', True)
>>> resolve(HeaderWords("pineapple", "default", "1-6", "russian"))
('pineapple-1-6-american', False)
"""

from __future__ import annotations

from dataclasses import dataclass

from ofc_core.rulesets import PRESET_NAMES, preset_spec

#: Fantasyland kinds a header can name: the variant's default, a fixed count,
#: progressive (R6) or none.
FL_KINDS = ("default", "13", "14", "progressive", "none")


@dataclass(frozen=True)
class HeaderWords:
    """What a hand header says about the rules, in format-neutral words."""

    variant: str  # classic | pineapple | turbo | pineapple-27
    fantasyland: str  # one of FL_KINDS
    scoring: str  # 1-6 | 2-4
    royalties: str  # american | russian | stars-2013


def _words(name: str) -> HeaderWords:
    spec = preset_spec(name)
    header = spec["header"]
    return HeaderWords(spec["variant"], header["fantasyland"], spec["scoring"], header["royalties"])


#: The header words of every R10 preset, in the order R10 lists them.
PRESET_WORDS: dict[str, HeaderWords] = {name: _words(name) for name in PRESET_NAMES}

#: The fixed count each variant's default Fantasyland deals (R2, R6).
_DEFAULT_FL_COUNT = {"classic": "13", "turbo": "13", "pineapple": "14"}


def normalise(words: HeaderWords) -> HeaderWords:
    """Say a default Fantasyland count the same way the presets do (``[FL 14]`` on pineapple)."""
    if _DEFAULT_FL_COUNT.get(words.variant) == words.fantasyland:
        return HeaderWords(words.variant, "default", words.scoring, words.royalties)
    return words


def resolve(words: HeaderWords) -> tuple[str, bool]:
    """The preset a header names, and whether it names it exactly.

    Without an exact match, the closest preset of the same variant is chosen
    (see the module docstring); a variant no preset has is a ``KeyError``.
    """
    words = normalise(words)
    candidates = [name for name, w in PRESET_WORDS.items() if w.variant == words.variant]
    if not candidates:
        raise KeyError(words.variant)

    def closeness(name: str) -> int:
        w = PRESET_WORDS[name]
        return (
            4 * (w.scoring == words.scoring)
            + 2 * (w.fantasyland == words.fantasyland)
            + (w.royalties == words.royalties)
        )

    best = max(candidates, key=closeness)
    return best, closeness(best) == 7


def preset_words(ruleset: str) -> HeaderWords:
    """The header words of a preset; a ``ValueError`` naming the known presets otherwise."""
    try:
        return PRESET_WORDS[ruleset]
    except KeyError:
        known = ", ".join(PRESET_WORDS)
        raise ValueError(
            f"no header words for ruleset {ruleset!r}: a room text can only name the "
            f"presets of docs/rules.md R10 ({known})"
        ) from None
