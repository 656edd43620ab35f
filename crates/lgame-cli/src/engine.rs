//! `lgame engine`: a built-in player speaking the engine protocol on stdin/stdout.

use std::io::Write;
use std::sync::Arc;

use anyhow::anyhow;
use lgame::Rules;
use lgame_players::{engine, BuiltIn, Level, PlayerSpec, Tablebases};

use crate::output::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The level: random, beginner, intermediate or perfect.
    #[arg(long, default_value = "perfect", value_name = "LEVEL")]
    level: String,

    /// 0–100: the chance of playing the perfect move instead of the level's own.
    #[arg(long, default_value_t = 0, value_name = "S")]
    strength: u8,

    /// Seed of the player's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &Args, _rules: &Rules, out: &mut impl Write) -> Result<(), Failure> {
    let level: Level = args
        .level
        .parse()
        .map_err(|e| Failure::BadInput(anyhow!("--level: {e}")))?;
    if args.strength > 100 {
        return Err(Failure::BadInput(anyhow!(
            "--strength {} is not a number from 0 to 100",
            args.strength
        )));
    }
    let spec = PlayerSpec {
        level,
        strength: args.strength,
    };
    let mut player = BuiltIn::new(spec, args.seed, Arc::new(Tablebases::default()));
    let name = format!("lgame {spec}");
    engine::serve(&mut player, &name, std::io::stdin().lock(), &mut *out)?;
    Ok(())
}
