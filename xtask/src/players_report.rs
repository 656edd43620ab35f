//! Writes `docs/players.md`: a round robin between the built-in levels in the classic game,
//! and the source documents' two claims about defence put to the test.
//!
//! `cargo xtask players-report` (writes docs/players.md; `--out FILE` elsewhere).

use std::fmt::Write as _;
use std::sync::Arc;

use lgame::game::{DrawRules, GameResult};
use lgame::{Board, Color, Game, Move, Position, Rules, Square};
use lgame_players::matches::play_out;
use lgame_players::{BuiltIn, Level, Player, PlayerSpec, Rng, Tablebases};
use lgame_solver::{Tablebase, Value};

/// Games per pairing (colours alternate).
const GAMES: u32 = 200;
/// The draw rules of every game: the printable kit's 40 plies, and threefold repetition.
const DRAWS: DrawRules = DrawRules {
    turn_limit: Some(40),
    repetition: Some(3),
};

/// Wins, draws and losses from one side's point of view.
#[derive(Default, Clone, Copy)]
struct Score {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Score {
    fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    fn cell(&self) -> String {
        let games = self.wins + self.draws + self.losses;
        format!(
            "+{} ={} −{} ({:.0}%)",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.points() / games as f64
        )
    }
}

/// Plays `games` games between two player factories, colours alternating, from `start`
/// (or the rules' setup); the score is the first player's.
fn duel(
    rules: &Rules,
    start: Option<&[Position]>,
    games: u32,
    first: &mut dyn FnMut(u64) -> Box<dyn Player>,
    second: &mut dyn FnMut(u64) -> Box<dyn Player>,
) -> Score {
    let mut score = Score::default();
    for n in 0..games {
        let seed = 1000 + n as u64;
        let (mut a, mut b) = (first(seed), second(seed + 500));
        let first_is_red = n % 2 == 0;
        let mut game = match start {
            Some(positions) => Game::from_position(positions[n as usize % positions.len()])
                .expect("a start that is not over"),
            None => Game::new(*rules),
        }
        .with_draw_rules(DRAWS);
        let players: [&mut dyn Player; 2] = if first_is_red {
            [a.as_mut(), b.as_mut()]
        } else {
            [b.as_mut(), a.as_mut()]
        };
        play_out(&mut game, players).expect("players always have a legal move");
        let first_color = if first_is_red {
            Color::Red
        } else {
            Color::Blue
        };
        match game
            .conclusion()
            .and_then(|c| c.result)
            .and_then(GameResult::winner)
        {
            Some(w) if w == first_color => score.wins += 1,
            Some(_) => score.losses += 1,
            None => score.draws += 1,
        }
    }
    score
}

/// The "one-move lookahead" defender of the encyclopedia article (one of the sources
/// docs/rules.md names): it knows the positions that are lost for the player to move (the 29
/// classes of the classic game: 15 trapped, 14 lost in 2–8 plies) and never plays a move
/// after which the opponent can put it into one.
struct LookaheadDefender {
    tb: Arc<Tablebase>,
    rng: Rng,
}

impl Player for LookaheadDefender {
    fn name(&self) -> String {
        "lookahead defender".into()
    }

