//! The ids the server mints: matches, tickets and players are all UUIDs, kept in their
//! lower-case hyphenated form (the one stored and sent).
//!
//! A value of these types always holds such a UUID: the only way in is [`MatchId::from_uuid`]
//! (and its twins), which `input` calls once it has parsed a client's text (`MatchId::parse`
//! lives there, with the edge's errors).

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $name(String);

        impl $name {
            pub fn from_uuid(id: uuid::Uuid) -> Self {
                $name(id.hyphenated().to_string())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            pub fn into_string(self) -> String {
                self.0
            }
        }
    };
}

uuid_id!(
    /// A match's id, as in `/v1/matches/{id}`.
    MatchId
);
uuid_id!(
    /// A matchmaking ticket's id.
    TicketId
);
uuid_id!(
    /// A player's public id (never their token).
    PlayerId
);
