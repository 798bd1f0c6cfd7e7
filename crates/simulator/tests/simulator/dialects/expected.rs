//! The expectations of the dialect tests (`expected.toml`): what a client sees each
//! simulated provider answer.

use crate::support::SimClient;
use crate::support::fixtures::{ALL, Fixture};
use serde::Deserialize;
use serde::de::{Deserializer, Error};
use serde_json::Value;
use social_login_simulator::{Provider, SimulatorHandle};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// An HTTP status and the outcome the simulator logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer(pub u16, pub String);

impl<'de> Deserialize<'de> for Answer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let (status, outcome) = text
            .split_once(' ')
            .ok_or_else(|| D::Error::custom(&text))?;
        Ok(Self(
            status.parse().map_err(D::Error::custom)?,
            outcome.to_owned(),
        ))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub unknown_client: Answer,
    pub missing_callback: String,
    pub denial: String,
    pub pkce_plain: bool,
    pub pkce_unknown_method: String,
    pub token_answer: TokenAnswer,
    pub mistakes: BTreeMap<String, Answer>,
    pub userinfo: Option<Userinfo>,
    pub issuer: Option<String>,
    pub revocation: Option<Revocation>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenAnswer {
    pub token_type: String,
    pub expires_in: Option<u64>,
    pub scope: Option<String>,
    pub prefix: String,
    pub refresh: bool,
    pub id_token: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Userinfo {
    /// Where the answer names the user (a JSON Pointer), and what it says.
    pub at: String,
    pub is: Value,
    pub missing: Answer,
    pub unknown: Answer,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Revocation {
    /// The JSON text of the answer to a live token; empty for an empty body.
    pub answer: String,
    pub unknown: Answer,
}

static EXPECTED: LazyLock<BTreeMap<String, Expected>> = LazyLock::new(|| {
    toml::from_str(include_str!("expected.toml")).expect("expected.toml is valid")
});

/// What `provider` is expected to answer.
pub fn of(provider: Provider) -> &'static Expected {
    &EXPECTED[provider.prefix()]
}

/// The fixtures whose providers have `part`, each with its client of `sim` and what is
/// expected of it.
pub fn having<T>(
    sim: &SimulatorHandle,
    part: fn(&'static Expected) -> Option<&'static T>,
) -> Vec<(Fixture, SimClient<'_>, &'static T)> {
    ALL.into_iter()
        .filter_map(|fixture| Some((fixture, fixture.client(sim), part(of(fixture.provider))?)))
        .collect()
}
