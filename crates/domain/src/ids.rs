//! Identifiers of the stored entities. UUIDv7, so they sort by creation time.

use std::fmt;
use std::str::FromStr;
use uuid::Uuid;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Uuid);

        impl $name {
            /// A fresh, time-ordered identifier.
            pub fn new() -> Self {
                Self(Uuid::now_v7())
            }

            pub fn from_uuid(uuid: Uuid) -> Self {
                Self(uuid)
            }

            /// A time-ordered id (UUIDv7) from the milliseconds since the Unix epoch and ten
            /// random bytes, so the caller chooses where time and randomness come from.
            pub fn from_parts(unix_millis: u64, random: [u8; 10]) -> Self {
                Self(uuid::Builder::from_unix_timestamp_millis(unix_millis, &random).into_uuid())
            }

            pub fn as_uuid(&self) -> Uuid {
                self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = uuid::Error;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(s).map(Self)
            }
        }
    };
}

id_type!(
    /// A user of the service.
    UserId
);
id_type!(
    /// A link between a user and one provider account.
    LinkedAccountId
);
id_type!(
    /// A chain of refresh tokens that descend from one login; reuse revokes the whole chain.
    FamilyId
);
