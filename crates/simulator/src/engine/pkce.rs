//! PKCE (RFC 7636) the way a dialect takes it: which challenges the authorize endpoint
//! refuses and why, and which verifiers the token endpoint refuses with which error.

use crate::authorize::AuthorizeQuery;
use crate::codes::Grant;
use crate::dialect::{
    Described, Descriptions, ErrorSpec, MethodAlone, PkceRule, VerifierErrors, WithoutMethod,
};
use crate::pkce::{is_s256_challenge, is_valid_verifier};

/// Why an authorize request's PKCE parameters are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    MissingChallenge,
    MissingMethod,
    UnsupportedMethod,
    InvalidChallenge,
}

impl Problem {
    /// Its own description in the dialect, else the one of every PKCE refusal.
    pub fn description(self, words: &Descriptions) -> Option<&String> {
        let own = match self {
            Self::MissingChallenge => Described::MissingChallenge,
            Self::MissingMethod => Described::MissingMethod,
            Self::UnsupportedMethod => Described::UnsupportedMethod,
            Self::InvalidChallenge => Described::InvalidChallenge,
        };
        words.get(&own).or_else(|| words.get(&Described::Pkce))
    }
}

/// What is wrong with the request's challenge under `rule`, if anything.
pub fn at_authorize(rule: &PkceRule, q: &AuthorizeQuery) -> Option<Problem> {
    let Some(challenge) = q.code_challenge.as_deref() else {
        let method_alone =
            q.code_challenge_method.is_some() && rule.method_alone == MethodAlone::Refused;
        return (rule.required || method_alone).then_some(Problem::MissingChallenge);
    };
    let method = match (q.code_challenge_method.as_deref(), rule.without_method) {
        (Some(method), _) => method,
        (None, WithoutMethod::Plain) => "plain",
        (None, WithoutMethod::Unsupported) => return Some(Problem::UnsupportedMethod),
        (None, WithoutMethod::Missing) => return Some(Problem::MissingMethod),
    };
    if !rule.methods.iter().any(|m| m == method) {
        return Some(Problem::UnsupportedMethod);
    }
    let well_formed = match method {
        "S256" => is_s256_challenge(challenge),
        _ => is_valid_verifier(challenge),
    };
    (!well_formed).then_some(Problem::InvalidChallenge)
}

/// A verifier the token endpoint refuses before looking at the code (Discord).
pub fn malformed<'e>(errors: &'e VerifierErrors, verifier: Option<&str>) -> Option<&'e ErrorSpec> {
    let error = errors.malformed.as_ref()?;
    verifier
        .is_some_and(|v| !is_valid_verifier(v))
        .then_some(error)
}

/// The verifier against the code's challenge.
pub fn at_token<'e>(
    errors: &'e VerifierErrors,
    grant: &Grant,
    verifier: Option<&str>,
) -> Result<(), &'e ErrorSpec> {
    match (grant.pkce.code_challenge.is_some(), verifier) {
        (false, Some(_)) => errors.stray.as_ref().map_or(Ok(()), Err),
        (true, None) => Err(errors.missing.as_ref().unwrap_or(&errors.bad)),
        _ if !grant.pkce.verifier_matches(verifier) => Err(&errors.bad),
        _ => Ok(()),
    }
}
