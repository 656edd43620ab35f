"""lgame.openspiel: OpenSpiel's own checks and algorithms on the L game, cross-checked with
the solved table."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts, minimax

import lgame
import lgame.openspiel as los
from lgame.env import raw_env

NAMED = [rules for rules, _name, _summary in lgame.VARIANTS]


@pytest.mark.parametrize("variant", NAMED)
def test_openspiels_random_sim_test_passes(variant):
    game = pyspiel.load_game("lgame", {"variant": los.spiel_variant(variant)})
    assert game.num_distinct_actions() == lgame.Rules(variant).action_count()
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_variant_with_its_own_equals_signs_loads_from_a_game_string():
    game = pyspiel.load_game("lgame(variant=neutrals:1,turn_limit=50)")
    assert str(game) == "lgame(repetition=3,turn_limit=50,variant=neutrals:1)"
    assert game.rules == lgame.Rules("neutrals=1")
    assert game.max_game_length() == 50
    with pytest.raises(Exception, match="turn_limit"):
        los.load_game("classic", turn_limit=0)


def test_states_show_the_environments_observation_moves_and_returns():
    game = los.load_game("classic")
    state = game.new_initial_state()
    env = raw_env("classic")
    env.reset()
    rng = random.Random(1)
    observer = game.make_py_observer()
    while not state.is_terminal():
        player = state.current_player()
        agent = "red" if player == 0 else "blue"
        assert env.agent_selection == agent
        observer.set_from(state, player)
        seen = env.observe(agent)["observation"]
        assert np.array_equal(observer.dict["observation"], seen.transpose(2, 0, 1))
        assert state.legal_actions() == np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
        action = rng.choice(state.legal_actions())
        assert state.action_to_string(player, action) == str(state.position.move_of(action))
        state.apply_action(action)
        env.step(action)
    assert state.returns() == [env.rewards["red"], env.rewards["blue"]]
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()


def positions_with_a_value(table, value: str, plies: int, count: int, seed: int):
    """Positions of random games whose value for the mover is `value` in `plies` plies."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = lgame.Rules("classic").start()
        for _ in range(60):
            if position.is_over():
                break
            if table.value(position) == value and table.plies(position) == plies:
                found.append(position)
                break
            position = position.play(rng.choice(position.legal_moves()))
    return found


def test_minimax_finds_the_tables_wins_in_one_and_losses_in_two(table):
    solved = table("classic")
    game = los.load_game("classic")
    for value, plies, depth, expected in (("win", 1, 1, 1.0), ("loss", 2, 2, -1.0)):
        for position in positions_with_a_value(solved, value, plies, 5, seed=plies):
            state = game.new_initial_state()
            state.game = lgame.Game.from_record(custom_start_record(position))
            player = state.current_player()
            found, action = minimax.alpha_beta_search(
                game, state, value_function=lambda s: 0.0, maximum_depth=depth,
                maximizing_player_id=player,
            )
            assert found == expected, (str(position), value, plies)
            if value == "win":
                best = {position.action_of(m) for m in solved.best_moves(position)}
                assert action in best


def custom_start_record(position) -> str:
    """A record of no moves from `position`, with lgame.env's draw rules."""
    return f'[Variant "classic"]\n[Setup "{position}"]\n[TurnLimit "200"]\n[Repetition "3"]\n\n*\n'


def test_the_mcts_bot_and_minimax_play_a_game_to_its_end():
    game = los.load_game("classic", turn_limit=40)
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=40,
        evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng,
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            _, action = minimax.alpha_beta_search(
                game, state, value_function=lambda s: 0.0, maximum_depth=2,
                maximizing_player_id=1,
            )
        assert action in state.legal_actions()
        state.apply_action(action)
    returns = state.returns()
    assert sum(returns) == 0 and returns[0] in (-1.0, 0.0, 1.0)
    assert state.game.is_over()
