//! `[oauth_providers]`: one table per provider, built-in or from configuration, kept in the
//! order of the configuration (the order `GET /auth/oauth/providers` lists them in).

use super::ProviderConfig;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use social_login_domain::ProviderKey;
use std::fmt;

/// The provider tables by key, in configuration order. Keys are kept as written so that
/// validation can name a bad one (`oauth_providers.Acme_SSO`) instead of failing the load.
#[derive(Debug, Clone, Default)]
pub struct OAuthProviders(Vec<(String, ProviderConfig)>);

impl OAuthProviders {
    /// The table of `key`, enabled or not.
    pub fn get(&self, key: ProviderKey) -> Option<&ProviderConfig> {
        self.position(key).map(|index| &self.0[index].1)
    }

    /// The table of `key`, to change a provider in code (tests, demo).
    pub fn get_mut(&mut self, key: ProviderKey) -> Option<&mut ProviderConfig> {
        self.position(key).map(|index| &mut self.0[index].1)
    }

    /// Sets the table of `key`: replaced in place, else added last. Returns the old one.
    pub fn insert(&mut self, key: ProviderKey, config: ProviderConfig) -> Option<ProviderConfig> {
        match self.position(key) {
            Some(index) => Some(std::mem::replace(&mut self.0[index].1, config)),
            None => {
                self.0.push((key.to_string(), config));
                None
            }
        }
    }

    /// Takes the table of `key` out, keeping the order of the others.
    pub fn remove(&mut self, key: ProviderKey) -> Option<ProviderConfig> {
        let index = self.position(key)?;
        Some(self.0.remove(index).1)
    }

    /// Every table as written, valid key or not: what validation walks.
    pub fn tables(&self) -> impl Iterator<Item = (&str, &ProviderConfig)> {
        self.0.iter().map(|(key, config)| (key.as_str(), config))
    }

    /// Every table whose key is a provider key, enabled or not, in configuration order.
    pub fn configured(&self) -> impl Iterator<Item = (ProviderKey, &ProviderConfig)> {
        self.0
            .iter()
            .filter_map(|(raw, config)| raw.parse().ok().map(|key| (key, config)))
    }

    /// The configured providers whose `enabled` is true, in configuration order.
    pub fn enabled(&self) -> impl Iterator<Item = (ProviderKey, &ProviderConfig)> {
        self.configured().filter(|(_, config)| config.enabled)
    }

    fn position(&self, key: ProviderKey) -> Option<usize> {
        self.0.iter().position(|(raw, _)| raw == key.as_str())
    }
}

/// A map visitor rather than a `HashMap`: the tables arrive in file order (the `config`
/// crate's `preserve_order`), and that order is kept.
impl<'de> Deserialize<'de> for OAuthProviders {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TablesVisitor)
    }
}

struct TablesVisitor;

impl<'de> Visitor<'de> for TablesVisitor {
    type Value = OAuthProviders;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of provider tables")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut tables: Vec<(String, ProviderConfig)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if tables.iter().any(|(seen, _)| *seen == key) {
                return Err(de::Error::custom("a provider is configured twice"));
            }
            let config = map.next_value()?;
            tables.push((key, config));
        }
        Ok(OAuthProviders(tables))
    }
}
