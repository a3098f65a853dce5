"""Stage 2b, rules: build the frozen Ruleset from a checked tree (board, table, flow, whole-ruleset checks);
``load_ruleset``."""
