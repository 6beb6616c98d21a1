//! Moderation: what an operator may do to players and matches, through the admin API
//! (`/v1/admin/...`) and `crease admin`.
//!
//! * A ban marks the player (its sessions then open nothing, and its password logs in to
//!   nothing), closes its sockets on every node, takes it out of every match it holds a
//!   seat in that is not over (a live one is forfeited by it, through the match's actor) and
//!   cancels its waiting tickets. Its sessions are kept, so an unban gives everything back.
//! * A rename gives a player a display name no other player holds (case-insensitively).
//! * Ending a match asks its actor, the one writer of its log, to log an `abandon` entry:
//!   nobody wins, nothing is rated, and replay and `verify` read the entry like a forfeit.
//! * Every action is recorded in `admin_audit` with the admin token's label, what was done
//!   to what, and when: in the transaction of its change where the change is a row here.
//!
//! The admin token is configuration only (`--admin-token` / `CREASE_ADMIN_TOKEN`), never a
//! default: without one the admin API refuses every request. Only the token's sha256 is
//! kept, and a presented token is compared with each in constant time.

use crate::accounts::{Accounts, Player};
use crate::input::{PlayerName, Reason};
use crate::matches::{Lobby, LobbyError};
use crate::protocol::MatchInfo;
use crate::record::{AuditAction, MatchId, PlayerId};
use crate::store::{AuditRow, ModeratedRow, NameRefused, NewAudit, Store, StoreError};
use chrono::Utc;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// `crease serve` settings for the admin API.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AdminConfig {
    /// A bearer token for the admin API (`/v1/admin/...`): `LABEL=TOKEN`, or just `TOKEN`
    /// (labelled `admin`). The label names the operator in the audit log. Repeat the flag,
    /// or separate with commas, for several. Unset, the admin API is disabled.
    #[arg(long = "admin-token", env = "CREASE_ADMIN_TOKEN", value_delimiter = ',',
          hide_env_values = true, value_parser = AdminToken::parse)]
    pub admin_tokens: Vec<AdminToken>,
}

/// One configured admin token: its label and the sha256 of the secret (the secret itself is
/// not kept, and never printed: `Debug` shows the label only).
#[derive(Clone)]
pub struct AdminToken {
    label: String,
    digest: [u8; 32],
}

impl std::fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminToken")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// The label of a token given without one.
pub const DEFAULT_LABEL: &str = "admin";

impl AdminToken {
    /// The shortest secret accepted: a guessable admin token would be the whole server's key.
    pub const MIN_CHARS: usize = 16;

