"""The PettingZoo environment: PettingZoo's own tests, observations, masks, rewards,
truncation by the draw rules, rendering."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import lgame
from lgame.env import DEFAULT_TURN_LIMIT, raw_env

ALL_VARIANTS = [rules for rules, _name, _summary in lgame.VARIANTS]

# Both players step aside and back: the start comes again after every 4 plies (the example
# of lgame::game::DrawRules).
THERE_AND_BACK = ["A1,A2,A3,B3", "C1,C2,C3,D3", "B2,B3,B4,C4", "B1,C1,C2,C3"]


# Two of api_test's advice warnings do not apply: the agents are named by the game's colours
# (as the issue asks), and a dict observation is what its own list exempts chess and connect
# four for (by name).
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("variant", ALL_VARIANTS + ["board=5x5", "misere,neutrals=1"])
def test_pettingzoo_api_test(variant):
    api_test(lgame.env(variant), num_cycles=1000)


def test_pettingzoo_seed_test():
    # The game is deterministic; seed_test checks two environments driven by the same seeded
    # action samples stay identical.
    seed_test(lambda: lgame.env("sudden-death"), num_cycles=500)


def test_spaces():
    env = lgame.env()
    env.reset()
    assert env.possible_agents == ["red", "blue"]
    assert env.agent_selection == "red"
    for agent in env.possible_agents:
        assert env.action_space(agent).n == 48 * comb(16, 2) == 5760
        space = env.observation_space(agent)
        assert space["observation"].shape == (4, 4, 3)
        assert space["observation"].dtype == np.int8
        assert space["action_mask"].shape == (5760,)
    wide = lgame.env("board=6x4,neutrals=3")
    wide.reset()
    # 6x4: 4(W-2)(H-1) + 4(W-1)(H-2) placements (rules.md), C(24, 3) neutral sets
    placements = 4 * 4 * 3 + 4 * 5 * 2
    assert wide.action_space("red").n == placements * comb(24, 3)
    assert wide.observation_space("blue")["observation"].shape == (4, 6, 3)


def test_observation_of_the_standard_setup():
    # NRR./.RB./.RB./.BBN r: Red B4,C4,B3,B2; Blue C3,C2,C1,B1; neutrals A4, D1.
    env = lgame.env()
    env.reset()
    red = {(3, 1), (3, 2), (2, 1), (1, 1)}
    blue = {(2, 2), (1, 2), (0, 2), (0, 1)}
    neutrals = {(3, 0), (0, 3)}

    def cells(plane):
        return {(int(r), int(c)) for r, c in zip(*np.nonzero(plane))}

    obs = env.observe("red")["observation"]
    assert (cells(obs[:, :, 0]), cells(obs[:, :, 1]), cells(obs[:, :, 2])) == (red, blue, neutrals)
    # Each agent sees its own L in channel 0.
    obs = env.observe("blue")["observation"]
    assert (cells(obs[:, :, 0]), cells(obs[:, :, 1]), cells(obs[:, :, 2])) == (blue, red, neutrals)


def test_action_mask_is_the_legal_moves():
    env = lgame.env()
    env.reset()
    mask = env.observe("red")["action_mask"]
    assert int(mask.sum()) == 65  # the standard setup's 65 legal moves (rules.md)
    assert not env.observe("blue")["action_mask"].any()  # not Blue's turn
    position = env.unwrapped.position
    legal = np.flatnonzero(mask)
    assert sorted(position.legal_actions()) == legal.tolist()
    assert {position.move_of(int(a)) for a in legal} == set(position.legal_moves())


def test_action_encoding_names_a_move_by_its_result():
    # action = placement * C(W*H, K) + colex rank of the neutrals' cells after the move
    rules = lgame.Rules("sudden-death")
    position = rules.start()
    per_placement = comb(16, 2)
    placements = {}
    for move in position.legal_moves():
        action = position.action_of(move)
        after = position.play(move)
        planes = np.frombuffer(after.planes(), dtype=np.int8).reshape(3, 4, 4)
        neutral_cells = sorted(int(i) for i in np.flatnonzero(planes[2]))  # row*W + column
        rank = sum(comb(cell, i + 1) for i, cell in enumerate(neutral_cells))
        assert action % per_placement == rank
        # the mover's L is channel 1 after the move (the other player is to move)
        l_cells = frozenset(int(i) for i in np.flatnonzero(planes[1]))
        assert placements.setdefault(l_cells, action // per_placement) == action // per_placement
        assert position.play_action(action) == after
    assert len(set(placements.values())) == len(placements)
    assert all(0 <= p < 48 for p in placements.values())


def test_steps_alternate_and_observations_follow():
    env = lgame.env()
    env.reset()
    position = env.unwrapped.position
    move = lgame.Move("A1,A2,A3,B3 D1-D2")
    env.step(position.action_of(move))
    assert env.agent_selection == "blue"
    assert str(env.unwrapped.position) == "N.../RRB./R.BN/RBB. b"
    obs, reward, terminated, truncated, info = env.last()
    assert (reward, terminated, truncated) == (0, False, False)
    expected = np.frombuffer(env.unwrapped.position.planes(), dtype=np.int8).reshape(3, 4, 4)
    assert np.array_equal(obs["observation"], expected.transpose(1, 2, 0))
    assert int(obs["action_mask"].sum()) == len(env.unwrapped.position.legal_moves())


def _finish(env):
    """Steps every agent left with None (the AEC way to end), returning the rewards seen."""
    seen = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, truncated, _info = env.last()
        assert terminated or truncated
        seen[agent] = reward
        env.step(None)
    return seen


def test_a_win_rewards_the_winner(table):
    # The corners setup is won in 1 for Red (analysis.md).
    env = lgame.env("setup=corners")
    env.reset()
    position = env.unwrapped.position
    assert table("setup=corners").value(position) == "win"
    best = table("setup=corners").best_moves(position)[0]
    env.step(position.action_of(best))
    assert env.terminations == {"red": True, "blue": True}
    assert env.truncations == {"red": False, "blue": False}
    assert env.unwrapped.game.result() == "1-0"
    assert _finish(env) == {"blue": -1, "red": 1}
    assert env.agents == []
    # Still observable once every agent is done: the final position, no legal action.
    for agent in ("red", "blue"):
        assert not env.observe(agent)["action_mask"].any()
    assert env.observe("blue")["observation"][:, :, 0].sum() == 4


@pytest.mark.parametrize("options, red", [("", -1), ("misere,", 1)])
def test_rewards_follow_the_result_not_the_trap(options, red):
    # Red to move is trapped: Red loses the classic game and wins misère.
    env = lgame.env(f"{options}setup=..../BBBN/R.B./RRRN:r")
    env.reset()
    assert env.unwrapped.position.is_over()
    assert env.terminations == {"red": True, "blue": True}
    assert not env.observe("red")["action_mask"].any()
    assert _finish(env) == {"red": red, "blue": -red}


def _play(env, moves):
    for text in moves:
        position = env.unwrapped.position
        env.step(position.action_of(text))


def test_truncated_by_repetition():
    env = lgame.env(turn_limit=None, repetition=3)
    env.reset()
    _play(env, THERE_AND_BACK)
    assert not any(env.truncations.values())
    _play(env, THERE_AND_BACK)  # the start occurs for the third time
    assert env.truncations == {"red": True, "blue": True}
    assert env.terminations == {"red": False, "blue": False}
    assert env.unwrapped.game.result() == "1/2-1/2"
    assert env.infos["red"]["termination"] == env.unwrapped.game.termination()
    assert _finish(env) == {"red": 0, "blue": 0}


def test_truncated_by_the_turn_limit():
    env = lgame.env(turn_limit=6, repetition=None)
    env.reset()
    _play(env, THERE_AND_BACK)
    _play(env, THERE_AND_BACK[:1])
    assert not any(env.truncations.values())
    _play(env, THERE_AND_BACK[1:2])
    assert env.unwrapped.game.plies == 6
    assert env.truncations == {"red": True, "blue": True}
    assert _finish(env) == {"red": 0, "blue": 0}


def test_no_draw_rules_play_on():
    env = lgame.env(turn_limit=None, repetition=None)
    env.reset()
    for _ in range(5):
        _play(env, THERE_AND_BACK)
    assert not any(env.truncations.values()) and env.unwrapped.game.plies == 20


def test_default_draw_rules_end_every_random_game():
    env = lgame.env()
    rng = np.random.default_rng(7)
    for _ in range(20):
        env.reset()
        plies = 0
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            plies += 1
        assert plies <= DEFAULT_TURN_LIMIT


def test_illegal_action_ends_the_game_with_a_penalty():
    env = lgame.env()
    env.reset()
    mask = env.observe("red")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert env.terminations["red"] and env.truncations["red"]
    _obs, reward, *_ = env.last()
    assert reward == -1


def test_raw_env_raises_on_an_illegal_action():
    raw = raw_env()
    raw.reset()
    mask = raw.observe("red")["action_mask"]
    with pytest.raises(lgame.IllegalMoveError):
        raw.step(int(np.flatnonzero(mask == 0)[0]))


def test_bad_arguments():
    with pytest.raises(lgame.RulesError):
        lgame.env("no-such-variant")
    with pytest.raises(ValueError, match="render_mode"):
        lgame.env(render_mode="pygame")


def test_pettingzoo_render_test():
    render_test(lambda render_mode: lgame.env("classic", render_mode=render_mode))


def test_render_human_prints_the_diagram(capsys):
    env = lgame.env(render_mode="human")
    env.reset()
    assert capsys.readouterr().out == env.unwrapped.position.diagram() + "\n"
    env.step(env.unwrapped.position.action_of("A1,A2,A3,B3 D1-D2"))
    assert capsys.readouterr().out == env.unwrapped.position.diagram() + "\n"
    assert "Blue to move" in env.unwrapped.position.diagram()


def test_render_ansi_is_the_diagram():
    env = lgame.env(render_mode="ansi")
    env.reset()
    text = env.render()
    assert text == env.unwrapped.position.diagram()
    assert "A B C D" in text


def test_render_rgb_array():
    k = 32
    env = lgame.env(render_mode="rgb_array")
    env.reset()
    image = env.render()
    assert image.shape == (4 * k, 4 * k, 3) and image.dtype == np.uint8

    def centre(cell):  # "B4" -> its pixel; row 1 is at the bottom of the image
        column, row = ord(cell[0]) - ord("A"), int(cell[1:])
        return tuple(image[(4 - row) * k + k // 2, column * k + k // 2])

    red, blue, neutral, empty = centre("B4"), centre("C1"), centre("A4"), centre("A1")
    assert len({red, blue, neutral, empty}) == 4
    assert red[0] > red[2] and blue[2] > blue[0]  # red is red, blue is blue
    assert centre("C4") == centre("B2") == red and centre("B1") == blue and centre("D1") == neutral
    # Colours stay with the players when Blue is to move.
    env.step(env.unwrapped.position.action_of("A1,A2,A3,B3 D1-D2"))
    image = env.render()
    assert centre("A1") == red and centre("C1") == blue and centre("D2") == neutral

    big = lgame.env("board=5x5", render_mode="rgb_array")
    big.reset()
    assert big.render().shape == (5 * k, 5 * k, 3)


@pytest.mark.parametrize("variant", ["scoring,target=5", "symmetry"])
def test_rewards_follow_the_result_under_scoring_and_symmetry(variant):
    # Random games without draw rules, to their end on the board: the reward goes to the
    # player the position names the winner (under scoring, the one who reached the target).
    env = lgame.env(variant, turn_limit=None, repetition=None)
    rng = np.random.default_rng(3)
    for _ in range(10):
        env.reset()
        while not any(env.terminations.values()):
            assert not any(env.truncations.values())
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        position = env.unwrapped.position
        winner = position.winner()
        assert winner in ("red", "blue")
        if variant.startswith("scoring"):
            red, blue = position.scores
            assert (red if winner == "red" else blue) >= 5
        loser = "blue" if winner == "red" else "red"
        assert _finish(env) == {winner: 1, loser: -1}
