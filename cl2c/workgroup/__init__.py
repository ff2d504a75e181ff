"""The work-group function as data: its IR (ir.py), the C names it is written with
(names.py), and the one writer that prints it (write.py)."""
