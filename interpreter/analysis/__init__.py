"""Many games at once: simulation and its statistics."""
