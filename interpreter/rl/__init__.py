"""Reinforcement-learning interfaces: every ruleset as a PettingZoo environment and an OpenSpiel game.

Needs the optional extra ``davit[rl]`` (pettingzoo, gymnasium, numpy,
open_spiel); ``import interpreter`` never imports this package. See docs/rl.md.
"""
