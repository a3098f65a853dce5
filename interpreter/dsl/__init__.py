"""Stage 2a, the DSL: grammar, parser, syntax tree, type check, the compiler to closures and VM code, the primitives."""
