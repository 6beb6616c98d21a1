//! The pure floors' tests, in one binary: the three games' rules engines and bots, the
//! arena, scorecards, the fairness vectors and the generated protocol schemas. No server, no
//! database, no process-wide state: each file is a module here, so the crate is linked once
//! for all of them (one binary per file linked it once per file).

mod ctg_harness;

mod arena;
mod champions_bots;
mod champions_cards;
mod champions_props;
mod champions_rules;
mod ctg_commands;
mod ctg_play;
mod ctg_properties;
mod ctg_seed_ball;
mod ctg_seed_rules;
mod fairness_vectors;
mod proto_schema;
mod scorecards;
mod wicketz_cards;
mod wicketz_properties;
mod wicketz_rules;
