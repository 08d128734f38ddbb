"""HTML of the hand viewer: a player's three rows drawn as cards with suit colours.

Everything that comes from a hand history (cards, player names, figures) is
passed through ``html.escape``: names are untrusted text.

>>> card("Ah")
'<span class="ofc-card suit-h">A<small>♥</small></span>'
>>> card(None)
'<span class="ofc-card ofc-hidden" title="hidden card">?</span>'
>>> card("<b>")
'<span class="ofc-card">&lt;b&gt;</span>'
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}

#: Styles of the viewer (a four-colour deck: spades black, hearts red,
#: diamonds blue, clubs green).
STYLE = """
<style>
.ofc-board { font-family: system-ui, sans-serif; margin: 0 0 .6rem 0; }
.ofc-board h4 { margin: 0 0 .3rem 0; font-size: 1rem; }
.ofc-row { display: flex; align-items: center; gap: .3rem; margin: .2rem 0; }
.ofc-row-name { width: 4.2rem; color: #555; font-size: .8rem; }
.ofc-card { display: inline-flex; align-items: baseline; justify-content: center;
  width: 2.3rem; height: 3.1rem; line-height: 3.1rem; border-radius: .35rem;
  border: 1px solid #c9c9c9; background: #fff; font-weight: 700; font-size: 1.15rem;
  box-shadow: 0 1px 2px rgba(0,0,0,.12); }
.ofc-card small { font-size: 1rem; margin-left: .05rem; }
.ofc-card.suit-s { color: #1b1b1b; } .ofc-card.suit-h { color: #c8102e; }
.ofc-card.suit-d { color: #1b5fc1; } .ofc-card.suit-c { color: #1d8a3a; }
.ofc-card.ofc-new { outline: 2px solid #f0a202; outline-offset: 1px; }
.ofc-card.ofc-empty { border: 1px dashed #d5d5d5; background: #fafafa; box-shadow: none; }
.ofc-card.ofc-hidden { background: repeating-linear-gradient(45deg,#3b5f8f,#3b5f8f 4px,
  #4a72a8 4px,#4a72a8 8px); color: #fff; }
.ofc-mark { font-size: .8rem; padding: .05rem .4rem; border-radius: .6rem; margin-left: .4rem; }
.ofc-foul { background: #fde2e1; color: #a4161a; }
.ofc-royalty { background: #fff3c4; color: #7a5a00; }
.ofc-fl { background: #e3ecfa; color: #1b4f9c; }
.ofc-win { background: #dff3ea; color: #1f6f5c; }
.ofc-loss { background: #fde2e1; color: #a4161a; }
.ofc-discards { font-size: .8rem; color: #555; margin-top: .2rem; }
.ofc-row-label { font-size: .8rem; color: #333; margin-left: .4rem; }
.ofc-row.ofc-fouling .ofc-card { border-color: #a4161a; }
.ofc-row.ofc-fouling .ofc-row-label { color: #a4161a; font-weight: 700; }
</style>
"""


def card(name: str | None, *, new: bool = False) -> str:
    """One card, coloured by suit; ``None`` is a card the file hides."""
    if name is None:
        return '<span class="ofc-card ofc-hidden" title="hidden card">?</span>'
    rank, suit = name[:-1], name[-1:]
    extra = " ofc-new" if new else ""
    if suit not in SUIT_SYMBOLS or not rank:
        return f'<span class="ofc-card{extra}">{html.escape(name)}</span>'
    symbol = SUIT_SYMBOLS[suit]
    return f'<span class="ofc-card suit-{suit}{extra}">{html.escape(rank)}<small>{symbol}</small></span>'


def empty_slots(count: int) -> str:
    return '<span class="ofc-card ofc-empty"></span>' * max(count, 0)


@dataclass(frozen=True)
class RowView:
    """A row as shown: its cards so far, which of them were placed on this street, a mark."""

    name: str
    cards: Sequence[str]
    new: Sequence[bool]
    mark: str = ""
    label: str = ""  # the finished row in words ("pair of 3s")
    fouling: bool = False  # the row that makes the hand foul


def row(view: RowView) -> str:
    """A row: its name, its cards, empty slots for the cards still to come, and a mark."""
    cards = "".join(card(c, new=n) for c, n in zip(view.cards, view.new, strict=True))
    slots = empty_slots(ROW_SIZES.get(view.name, 0) - len(view.cards))
    mark = (
        f'<span class="ofc-mark ofc-royalty">{html.escape(view.mark)}</span>' if view.mark else ""
    )
    words = f"{view.label} — makes the foul" if view.fouling else view.label
    label = f'<span class="ofc-row-label">{html.escape(words)}</span>' if words else ""
    kind = "ofc-row ofc-fouling" if view.fouling else "ofc-row"
    return (
        f'<div class="{kind}"><span class="ofc-row-name">{view.name}</span>'
        f"{cards}{slots}{mark}{label}</div>"
    )


def badge(text: str, kind: str) -> str:
    """A small coloured label: ``kind`` is ``foul``, ``royalty``, ``fl``, ``win`` or ``loss``."""
    return f'<span class="ofc-mark ofc-{kind}">{html.escape(text)}</span>'


def board(title: str, rows: Sequence[RowView], badges: Sequence[str], discards: str) -> str:
    """One player's board: the title (a player name: escaped), badges, rows, discards."""
    heading = f"<h4>{html.escape(title)}{''.join(badges)}</h4>"
    body = "".join(row(r) for r in rows)
    foot = f'<div class="ofc-discards">{discards}</div>' if discards else ""
    return f'<div class="ofc-board">{heading}{body}{foot}</div>'
