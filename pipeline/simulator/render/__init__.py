"""Writers of the room text formats (``en``, ``ru``) for simulated hands, from the hero's point
of view; the readers of the same formats are ``parsers.formats``."""
