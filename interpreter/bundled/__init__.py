"""Rulesets and schemas shipped inside an installed wheel (copied in at build time)."""
