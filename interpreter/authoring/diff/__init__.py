"""``davit diff``: what differs between two rulesets, in rule terms."""
from .changes import Change, normalise_dsl
from .differ import diff, format_diff

__all__ = ["Change", "diff", "format_diff", "normalise_dsl"]
