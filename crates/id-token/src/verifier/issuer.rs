//! Which `iss` values a provider's id_tokens may carry.

use crate::claims::IdTokenClaims;
use std::fmt;
use std::sync::Arc;

/// A custom issuer rule: gets the token's `iss` and all its claims.
pub type IssuerRule = Arc<dyn Fn(&str, &IdTokenClaims) -> bool + Send + Sync>;

/// The issuer check of one provider.
#[derive(Clone)]
pub enum IssuerPolicy {
    /// `iss` must equal one of these exactly (Google: `https://accounts.google.com` and
    /// `accounts.google.com`).
    OneOf(Vec<String>),
    /// `iss` depends on the token itself, e.g. Microsoft's `common` endpoint, whose issuer is
    /// `https://login.microsoftonline.com/{tid}/v2.0` with the token's own `tid`.
    Rule(IssuerRule),
}

impl IssuerPolicy {
    /// A policy accepting exactly the given issuers.
    pub fn one_of<I, S>(issuers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self::OneOf(issuers.into_iter().map(Into::into).collect())
    }

    /// A policy deciding with `rule`.
    pub fn rule(rule: impl Fn(&str, &IdTokenClaims) -> bool + Send + Sync + 'static) -> Self {
        Self::Rule(Arc::new(rule))
    }

    /// Whether `claims` (with its `iss`) is from this provider; no `iss` never is.
    pub fn accepts(&self, claims: &IdTokenClaims) -> bool {
        let Some(iss) = claims.iss.as_deref() else {
            return false;
        };
        match self {
            Self::OneOf(issuers) => issuers.iter().any(|issuer| issuer == iss),
            Self::Rule(rule) => rule(iss, claims),
        }
    }
}

impl fmt::Debug for IssuerPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OneOf(issuers) => f.debug_tuple("OneOf").field(issuers).finish(),
            Self::Rule(_) => f.write_str("Rule(..)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(value: serde_json::Value) -> IdTokenClaims {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn a_listed_issuer_is_accepted_and_anything_else_refused() {
        let google = IssuerPolicy::one_of(["https://accounts.google.com", "accounts.google.com"]);
        assert!(google.accepts(&claims(json!({"iss": "https://accounts.google.com"}))));
        assert!(google.accepts(&claims(json!({"iss": "accounts.google.com"}))));
        assert!(!google.accepts(&claims(json!({"iss": "https://accounts.google.com/"}))));
        assert!(!google.accepts(&claims(json!({"iss": "https://evil.example"}))));
        assert!(!google.accepts(&claims(json!({}))));
    }

    #[test]
    fn a_rule_can_tie_the_issuer_to_another_claim() {
        let tenant = IssuerPolicy::rule(|iss, claims| {
            claims
                .extra
                .get("tid")
                .and_then(|tid| tid.as_str())
                .is_some_and(|tid| iss == format!("https://login.microsoftonline.com/{tid}/v2.0"))
        });
        let own = json!({"iss": "https://login.microsoftonline.com/t-1/v2.0", "tid": "t-1"});
        let foreign = json!({"iss": "https://login.microsoftonline.com/t-2/v2.0", "tid": "t-1"});
        assert!(tenant.accepts(&claims(own)));
        assert!(!tenant.accepts(&claims(foreign)));
    }
}
