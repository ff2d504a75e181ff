"""The version of cl2c: a leaf module, so that any module can read it without
importing the package (whose lazy attributes would make an import cycle)."""
__version__ = "0.1.0"
