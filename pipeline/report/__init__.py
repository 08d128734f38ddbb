"""``ofc report``: self-contained HTML reports per player (``data`` → ``charts`` → ``page``)."""
