"""Errors meant for the user: what failed, where, and what to do."""


class UserError(Exception):
    """A problem the user can fix; the CLI prints it as one line and exits with code 2."""
