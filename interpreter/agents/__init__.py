"""Agents: who decides for a seat (bots, a person at the terminal), above play and observe.

An agent is called with the game, its seat and its legal actions and returns one of them.
"""
from .bots import FirstAgent, GreedyAgent, RandomAgent
from .human import HumanAgent
from .ismcts import ISMCTSAgent, MCTSAgent
from .seats import AGENTS, agent_factory, make_agents, play_out

__all__ = ["AGENTS", "FirstAgent", "GreedyAgent", "HumanAgent", "ISMCTSAgent", "MCTSAgent", "RandomAgent",
           "agent_factory", "make_agents", "play_out"]
