//! A marker field that makes a derived struct decode from a JSON object only.
//!
//! serde's derive also decodes a struct from a JSON array, its fields taken in order. No
//! provider answers so, and a body shaped that way is malformed: it must fail rather than
//! become an identity. A flattened field switches the derive to object-only decoding;
//! this one keeps nothing.
//!
//! ```
//! use serde::Deserialize;
//! use social_login_provider_core::ObjectOnly;
//!
//! #[derive(Deserialize)]
//! struct User {
//!     id: String,
//!     #[serde(flatten)]
//!     _object: ObjectOnly,
//! }
//!
//! assert!(serde_json::from_str::<User>(r#"{"id": "1", "other": 2}"#).is_ok());
//! assert!(serde_json::from_str::<User>(r#"["1"]"#).is_err());
//! ```

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};

/// Put `#[serde(flatten)] _object: ObjectOnly` in a struct decoded from a provider.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ObjectOnly;

impl<'de> Deserialize<'de> for ObjectOnly {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer).map(|_| Self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Outer {
        id: String,
        inner: Option<Inner>,
        #[serde(flatten)]
        _object: ObjectOnly,
    }

    #[derive(Debug, Deserialize)]
    struct Inner {
        #[allow(dead_code)] // Read by serde only.
        flag: bool,
        #[serde(flatten)]
        _object: ObjectOnly,
    }

    #[test]
    fn objects_decode_with_unknown_members_ignored() {
        let outer: Outer =
            serde_json::from_str(r#"{"id": "1", "inner": {"flag": true, "x": 1}, "y": [2]}"#)
                .unwrap();
        assert_eq!(outer.id, "1");
        assert!(outer.inner.is_some());
    }

    #[test]
    fn arrays_in_place_of_objects_are_refused_at_any_depth() {
        for body in [
            r#"["1"]"#,
            r#"["1", [true]]"#,
            r#"{"id": "1", "inner": [true]}"#,
        ] {
            assert!(serde_json::from_str::<Outer>(body).is_err(), "{body}");
        }
    }

    #[test]
    fn duplicate_members_are_still_refused() {
        assert!(serde_json::from_str::<Outer>(r#"{"id": "1", "id": "2"}"#).is_err());
    }
}
