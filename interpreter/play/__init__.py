"""Stage 3, play: a game in progress (Game, State, the rules runtime, decisions) and what each seat may see."""