    fn choose_move(&mut self, game: &Game) -> Option<Move> {
        let p = game.position();
        let lost_for_me = |q: &Position| matches!(self.tb.value(q), Ok(Value::Loss(_)));
        let safe: Vec<Move> = p
            .legal_moves()
            .into_iter()
            .filter(|m| {
                let after = p.play_unchecked(m);
                // The opponent may be trapped at once (a win for us), else no reply may land
                // us in a lost position.
                after.is_finished()
                    || after
                        .legal_moves()
                        .iter()
                        .all(|r| !lost_for_me(&after.play_unchecked(r)))
            })
            .collect();
        let all = p.legal_moves();
        let pool = if safe.is_empty() { &all } else { &safe };
        self.rng.pick(pool).copied()
    }
}

/// The cautious defender of the encyclopedia article's "defensive play": it never lets the
/// opponent trap it on the next move when it can avoid it, and never puts a neutral on a
/// killer cell (a cell of the edge that is not a corner).
struct CautiousDefender {
    rng: Rng,
}

fn killer_cells(board: Board) -> lgame::Bitboard {
    let mut edge = lgame::Bitboard::EMPTY;
    for c in 0..board.width() {
        for r in 0..board.height() {
            if c == 0 || r == 0 || c == board.width() - 1 || r == board.height() - 1 {
                edge |= Square::new(c, r).bit();
            }
        }
    }
    edge - board.corners()
}

impl Player for CautiousDefender {
    fn name(&self) -> String {
        "cautious defender".into()
    }

