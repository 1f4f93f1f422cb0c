"""urim from Python: the Go engine's vectorized environment, games, agents,
evaluator and networks, through liburim.so (ctypes; docs/python.md)."""

from ._errors import (AgentError, ArgumentError, CheckpointError, ClosedError, FileError, IllegalActionError,
                      InternalError, SpecError, UrimError)
from ._lib import library_path, version
from .agent import Agent
from .evaluate import evaluate, match
from .game import AGENTS, Game
from .nnet import Network, export_npz, forward, import_npz, load_weights, save_checkpoint
from .vec import VecEnv
from . import gym, pettingzoo, random  # urim.random.RandomActions, urim.gym.UrimEnv, ... without their own import
from ._gym import AutoresetMode, register as _register

_register()  # urim/Urim-v0, when gymnasium is importable

__all__ = ["VecEnv", "Game", "Agent", "Network", "match", "evaluate", "save_checkpoint", "load_weights",
           "import_npz", "export_npz", "forward", "version", "library_path", "AGENTS", "UrimError",
           "IllegalActionError", "ClosedError", "SpecError", "CheckpointError", "AgentError", "InternalError",
           "ArgumentError", "FileError", "AutoresetMode", "random", "gym", "pettingzoo"]
