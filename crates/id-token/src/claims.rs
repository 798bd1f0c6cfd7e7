//! The claims of an id_token, decoded tolerantly: providers disagree on types (a string
//! `sub` or `iss` of another type counts as absent), and a quirk must not fail a sign-in that
//! is otherwise valid. Except the claims the token is checked by: an `aud`, `azp` or `nonce` of another type than
//! RFC 7519 and OpenID Connect give them makes the claims unreadable, as a check that read it
//! as absent would pass where it must refuse (an `azp` that is not ours).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// The claims the token is checked by; the others (the person's, which the declaration's
/// pointers read from `raw`, Microsoft's `tid`, Google's `hd`) are kept in `extra`. `Debug`
/// leaves out the nonce and the other claims.
#[derive(derive_more::Debug, Clone, Default, Deserialize)]
pub struct IdTokenClaims {
    #[serde(default, deserialize_with = "lenient_string")]
    pub iss: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub sub: Option<String>,
    #[serde(default)]
    pub aud: Audience,
    #[serde(default)]
    pub azp: Option<String>,
    #[serde(default, deserialize_with = "numeric_date")]
    pub exp: Option<i64>,
    #[serde(default, deserialize_with = "numeric_date")]
    pub iat: Option<i64>,
    #[serde(default, deserialize_with = "numeric_date")]
    pub nbf: Option<i64>,
    #[serde(default)]
    #[debug(skip)]
    pub nonce: Option<String>,
    #[serde(flatten)]
    #[debug(skip)]
    pub extra: Map<String, Value>,
    /// Every claim as the token carries it, for the declaration's JSON Pointers.
    #[serde(skip)]
    #[debug(skip)]
    pub raw: Map<String, Value>,
}

impl IdTokenClaims {
    /// Reads the typed claims from the token's claims object, keeping it whole in `raw`.
    pub fn from_raw(raw: Map<String, Value>) -> Result<Self, serde_json::Error> {
        let mut claims: Self = serde_json::from_value(Value::Object(raw.clone()))?;
        claims.raw = raw;
        Ok(claims)
    }
}

/// `aud`: one string or an array of strings (RFC 7519 §4.1.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Audience(pub Vec<String>);

impl Audience {
    pub fn contains(&self, client_id: &str) -> bool {
        self.0.iter().any(|aud| aud == client_id)
    }
}

impl<'de> Deserialize<'de> for Audience {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let not_a_string = || D::Error::custom("aud: a string or an array of strings");
        Ok(Self(match Value::deserialize(deserializer)? {
            Value::Null => Vec::new(),
            Value::String(one) => vec![one],
            Value::Array(many) => (many.into_iter())
                .map(|aud| match aud {
                    Value::String(aud) => Ok(aud),
                    _ => Err(not_a_string()),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(not_a_string()),
        }))
    }
}

/// A string claim; anything else (a number, an object) counts as absent rather than failing.
fn lenient_string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::String(text) => Some(text),
        _ => None,
    })
}

/// A NumericDate (seconds since the epoch), which RFC 7519 allows to be fractional.
fn numeric_date<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        // Truncating a fraction of a second is fine: it is far below the leeway.
        Value::Number(number) => number
            .as_i64()
            .or_else(|| number.as_f64().filter(|f| f.is_finite()).map(|f| f as i64)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(value: Value) -> IdTokenClaims {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn the_audience_is_a_string_or_an_array() {
        assert!(claims(json!({"aud": "client"})).aud.contains("client"));
        let many = claims(json!({"aud": ["other", "client"]})).aud;
        assert!(many.contains("client") && many.0.len() == 2);
        assert_eq!(claims(json!({"aud": null})).aud, Audience::default());
    }

    #[test]
    fn an_audience_azp_or_nonce_of_another_type_makes_the_claims_unreadable() {
        for odd in [
            json!({"aud": 5}),
            json!({"aud": ["client", 5]}),
            json!({"aud": "client", "azp": 123}),
            json!({"aud": "client", "nonce": {}}),
        ] {
            let raw = odd.as_object().unwrap().clone();
            assert!(IdTokenClaims::from_raw(raw).is_err(), "{odd}");
        }
    }

    #[test]
    fn numeric_dates_may_be_fractional() {
        let decoded = claims(json!({"exp": 1767229200.75, "iat": 1767225600}));
        assert_eq!(decoded.exp, Some(1767229200));
        assert_eq!(decoded.iat, Some(1767225600));
        assert_eq!(claims(json!({"exp": "soon"})).exp, None);
    }

    #[test]
    fn unknown_claims_are_kept_and_odd_types_count_as_absent() {
        let decoded = claims(json!({"tid": "t-1", "iss": {"host": "x"}, "sub": "1"}));
        assert_eq!(decoded.extra["tid"], "t-1");
        assert_eq!(decoded.iss, None);
        assert_eq!(decoded.sub.as_deref(), Some("1"));
    }

    #[test]
    fn the_raw_claims_are_kept_whole_beside_the_typed_ones() {
        let raw = json!({"sub": 42, "email_verified": "true", "data": {"id": 7}});
        let decoded = IdTokenClaims::from_raw(raw.as_object().unwrap().clone()).unwrap();
        assert_eq!(decoded.sub, None, "a number is no typed subject");
        assert_eq!(Value::Object(decoded.raw), raw);
    }

    #[test]
    fn debug_output_shows_no_email_or_nonce() {
        let decoded = claims(json!({"email": "ada@example.com", "nonce": "n-secret", "sub": "1"}));
        let printed = format!("{decoded:?}");
        assert!(!printed.contains("ada@example.com") && !printed.contains("n-secret"));
    }
}
