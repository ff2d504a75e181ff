"""The regions schedule's error: a kernel it cannot express."""


class NeedFibers(Exception):
    """The kernel needs the fiber schedule; the message says why."""
