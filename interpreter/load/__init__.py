"""Stage 1, load: read YAML safely with every position kept, find rulesets, merge includes and variants, check
the schemas."""
