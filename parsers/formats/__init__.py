"""The room text formats' readers (thorough path), one module per format.

Each module holds a format's words and patterns (``SECTIONS``, header and line
regexes) and turns a format's text into the format-neutral fields of
``parsers.extract``; ``parsers.run`` picks the module by the detected format
(``parsers.detect``). The writers of the same formats, used by the simulator,
are ``pipeline.simulator.render``.
"""
