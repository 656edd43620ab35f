"""Edward de Bono's L game: the exact rules, the solved game, and a PettingZoo environment.

>>> import lgame
>>> start = lgame.Rules("classic").start()
>>> str(start), len(start.legal_moves())
('NRR./.RB./.RB./.BBN r', 65)
>>> lgame.solve("classic").value(start)
'draw'

The rules, records, referee and solver come from the Rust crates through the native module
``lgame._lgame``. ``env`` (the PettingZoo environment), ``single_agent_env`` (Gymnasium, against
a computer player), ``lgame.vector.VectorEnv`` (N games stepped in Rust) and ``agent_accuracy``
(an agent scored against perfect play) need PettingZoo, Gymnasium and NumPy; the rules alone
need none of them. ``lgame.openspiel`` registers the game with OpenSpiel.
"""

from __future__ import annotations

from typing import Any

from ._lgame import (
    VARIANTS,
    Game,
    IllegalMoveError,
    Judgement,
    LgameError,
    Move,
    MoveError,
    Player,
    Position,
    PositionError,
    Record,
    RecordError,
    Rules,
    RulesError,
    Table,
    judge,
    solve,
)

__all__ = [
    "VARIANTS",
    "Game",
    "IllegalMoveError",
    "Judgement",
    "LgameError",
    "Move",
    "MoveError",
    "Player",
    "Position",
    "PositionError",
    "Record",
    "RecordError",
    "Rules",
    "RulesError",
    "Table",
    "agent_accuracy",
    "env",
    "judge",
    "single_agent_env",
    "solve",
]

# The environment needs PettingZoo, Gymnasium and NumPy (`pip install lgame[env]`); without
# them the rules and the solver still work, and `env`/`agent_accuracy` say what is missing.
# (Imported eagerly: importing the submodule lgame.env would otherwise rebind the name `env`
# here to the module.)
try:
    from .env import env
    from .oracle import agent_accuracy
    from .single import single_agent_env
except ModuleNotFoundError as _missing:
    if _missing.name not in ("pettingzoo", "gymnasium", "numpy"):
        raise
    _reason = (
        f"lgame's environment needs {_missing.name}: pip install pettingzoo gymnasium numpy"
    )

    def env(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        raise ImportError(_reason)

    def agent_accuracy(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        raise ImportError(_reason)

    def single_agent_env(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        raise ImportError(_reason)
