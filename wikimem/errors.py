"""The base of every user-facing error: the CLI prints its message on one line and exits 1."""


class WikimemError(Exception):
    """Something the user can act on; the message says what and, where it can, how."""
