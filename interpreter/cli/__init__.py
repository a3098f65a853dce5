"""The ``davit`` command (the top stage: it may use every other one)."""
from .main import main, run

__all__ = ["main", "run"]
