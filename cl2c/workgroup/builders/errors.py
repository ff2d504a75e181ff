"""The regions schedule's error: a kernel it cannot express."""


class NeedFibers(Exception):
    """The kernel needs the fiber schedule; the message says why."""


class NotProvablyUniform(NeedFibers):
    """A barrier in a loop whose trip count the analysis cannot prove uniform
    (``loop``): the spec may make it so (spec_uniform.py)."""

    def __init__(self, message: str, loop):
        super().__init__(message)
        self.loop = loop
