"""``davit explain``: a ruleset as a short rulebook in Markdown."""
from .explainer import describe, describe_paths, explain
from .markdown import value_text

__all__ = ["describe", "describe_paths", "explain", "value_text"]
