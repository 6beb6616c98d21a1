//! An operator's reason for a moderation action: kept in the audit log and, for an ended
//! match, in its log, so it must be readable text of a sane length.

use super::{InputError, printable};

/// 1 to [`Reason::MAX_CHARS`] characters of printable text, trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason(String);

impl Reason {
    pub const MAX_CHARS: usize = 200;

    pub fn parse(raw: &str) -> Result<Self, InputError> {
        printable("reason", raw)?;
        let trimmed = raw.trim();
        let count = trimmed.chars().count();
        if count == 0 || count > Self::MAX_CHARS {
            return Err(InputError::Reason(format!(
                "must be 1 to {} characters, not {count}",
                Self::MAX_CHARS
            )));
        }
        Ok(Reason(trimmed.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_trimmed_printable_text_of_bounded_length() {
        assert_eq!(Reason::parse("  spam ").map(|r| r.0), Ok("spam".to_string()));
        assert!(Reason::parse("   ").is_err());
        assert!(Reason::parse(&"x".repeat(201)).is_err());
        assert!(Reason::parse(&"x".repeat(200)).is_ok());
        assert!(Reason::parse("a\nb").is_err());
    }
}
