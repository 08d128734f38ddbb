"""Screen names for simulated players: mostly ordinary, sometimes awkward on purpose.

Room exports hold whatever players typed, and parsers must survive it, so
about a quarter of generated names carry spaces, non-Latin letters,
brackets, parentheses or quotes (``Carol [RU]``, ``Dmitry "Dima" K.``,
``李伟``). Like room names they never start or end with a space and never
contain ``": "`` (RULES formats: ``ofc-text-en.md``), nor a comma or ``=``
(so a name can be given in ``--bots``).

>>> names = player_names(np.random.default_rng(1), 40)
>>> len(set(names)) == 40 and all(n == n.strip() and ": " not in n for n in names)
True
"""

from __future__ import annotations

import numpy as np

_FIRST = [
    "Alice",
    "Bob",
    "Carol",
    "Dave",
    "Erin",
    "Frank",
    "Grace",
    "Heidi",
    "Ivan",
    "Judy",
    "Mallory",
    "Olivia",
    "Peggy",
    "Rupert",
    "Sybil",
    "Trent",
    "Victor",
    "Walter",
    "Yuki",
    "Zoe",
    "Mikko",
    "Aino",
    "Sergei",
    "Olga",
    "Pavel",
    "Marta",
    "Lars",
    "Ingrid",
    "Diego",
    "Lucia",
    "Hamid",
    "Priya",
    "Chen",
    "Mei",
    "Kofi",
    "Amara",
    "Tomasz",
    "Ewa",
    "Nikolai",
    "Svetlana",
    "Joon",
    "Hana",
    "Rafael",
    "Beatriz",
]
_WORDS = [
    "Lucky",
    "River",
    "Fold",
    "Royal",
    "Pineapple",
    "Foul",
    "Nuts",
    "Tilt",
    "Flush",
    "Deuce",
    "Scoop",
    "Fantasy",
    "Queen",
    "Rock",
    "Shark",
    "Fish",
    "Ace",
    "Button",
    "Joker",
    "Wheel",
]
_AWKWARD = (
    "Carol [RU]",
    'Dmitry "Dima" K.',
    "Jörg Müller",
    "Алексей",
    "Ольга П.",
    "李伟",
    "Ana María",
    "O'Brien",
    "Bob (UK)",
    "x_X [pro] X_x",
    "Sanna-Maria Ö",
    "Łukasz W.",
    "Ива́н Гро́зный",
    "mister 'no fold'",
    "Nguyễn Văn An",
    "The (real) Dealer",
    "«Фантазёр»",
    "J. R. [FL]",
)
AWKWARD_SHARE = 0.25


def _ordinary(rng: np.random.Generator) -> str:
    first = _FIRST[rng.integers(len(_FIRST))]
    word = _WORDS[rng.integers(len(_WORDS))]
    kind = rng.integers(5)
    if kind == 0:
        return first
    if kind == 1:
        return f"{first}{rng.integers(1, 100)}"
    if kind == 2:
        return f"{first.lower()}_{word.lower()}"
    if kind == 3:
        return f"{word}{_WORDS[rng.integers(len(_WORDS))]}"
    return f"{first} {word}"


def player_names(rng: np.random.Generator, count: int, taken: tuple[str, ...] = ()) -> list[str]:
    """``count`` distinct names, none of them in ``taken``."""
    names: list[str] = []
    seen = set(taken)
    while len(names) < count:
        if rng.random() < AWKWARD_SHARE:
            name = _AWKWARD[rng.integers(len(_AWKWARD))]
        else:
            name = _ordinary(rng)
        if name in seen:
            name = f"{name} {rng.integers(2, 1000)}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names
