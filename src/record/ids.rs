//! The ids the server mints: matches, tickets and players are all UUIDs, kept in their
//! lower-case hyphenated form (the one stored and sent).
//!
//! A value of these types always holds such a UUID: the only way in is [`MatchId::from_uuid`]
//! (and its twins), which `input` calls once it has parsed a client's text (`MatchId::parse`
//! lives there, with the edge's errors).
//!
//! The store binds and reads them as the TEXT they are (on both backends): a row's id column
//! decodes through `from_uuid` too, after the same UUID check as the edge's, so the rows hold
//! typed ids and no floor in between turns an id back into a string to pass it on. Ids
//! become text again only on the wire (protocol bodies, NATS subjects), through `as_str`,
//! `into_string` or `Display`.

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl<DB: sqlx::Database> sqlx::Type<DB> for $name
        where
            String: sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <String as sqlx::Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <String as sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'q, DB: sqlx::Database> sqlx::Encode<'q, DB> for $name
        where
            String: sqlx::Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut <DB as sqlx::Database>::ArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                self.0.encode_by_ref(buf)
            }
        }

        /// A stored id that is not a UUID fails to decode (the store reports it as
        /// malformed data) rather than making a value that breaks the type's promise.
        impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for $name
        where
            String: sqlx::Decode<'r, DB>,
        {
            fn decode(value: <DB as sqlx::Database>::ValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                let text = <String as sqlx::Decode<'r, DB>>::decode(value)?;
                Ok($name::from_uuid(uuid::Uuid::try_parse(&text)?))
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
