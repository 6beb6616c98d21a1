//! Cricket Champions (2-5 players). Spec: `../shared/rules/champions.md`.
