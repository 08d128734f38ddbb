"""The room text formats, one module per format, each describing itself in a ``TextFormat``.

A format module (``en``, ``ru``) holds the format's words and line patterns
and its column-wise reader into the format-neutral fields of
``parsers.extract`` (the thorough path), and ends with its ``FORMAT``.
``TEXT_FORMATS`` lists them by name: format detection (``parsers.detect``)
and the parse run (``parsers.run``) go by it. The writers of the same
formats, used by the simulator, are ``pipeline.simulator.render``; they take
their words from the same ``FORMAT``.
"""

from parsers.formats import en, ru
from parsers.formats.text_format import TextFormat

TEXT_FORMATS: dict[str, TextFormat] = {f.name: f for f in (en.FORMAT, ru.FORMAT)}
