//! Wicketz. Spec: `../shared/rules/wicketz.md`.
