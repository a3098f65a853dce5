"""Agents: who decides for a seat (bots, a person at the terminal), above play and observe.

An agent is called with the game, its seat and its legal actions and returns one of them.
"""
from .bots import FirstAgent, GreedyAgent, RandomAgent
from .human import HumanAgent
from .seats import AGENTS, make_agents, play_out

__all__ = ["AGENTS", "FirstAgent", "GreedyAgent", "HumanAgent", "RandomAgent", "make_agents", "play_out"]
