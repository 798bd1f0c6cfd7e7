//! Enums whose every value has one fixed name (in configuration, in storage, on the wire):
//! `Display` writes the name and `FromStr` reads it back, both from the enum's own
//! `as_str` and its list of values, so the two directions cannot drift apart.

/// Implements `Display` (the value's `as_str()`) and `FromStr` (the one value of `$all`
/// with that name, else `$unknown`) for `$enum`.
macro_rules! named_enum {
    ($enum:ty, all: $all:expr, unknown: $unknown:ident) => {
        impl std::fmt::Display for $enum {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $enum {
            type Err = $unknown;

            fn from_str(name: &str) -> Result<Self, Self::Err> {
                $all.into_iter()
                    .find(|value| value.as_str() == name)
                    .ok_or($unknown)
            }
        }
    };
}

pub(crate) use named_enum;