    /// `LABEL=TOKEN` (a label is 1 to 32 of `A-Z a-z 0-9 . _ -`) or `TOKEN`; the secret is
    /// 16 to 256 printable ASCII characters without spaces.
    pub fn parse(text: &str) -> Result<AdminToken, String> {
        let secret = secret_of(text);
        let label = match text.len() > secret.len() {
            true => &text[..text.len() - secret.len() - 1],
            false => DEFAULT_LABEL,
        };
        let length = secret.chars().count();
        if !(Self::MIN_CHARS..=256).contains(&length) || !secret.bytes().all(|byte| byte.is_ascii_graphic()) {
            return Err(format!(
                "an admin token must be {} to 256 printable ASCII characters without spaces (optionally LABEL=TOKEN)",
                Self::MIN_CHARS
            ));
        }
        Ok(AdminToken {
            label: label.to_string(),
            digest: Sha256::digest(secret.as_bytes()).into(),
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }
}

/// The secret of an admin token setting (`LABEL=TOKEN` or `TOKEN`; of a comma-separated
/// list, the first): what a client sends as its bearer token.
pub fn secret_of(setting: &str) -> &str {
    let first = setting.split(',').next().unwrap_or_default();
    match first.split_once('=') {
        Some((label, secret)) if is_label(label) => secret,
        _ => first,
    }
}

fn is_label(text: &str) -> bool {
    (1..=32).contains(&text.len())
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-'))
}

/// What a presented admin token opens.
#[derive(Debug, PartialEq, Eq)]
pub enum AdminCheck {
    /// No admin token is configured: the admin API is off.
    Disabled,
    /// The token is none of the configured ones.
    Refused,
    /// The label of the token that matched.
    Admin(String),
}

impl AdminConfig {
    /// Which configured token `presented` is. Both sides are hashed first (so lengths do not
    /// show) and every configured token is compared, in constant time, whatever matched.
    pub fn check(&self, presented: Option<&str>) -> AdminCheck {
        if self.admin_tokens.is_empty() {
            return AdminCheck::Disabled;
        }
        let Some(presented) = presented else {
            return AdminCheck::Refused;
        };
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = None;
        for token in &self.admin_tokens {
            if bool::from(token.digest.ct_eq(&digest)) && found.is_none() {
                found = Some(token.label.clone());
            }
        }
        found.map_or(AdminCheck::Refused, AdminCheck::Admin)
    }
}

/// Why a moderation request failed: moderation's own words, which the HTTP layer maps.
#[derive(Debug, thiserror::Error)]
pub enum ModerationError {
    #[error("no such player")]
    PlayerNotFound,
    #[error("the display name {0:?} is taken")]
    NameTaken(String),
    #[error(transparent)]
    Lobby(#[from] LobbyError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a ban did.
#[derive(Debug)]
pub struct BanReport {
    pub player: ModeratedRow,
    /// Sessions whose sockets were told to close.
    pub sessions_closed: usize,
    /// Matches the player was taken out of (open ones left, live ones forfeited).
    pub matches_left: Vec<MatchId>,
}

/// The admin actions, over the accounts, the lobby and the store.
pub struct Moderation {
    store: Store,
    accounts: Arc<Accounts>,
    lobby: Arc<Lobby>,
}

/// The forfeit reason a banned player's live matches are logged with.
pub const BANNED_REASON: &str = "banned by an operator";

impl Moderation {
    pub fn new(store: Store, accounts: Arc<Accounts>, lobby: Arc<Lobby>) -> Self {
        Moderation {
            store,
            accounts,
            lobby,
        }
    }

    async fn player(&self, player_id: &PlayerId) -> Result<ModeratedRow, ModerationError> {
        self.store
            .moderated_player(player_id)
            .await?
            .ok_or(ModerationError::PlayerNotFound)
    }

    /// Bans `player_id`: first the mark (its tokens stop opening anything, so it cannot start
    /// anything new), then its sockets close and its unfinished matches end.
    pub async fn ban(
        &self,
        by: &str,
        player_id: &PlayerId,
        reason: &Reason,
    ) -> Result<BanReport, ModerationError> {
        let audit = NewAudit {
            actor: by.to_string(),
            action: AuditAction::Ban,
            target: player_id.to_string(),
            details: json!({ "reason": reason.as_str() }),
        };
        if !self
            .store
            .ban_player(player_id, reason.as_str(), &audit, Utc::now())
            .await?
        {
            return Err(ModerationError::PlayerNotFound);
        }
        let row = self.player(player_id).await?;
        let sessions_closed = self.accounts.close_sockets_of(player_id).await?;
        let player = Player {
            player_id: player_id.clone(),
            name: row.name.clone(),
        };
        let matches_left = self.lobby.leave_all(&player, BANNED_REASON).await?;
        tracing::info!(%player_id, by, sessions_closed, matches = matches_left.len(), "player banned");
        Ok(BanReport {
            player: row,
            sessions_closed,
            matches_left,
        })
    }

    /// Lifts a ban: the player's sessions that have not expired open it again, and its
    /// password logs in.
    pub async fn unban(&self, by: &str, player_id: &PlayerId) -> Result<ModeratedRow, ModerationError> {
        let audit = NewAudit {
            actor: by.to_string(),
            action: AuditAction::Unban,
            target: player_id.to_string(),
            details: json!({}),
        };
        if !self.store.unban_player(player_id, &audit, Utc::now()).await? {
            return Err(ModerationError::PlayerNotFound);
        }
        tracing::info!(%player_id, by, "player unbanned");
        self.player(player_id).await
    }

    /// Renames a player, unless another player holds the name (case-insensitively).
    pub async fn rename(
        &self,
        by: &str,
        player_id: &PlayerId,
        name: PlayerName,
    ) -> Result<ModeratedRow, ModerationError> {
        let before = self.player(player_id).await?;
        let audit = NewAudit {
            actor: by.to_string(),
            action: AuditAction::Rename,
            target: player_id.to_string(),
            details: json!({ "from": before.name, "to": name.as_str() }),
        };
        match self
            .store
            .rename_player(player_id, name.as_str(), &audit, Utc::now())
            .await
        {
            Ok(true) => {}
            Ok(false) => return Err(ModerationError::PlayerNotFound),
            Err(NameRefused::Taken) => return Err(ModerationError::NameTaken(name.into_string())),
            Err(NameRefused::Store(error)) => return Err(error.into()),
        }
        tracing::info!(%player_id, by, "player renamed");
        self.player(player_id).await
    }

    /// Ends a live match as abandoned (its actor logs it), then records the action. Nothing
    /// is recorded for a refusal: the match was not changed.
    pub async fn end_match(
        &self,
        by: &str,
        match_id: &MatchId,
        reason: &Reason,
    ) -> Result<MatchInfo, ModerationError> {
        let info = self.lobby.abandon(match_id, reason.as_str(), by).await?;
        let audit = NewAudit {
            actor: by.to_string(),
            action: AuditAction::EndMatch,
            target: match_id.to_string(),
            details: json!({ "reason": reason.as_str() }),
        };
        self.store.record_audit(&audit, Utc::now()).await?;
        Ok(info)
    }

    /// Players whose name contains `text`, case-insensitively, by name.
    pub async fn players(
        &self,
        text: &str,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<ModeratedRow>, ModerationError> {
        Ok(self.store.search_players(text, limit, offset).await?)
    }

    /// The audit log, newest first.
    pub async fn audit(&self, limit: i64, before: Option<i64>) -> Result<Vec<AuditRow>, ModerationError> {
        Ok(self.store.audit_log(limit, before).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(tokens: &[&str]) -> AdminConfig {
        AdminConfig {
            admin_tokens: tokens
                .iter()
                .map(|text| AdminToken::parse(text).expect("a token"))
                .collect(),
        }
    }

    #[test]
    fn tokens_open_their_label_and_nothing_else() {
        assert_eq!(
            AdminConfig::default().check(Some("anything")),
            AdminCheck::Disabled
        );
        let admins = config(&["0123456789abcdef", "ops=fedcba9876543210"]);
        assert_eq!(
            admins.check(Some("0123456789abcdef")),
            AdminCheck::Admin("admin".into())
        );
        assert_eq!(
            admins.check(Some("fedcba9876543210")),
            AdminCheck::Admin("ops".into())
        );
        assert_eq!(admins.check(Some("ops=fedcba9876543210")), AdminCheck::Refused);
        assert_eq!(admins.check(Some("0123456789abcde")), AdminCheck::Refused);
        assert_eq!(admins.check(None), AdminCheck::Refused);
    }

    #[test]
    fn short_or_spaced_tokens_are_refused_and_never_printed() {
        assert!(AdminToken::parse("short").is_err());
        assert!(AdminToken::parse("ops=short").is_err());
        assert!(AdminToken::parse("with a space inside it").is_err());
        // A token with `=` whose prefix is not a label is a token as a whole.
        let token = AdminToken::parse("not a label=0123456789abcdef").err();
        assert!(token.is_some(), "spaces make it neither a label nor a token");
        let plain = AdminToken::parse("abc+/=0123456789abcdef").expect("a token");
        assert_eq!(plain.label(), "admin");
        assert_eq!(secret_of("abc+/=0123456789abcdef"), "abc+/=0123456789abcdef");
        assert_eq!(secret_of("ops=fedcba9876543210,other"), "fedcba9876543210");
        let shown = format!(
            "{:?}",
            AdminToken::parse("ops=fedcba9876543210").expect("a token")
        );
        assert!(shown.contains("ops") && !shown.contains("fedcba"), "{shown}");
    }
}
