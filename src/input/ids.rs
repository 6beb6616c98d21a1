//! The ids in paths, parsed into the record's id types: a path segment that is not a UUID
//! the server could have minted is a client error (400), never a lookup that fails in the
//! store.

use super::{InputError, printable};
use crate::record::{MatchId, PlayerId, TicketId};

macro_rules! parse_uuid_id {
    ($name:ident, $field:literal) => {
        impl $name {
            /// Accepts the hyphenated form only (the one the server hands out), in either
            /// case, and keeps it lower-case as stored.
            pub fn parse(raw: &str) -> Result<Self, InputError> {
                printable($field, raw)?;
                if raw.len() != 36 {
                    return Err(InputError::MalformedId { field: $field });
                }
                uuid::Uuid::try_parse(raw)
                    .map($name::from_uuid)
                    .map_err(|_| InputError::MalformedId { field: $field })
            }
        }
    };
}

parse_uuid_id!(MatchId, "match id");
parse_uuid_id!(TicketId, "ticket id");
parse_uuid_id!(PlayerId, "player id");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hyphenated_uuids_are_ids_and_they_are_kept_lower_case() {
        let id = MatchId::parse("67E55044-10B1-426F-9247-BB680E5FE0C8").expect("a uuid");
        assert_eq!(id.as_str(), "67e55044-10b1-426f-9247-bb680e5fe0c8");
        for bad in [
            "",
            "no-such-match",
            "67e5504410b1426f9247bb680e5fe0c8",
            "{67e55044-10b1-426f-9247-bb680e5fe0c8}",
            "67e55044-10b1-426f-9247-bb680e5fe0c\0",
            "67e55044-10b1-426f-9247-bb680e5fe0c8x",
        ] {
            assert!(MatchId::parse(bad).is_err(), "{bad:?}");
        }
        assert!(matches!(
            PlayerId::parse("nobody"),
            Err(InputError::MalformedId { field: "player id" })
        ));
    }
}