    fn choose_move(&mut self, game: &Game) -> Option<Move> {
        let p = game.position();
        let killers = killer_cells(p.board());
        let me = p.turn();
        let safe = |m: &Move| {
            let after = p.play_unchecked(m);
            after.outcome().is_none_or(|o| o.winner == me)
                && after.legal_moves().iter().all(|r| {
                    after
                        .play_unchecked(r)
                        .outcome()
                        .is_none_or(|o| o.winner == me)
                })
        };
        let all = p.legal_moves();
        let cautious: Vec<Move> = all
            .iter()
            .copied()
            .filter(|m| !m.neutrals_to().intersects(killers) && safe(m))
            .collect();
        let safe_any: Vec<Move> = all.iter().copied().filter(|m| safe(m)).collect();
        let pool = [&cautious, &safe_any, &all]
            .into_iter()
            .find(|pool| !pool.is_empty())
            .expect("a position that is not over has moves");
        self.rng.pick(pool).copied()
    }
}

/// The whole report, as Markdown.
pub fn report() -> String {
    let rules = Rules::classic();
    let levels = Levels {
        tablebases: Arc::new(Tablebases::default()),
    };
    let mut doc = String::new();
    let _ = writeln!(
        doc,
        "# The computer players\n\nWritten by `cargo xtask players-report`; every figure is from that run. Games start from the \
         standard setup of the classic game unless said otherwise, {GAMES} games a pairing with \
         colours alternating, drawn after 40 plies (the printable kit's short session) or at \
         the third repetition of a position. Seeds are fixed, so a rerun gives the same \
         tables.\n\n\
         The levels: `random` plays any legal move; `beginner` takes an immediate win and \
         otherwise never lets the opponent win on the next move if it can help it; \
         `intermediate` searches 3 plies with alpha-beta, scoring leaves by mobility (its L \
         moves minus the opponent's, plus one for each neutral on a killer cell); `perfect` \
         plays from the tablebase, winning as fast as possible, losing as slowly as possible, \
         and, when the position is drawn, choosing the drawing move that leaves the opponent \
         the most losing replies.\n"
    );

    round_robin(&mut doc, &rules, &levels);
    claim_lookahead_defends(&mut doc, &rules, &levels);
    claim_three_ahead_attacks(&mut doc, &rules, &levels);
    doc
}

/// Makes the built-in players, each game's from its seed, sharing one set of tables.
struct Levels {
    tablebases: Arc<Tablebases>,
}

impl Levels {
    fn level(&self, level: Level) -> impl FnMut(u64) -> Box<dyn Player> {
        let tablebases = self.tablebases.clone();
        move |seed: u64| -> Box<dyn Player> {
            Box::new(BuiltIn::new(
                PlayerSpec { level, strength: 0 },
                seed,
                tablebases.clone(),
            ))
        }
    }
}

/// Every level against every other.
fn round_robin(doc: &mut String, rules: &Rules, levels: &Levels) {
    let level = |l: Level| levels.level(l);
    let _ = writeln!(
        doc,
        "## Round robin\n\nEach cell is the row player's score against the column player: \
         wins, draws, losses, and points in per cent (a draw is half a point).\n"
    );
    let _ = write!(doc, "| | ");
    for l in Level::ALL {
        let _ = write!(doc, "{l} | ");
    }
    let _ = writeln!(doc, "total |\n|---|---|---|---|---|---|");
    for row in Level::ALL {
        let _ = write!(doc, "| **{row}** | ");
        let mut total = Score::default();
        for col in Level::ALL {
            let s = duel(rules, None, GAMES, &mut level(row), &mut level(col));
            total.wins += s.wins;
            total.draws += s.draws;
            total.losses += s.losses;
            let _ = write!(doc, "{} | ", s.cell());
            eprintln!("{row} vs {col}: {}", s.cell());
        }
        let _ = writeln!(doc, "{} |", total.cell());
    }
}

/// Claim 1: looking ahead one move and never ending up in a lost position avoids losing.
fn claim_lookahead_defends(doc: &mut String, rules: &Rules, levels: &Levels) {
    let level = |l: Level| levels.level(l);
    let tb = levels.tablebases.get(rules);
    let non_lost: Vec<Position> = {
        let index = tb.index();
        let mut rng = Rng::new(99);
        let mut picks = Vec::new();
        while picks.len() < 200 {
            let i = rng.below(index.len() as usize) as u64;
            if let (Some(p), Some(v)) = (index.position(i), tb.value_at(i)) {
                if !matches!(v, Value::Loss(_)) && !p.is_finished() {
                    picks.push(p);
                }
            }
        }
        picks
    };
    let mut defender = {
        let tb = tb.clone();
        move |seed: u64| -> Box<dyn Player> {
            Box::new(LookaheadDefender {
                tb: tb.clone(),
                rng: Rng::new(seed),
            })
        }
    };
    let from_start = duel(
        rules,
        None,
        GAMES,
        &mut defender,
        &mut level(Level::Perfect),
    );
    let _ = writeln!(
        doc,
        "\n## Claim 1: \"by looking ahead one move and never ending up in a lost position one can \
         avoid losing\"\n\nThe encyclopedia article (one of the sources \
         [`rules.md`](rules.md) names) lists the positions lost for the player to move and \
         says that looking ahead one move and never ending up in one of them avoids losing. \
         The *lookahead defender* tested here knows the lost positions (all 232, the 29 \
         classes: 15 trapped and 14 lost in 2 to 8 plies, from the solver) and looks one move \
         ahead: it plays, at random, any move after which no reply of the opponent puts it in \
         a lost position. It knows nothing else.\n\n\
         | defender vs perfect | result (defender's score) |\n|---|---|\n\
         | from the standard setup | {} |",
        from_start.cell()
    );
    eprintln!("claim 1 from start: {}", from_start.cell());
    // From random positions that are not lost for the player to move, who is the defender
    // (and, for comparison, `beginner`), against perfect.
    let from_positions = |mover: &mut dyn FnMut(u64) -> Box<dyn Player>| {
        let mut score = Score::default();
        for (n, p) in non_lost.iter().enumerate() {
            let mut first = mover(n as u64);
            let mut perfect = level(Level::Perfect)(n as u64 + 7);
            let mut game = Game::from_position(*p)
                .expect("not over")
                .with_draw_rules(DRAWS);
            let players: [&mut dyn Player; 2] = if p.turn() == Color::Red {
                [first.as_mut(), perfect.as_mut()]
            } else {
                [perfect.as_mut(), first.as_mut()]
            };
            play_out(&mut game, players).expect("legal moves");
            match game
                .conclusion()
                .and_then(|c| c.result)
                .and_then(GameResult::winner)
            {
                Some(w) if w == p.turn() => score.wins += 1,
                Some(_) => score.losses += 1,
                None => score.draws += 1,
            }
        }
        score
    };
    let random_starts = from_positions(&mut defender);
    let beginner_vs_perfect = from_positions(&mut level(Level::Beginner));
    let _ = writeln!(
        doc,
        "| from 200 random positions not lost for it, defender to move | {} |\n\
         | for comparison, `beginner` (it avoids only immediate losses) from the same positions, \
         to move | {} |\n",
        random_starts.cell(),
        beginner_vs_perfect.cell()
    );
    let verdict1 = if from_start.losses == 0 && random_starts.losses == 0 {
        format!(
            "The claim holds in every game played: the lookahead defender never lost to the \
             perfect player. It must: the lost positions are exactly those from which the \
             opponent can force a win, so a player who never steps into one after the \
             opponent's reply always keeps a drawn (or won) position. Knowing only the 15 \
             trapped positions is not enough: `beginner`, which avoids only immediate losses, \
             lost {} of the 200 games from the same positions.",
            beginner_vs_perfect.losses
        )
    } else {
        format!(
            "The claim failed: the lookahead defender lost {} games from the standard setup and \
             {} from random positions.",
            from_start.losses, random_starts.losses
        )
    };
    let _ = writeln!(doc, "{verdict1}\n");
}

/// Claim 2: a player who looks three moves ahead defeats defensive play.
fn claim_three_ahead_attacks(doc: &mut String, rules: &Rules, levels: &Levels) {
    let level = |l: Level| levels.level(l);
    let mut cautious = |seed: u64| -> Box<dyn Player> {
        Box::new(CautiousDefender {
            rng: Rng::new(seed),
        })
    };
    let three_ahead = duel(
        rules,
        None,
        GAMES,
        &mut level(Level::Intermediate),
        &mut cautious,
    );
    let perfect_vs_cautious = duel(
        rules,
        None,
        GAMES,
        &mut level(Level::Perfect),
        &mut cautious,
    );
    let beginner_vs_cautious = duel(
        rules,
        None,
        GAMES,
        &mut level(Level::Beginner),
        &mut cautious,
    );
    let sudden: Rules = "sudden-death".parse().expect("a variant");
    let three_ahead_sd = duel(
        &sudden,
        None,
        GAMES,
        &mut level(Level::Intermediate),
        &mut cautious,
    );
    let _ = writeln!(
        doc,
        "## Claim 2: \"a player who can look three moves ahead can defeat defensive play\"\n\n\
         The encyclopedia article says defensive play can go on for ever when players are too \
         cautious to move a neutral to a killer cell, and that a player who looks three moves \
         ahead can defeat it. The *cautious defender* tested here never puts a neutral on a \
         killer cell (the 8 edge cells that are not corners) and never lets the opponent win \
         on its next move when it can avoid it; otherwise it plays at random. The \
         three-moves-ahead player is `intermediate` (3 plies: its move, the reply, its next \
         move).\n\n\
         | attacker vs cautious defender | attacker's score |\n|---|---|\n\
         | `intermediate` (3 plies ahead) | {} |\n\
         | `beginner` (1 ply ahead) | {} |\n\
         | `perfect` | {} |\n\
         | `intermediate`, sudden-death rules | {} |\n",
        three_ahead.cell(),
        beginner_vs_cautious.cell(),
        perfect_vs_cautious.cell(),
        three_ahead_sd.cell()
    );
    eprintln!("claim 2: {}", three_ahead.cell());
    let verdict2 = if three_ahead.wins > three_ahead.losses && three_ahead.wins > 0 {
        format!(
            "Looking three plies ahead does beat this defence: `intermediate` won {} of {GAMES} \
             games and lost {}; the rest were drawn within the 40-ply limit or by repetition.",
            three_ahead.wins, three_ahead.losses
        )
    } else {
        format!(
            "Looking three plies ahead did not defeat this defence: `intermediate` won {} of \
             {GAMES} games and lost {}.",
            three_ahead.wins, three_ahead.losses
        )
    };
    let _ = writeln!(doc, "{verdict2}");
}
