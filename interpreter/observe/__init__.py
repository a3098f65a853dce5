"""Stage 4, observe: events and views turned into words for people."""
