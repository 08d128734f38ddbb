"""The metric tables: their SQL (``*.sql``; ``player_days`` and ``player_metrics`` in
``days``), every metric's one definition (``definitions``) and the interval formulas
(``intervals``)."""
