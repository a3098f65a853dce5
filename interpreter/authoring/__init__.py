"""Tools for designers, beside the pipeline: validate, scenarios, explain, diff and draw."""
