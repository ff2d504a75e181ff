"""The places of a checking build's checks: each check points at a C static naming its
place in the .cl file (file, line, column), which a report prints. One per place, in
the order the instrumentation reaches them."""
from __future__ import annotations


class Sites:
    """The places of the checked operations, as the C statics the checks point at."""

    def __init__(self, listed=()):
        self.by_place: dict[tuple, str] = {(f, line, col): name
                                           for name, f, line, col in listed}

    def name(self, coord) -> str:
        place = (str(coord.file), coord.line, coord.column) if coord else ("?", 0, 0)
        if place not in self.by_place:
            self.by_place[place] = f"cl2c_ck_s{len(self.by_place)}"
        return self.by_place[place]

    def listed(self) -> list[tuple]:
        """(C name, file, line, column) of each site, for emission (and, given back to
        Sites(), the sites so far: the work-group stage checks a version of its own)."""
        return [(name, str(f), line, col) for (f, line, col), name in self.by_place.items()]
