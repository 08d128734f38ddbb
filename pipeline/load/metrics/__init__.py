"""The metric tables: their SQL (``*.sql``), every metric's one definition
(``definitions``) and the interval formulas (``intervals``)."""
