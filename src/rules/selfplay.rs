//! Bots against each other, in memory: what `crease simulate <game>` runs for any
//! registered game, through the same views and the same bot entry point the server's bots
//! use, so a game needs no simulation loop of its own.

use super::{BotLevel, Dice, Game, MatchCore, Seat, Seed, SetupError, Viewer};

/// Far more commands than the longest match of any game takes.
const MAX_COMMANDS: u32 = 1_000_000;

/// Why a self-played match did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SelfPlayError {
    #[error("the options do not set up a match: {0}")]
    Setup(#[from] SetupError),
    #[error("the {level:?} bot of {seat} had no command when the game waited for it")]
    NoCommand { seat: Seat, level: BotLevel },
    #[error("the {level:?} bot of {seat} was refused {command}: {reason}")]
    Refused {
        seat: Seat,
        level: BotLevel,
        command: String,
        reason: String,
    },
    #[error("the game waits for nobody but has no result")]
    Stuck,
    #[error("the match did not finish within {MAX_COMMANDS} commands")]
    Unfinished,
}

/// A finished self-played match.
#[derive(Debug)]
pub struct SelfPlayed<G: Game> {
    pub core: MatchCore<G>,
    pub commands: u32,
    pub events: u32,
}

/// Plays one match with every seat's bot at `level`. Each seat draws its choices from its
/// own stream (derived from `seed`), apart from the match's dice, so the match's rolls are
/// the same whatever the bots choose to do with theirs.
pub fn play<G: Game>(
    options: &G::Options,
    seed: &Seed,
    level: BotLevel,
) -> Result<SelfPlayed<G>, SelfPlayError> {
    let mut core = MatchCore::<G>::new(options, seed)?;
    let seats = G::seat_count(options)?;
    let mut bot_dice: Vec<Dice> = (0..seats)
        .map(|seat| {
            let mut bytes = seed.0;
            bytes[31] ^= 0x80 | seat;
            Dice::new(&Seed(bytes))
        })
        .collect();
    let mut events = core.start().len() as u32;
    for commands in 0..MAX_COMMANDS {
        if G::outcome(&core.state).is_some() {
            return Ok(SelfPlayed {
                core,
                commands,
                events,
            });
        }
        let seat = *G::pending(&core.state).first().ok_or(SelfPlayError::Stuck)?;
        let view = G::view(&core.state, Viewer::Seat(seat));
        let command = G::bot_command_at(&view, level, &mut bot_dice[seat.index()])
            .ok_or(SelfPlayError::NoCommand { seat, level })?;
        let submitted = core
            .submit(seat, &command)
            .map_err(|reject| SelfPlayError::Refused {
                seat,
                level,
                command: format!("{command:?}"),
                reason: reject.to_string(),
            })?;
        events += submitted.events.len() as u32;
    }
    Err(SelfPlayError::Unfinished)
}
