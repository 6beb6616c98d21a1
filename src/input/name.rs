//! Player names: what other players read next to a seat, so they must be visible text.

use super::{InputError, printable};
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// A display name: 1 to [`PlayerName::MAX_CHARS`] printable characters after
/// normalisation (Unicode NFC, so "é" typed as `e` + accent and as one character compare and
/// count the same; trimmed; every run of whitespace inside collapsed to one space).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerName(String);

impl PlayerName {
    pub const MAX_CHARS: usize = 40;

    pub fn parse(raw: &str) -> Result<Self, InputError> {
        printable("name", raw)?;
        // Format characters (zero-width joiners, bidi overrides), private-use and unassigned
        // code points print as nothing or as something else: a name must show what it is.
        if let Some(c) = raw.chars().find(|c| {
            matches!(
                c.general_category(),
                GeneralCategory::Format
                    | GeneralCategory::PrivateUse
                    | GeneralCategory::Unassigned
                    | GeneralCategory::Surrogate
            )
        }) {
            return Err(InputError::Name(format!(
                "must be printable text; U+{:04X} is not printable",
                u32::from(c)
            )));
        }
        let normalised: String = raw
            .nfc()
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let count = normalised.chars().count();
        if count == 0 {
            return Err(InputError::Name("must not be empty or only whitespace".into()));
        }
        if count > Self::MAX_CHARS {
            return Err(InputError::Name(format!(
                "must be at most {} characters after normalisation, not {count}",
                Self::MAX_CHARS
            )));
        }
        Ok(PlayerName(normalised))
    }

    pub fn into_string(self) -> String {
        self.0
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name with the suffix ` #n` (`Ana` -> `Ana #2`) that tells a guest apart from the
    /// player who chose the name first; the name is shortened to keep within
    /// [`PlayerName::MAX_CHARS`].
    pub fn with_suffix(&self, n: u32) -> PlayerName {
        let suffix = format!(" #{n}");
        let room = Self::MAX_CHARS.saturating_sub(suffix.chars().count());
        let base: String = self.0.chars().take(room).collect();
        PlayerName(format!("{}{suffix}", base.trim_end()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(raw: &str) -> Result<String, String> {
        PlayerName::parse(raw)
            .map(PlayerName::into_string)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn names_are_normalised_then_counted() {
        assert_eq!(name("  Ann \u{3000}  Lee ").as_deref(), Ok("Ann Lee"));
        // NFC: e + combining acute is one character, é.
        assert_eq!(name("Rene\u{301}").as_deref(), Ok("René"));
        assert_eq!(name(&"e\u{301}".repeat(40)).map(|n| n.chars().count()), Ok(40));
        assert_eq!(name(&"x".repeat(40)).map(|n| n.len()), Ok(40));
        assert_eq!(
            name(&"x".repeat(41)),
            Err("name must be at most 40 characters after normalisation, not 41".into())
        );
        assert_eq!(
            name(" \u{a0} "),
            Err("name must not be empty or only whitespace".into())
        );
        assert!(name("a\tb").unwrap_err().contains("U+0009"));
        assert!(name("a\0").unwrap_err().contains("U+0000"));
        assert!(name("evil\u{202e}txt").unwrap_err().contains("U+202E"));
        assert!(name("zero\u{200b}width").unwrap_err().contains("not printable"));
    }

    #[test]
    fn a_suffix_keeps_the_name_within_its_length() {
        let ana = PlayerName::parse("Ana").expect("a name");
        assert_eq!(ana.with_suffix(2).as_str(), "Ana #2");
        let long = PlayerName::parse(&"x".repeat(40)).expect("a name");
        let suffixed = long.with_suffix(12);
        assert_eq!(suffixed.as_str().chars().count(), PlayerName::MAX_CHARS);
        assert!(suffixed.as_str().ends_with("x #12"), "{}", suffixed.as_str());
        let spaced = PlayerName::parse(&format!("{} b", "a".repeat(36))).expect("a name");
        assert_eq!(spaced.with_suffix(2).as_str(), format!("{} #2", "a".repeat(36)));
    }
}
