//! What a seat may ask for.

use super::field::Field;
use super::indicator::Style;
use super::strokes::{Line, Stroke};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum Command {
    /// The toss winner bats first (`bat: true`) or bowls first.
    ChooseInnings { bat: bool },
    /// The bowling side, between overs: pace or spin, optionally a new field, and (with the
    /// bowling variations option) the line. Omitted field keeps the current one; omitted line
    /// is on the wicket.
    SetOver {
        style: Style,
        #[serde(default)]
        field: Option<Field>,
        #[serde(default)]
        line: Option<Line>,
    },
    /// The batting side's stroke to the delivery it has seen; `wild_card` plays the face-up
    /// wild card instead of a dealt one.
    Play {
        stroke: Stroke,
        #[serde(default)]
        wild_card: bool,
    },
}
