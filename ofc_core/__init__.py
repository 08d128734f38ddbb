"""The lowest layer: the facts of the game every other package shares.

Cards (``cards``), user-facing errors (``errors``), variants and their street
plans (``variants``), hand categories (``categories``) and the rulesets, which
are data (``rulesets``: presets.toml and royalties.toml). Nothing here imports
``parsers``, ``pipeline`` or ``dashboard``; see docs/architecture.md.
"""
