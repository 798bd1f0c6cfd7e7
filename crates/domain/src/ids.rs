//! Identifiers of the stored entities. UUIDv7, so they sort by creation time.

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(::uuid::Uuid);

        impl $name {
            /// A fresh, time-ordered identifier.
            pub fn new() -> Self {
                Self(::uuid::Uuid::now_v7())
            }

            pub fn from_uuid(uuid: ::uuid::Uuid) -> Self {
                Self(uuid)
            }

            /// A time-ordered id (UUIDv7) from the milliseconds since the Unix epoch and ten
            /// random bytes, so the caller chooses where time and randomness come from.
            pub fn from_parts(unix_millis: u64, random: [u8; 10]) -> Self {
                Self(uuid::Builder::from_unix_timestamp_millis(unix_millis, &random).into_uuid())
            }

            pub fn as_uuid(&self) -> ::uuid::Uuid {
                self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = uuid::Error;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                ::uuid::Uuid::parse_str(s).map(Self)
            }
        }
    };
}

pub(crate) use id_type;

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
