//! The one way the store runs SQL on either backend.
//!
//! Both drivers accept the same text for nearly every query (`$1` placeholders work on
//! SQLite too), so each query is written once and compiled against both drivers:
//!
//! * `with_pool!` runs a [`Store`](super::Store) method's body on whichever pool the store
//!   holds; the body is compiled once per backend, so a query or a bound type that does not
//!   suit both fails to build.
//! * `on_each_connection!` stamps a step that several transactions share (writing a match
//!   and its seats, rating a finished match) for both connection types from one body.
//! * [`Dialect`] holds the few fragments where the two dialects differ (row locks), so such
//!   a query is still one text with the backend's fragment spliced in.
//!
//! What is left as explicit per-backend code differs by more than a fragment, each commented
//! where it is: the migrations (native column types), the journal's multi-row insert
//! (PostgreSQL binds five arrays to one `UNNEST`; SQLite has no arrays), and the cluster's
//! tables, which exist for PostgreSQL only.
//!
//! sqlx's `Any` driver would also give one text for both, but it decodes only a handful of
//! primitive types: no `chrono` times, no JSON, no derived `sqlx::Type` enums, all of which
//! the rows here are made of; compiling each query for both typed drivers keeps them.

/// Where the SQL of the two backends differs by a fragment.
#[derive(Debug)]
pub(super) struct Dialect {
    /// Appended to a `SELECT` whose rows the transaction goes on to update: PostgreSQL locks
    /// them; SQLite already holds its single write lock once the transaction has written.
    pub lock_for_update: &'static str,
    /// Appended to a `SELECT` of rows a concurrent pass may be working on: PostgreSQL skips
    /// rows another transaction holds; SQLite has one writer at a time, so nothing is held.
    pub skip_locked: &'static str,
}

pub(super) const SQLITE: Dialect = Dialect {
    lock_for_update: "",
    skip_locked: "",
};

pub(super) const POSTGRES: Dialect = Dialect {
    lock_for_update: " FOR UPDATE",
    skip_locked: " FOR UPDATE SKIP LOCKED",
};

/// A backend's connection type, knowing its [`Dialect`]: the steps `on_each_connection!`
/// stamps read it as `Self::DIALECT`.
pub(super) trait Backend {
    const DIALECT: Dialect;
}

impl Backend for sqlx::SqliteConnection {
    const DIALECT: Dialect = SQLITE;
}

impl Backend for sqlx::PgConnection {
    const DIALECT: Dialect = POSTGRES;
}

/// Runs `$body` with `$pool` bound to whichever pool the store holds; the body is compiled
/// once per backend, so a query that does not suit both fails to build.
macro_rules! with_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store {
            Store::Sqlite($pool) => $body,
            Store::Postgres($pool) => $body,
        }
    };
}

/// Implements `$trait` (whose supertrait is [`Backend`]) for both connection types from one
/// body; inside a transaction, `(*tx).step(..)` then runs the backend's copy.
macro_rules! on_each_connection {
    (impl $trait:ident { $($item:item)* }) => {
        impl $trait for sqlx::SqliteConnection {
            $($item)*
        }
        impl $trait for sqlx::PgConnection {
            $($item)*
        }
    };
}

impl super::Store {
    /// The fragments this store's SQL differs by.
    pub(super) fn dialect(&self) -> &'static Dialect {
        match self {
            super::Store::Sqlite(_) => &SQLITE,
            super::Store::Postgres(_) => &POSTGRES,
        }
    }
}
