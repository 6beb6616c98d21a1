//! What a player types to claim an account and to log in: a login name and a password.

use super::InputError;
use std::fmt;

/// The name an account logs in with: 3 to [`Username::MAX_CHARS`] ASCII letters, digits,
/// `.`, `_` or `-`, starting with a letter or digit, kept lowercase.
///
/// Why so narrow when display names accept any printable text: a login name is typed on
/// another device from memory, so it must not hide look-alike characters (Cyrillic "а" for
/// Latin "a"), and case-folding ASCII is unambiguous where Unicode case-folding is not. It
/// is separate from the display name, which stays free-form and need not be unique.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    pub const MIN_CHARS: usize = 3;
    pub const MAX_CHARS: usize = 32;

    pub fn parse(raw: &str) -> Result<Self, InputError> {
        let trimmed = raw.trim();
        let count = trimmed.chars().count();
        if !(Self::MIN_CHARS..=Self::MAX_CHARS).contains(&count) {
            return Err(InputError::Username(format!(
                "must be {} to {} characters, not {count}",
                Self::MIN_CHARS,
                Self::MAX_CHARS
            )));
        }
        if let Some(bad) = trimmed
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        {
            return Err(InputError::Username(format!(
                "may hold only ASCII letters, digits, '.', '_' and '-', not {bad:?}"
            )));
        }
        if !trimmed.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            return Err(InputError::Username("must start with a letter or a digit".into()));
        }
        Ok(Username(trimmed.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A password as sent: [`Password::MIN_CHARS`] to [`Password::MAX_CHARS`] characters, kept
/// exactly as typed (no trimming or normalisation, which would silently change what the
/// player chose). Its `Debug` never shows it, so it cannot leak into a log line.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    /// NIST SP 800-63B's floor for a password the user chose.
    pub const MIN_CHARS: usize = 8;
    /// Long enough for any passphrase or manager-generated password; bounded so one request
    /// cannot make the server hash megabytes.
    pub const MAX_CHARS: usize = 128;

    pub fn parse(raw: &str) -> Result<Self, InputError> {
        super::printable("password", raw)?;
        let count = raw.chars().count();
        if count < Self::MIN_CHARS {
            return Err(InputError::Password(format!(
                "must be at least {} characters, not {count}",
                Self::MIN_CHARS
            )));
        }
        if count > Self::MAX_CHARS {
            return Err(InputError::Password(format!(
                "must be at most {} characters, not {count}",
                Self::MAX_CHARS
            )));
        }
        Ok(Password(raw.to_string()))
    }

    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("Password(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_trimmed_lowercased_and_checked_for_look_alikes() {
        assert_eq!(
            Username::parse("  Ann.Lee_2 ").map(|u| u.0),
            Ok("ann.lee_2".to_string())
        );
        assert!(Username::parse("ab").is_err(), "too short");
        assert!(Username::parse(&"a".repeat(33)).is_err(), "too long");
        assert!(Username::parse("аnn").is_err(), "Cyrillic a");
        assert!(Username::parse("ann lee").is_err(), "space");
        assert!(Username::parse("-ann").is_err(), "leading punctuation");
    }

    #[test]
    fn passwords_are_kept_as_typed_within_their_bounds_and_never_printed() {
        let password = Password::parse(" correct horse ").expect("a password");
        assert_eq!(password.as_bytes(), b" correct horse ");
        assert_eq!(format!("{password:?}"), "Password(<redacted>)");
        assert!(Password::parse("short").is_err());
        assert!(Password::parse(&"é".repeat(128)).is_ok(), "counted in characters");
        assert!(Password::parse(&"x".repeat(129)).is_err());
        assert!(Password::parse("eight\0chars").is_err(), "control character");
    }
}
