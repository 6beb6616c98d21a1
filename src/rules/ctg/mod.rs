//! Cricket: The Game (T10 / T20). Spec: `../shared/rules/ctg.md`.
