//! Discord-only profile fields of a simulated person: the discriminator and avatar hash.

use serde::{Deserialize, Serialize};

/// What Discord knows of a person beyond [`crate::SimUser`]'s common fields. A user without a
/// seed is a migrated user (`discriminator` `"0"`) with no avatar. `username` is the
/// user's `login`, `global_name` their `name`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscordSeed {
    /// `"0"` for users migrated to unique usernames, else the legacy four digits.
    pub discriminator: String,
    /// The avatar hash; `a_` marks an animated one. `None` means the default avatar.
    pub avatar: Option<String>,
}

impl DiscordSeed {
    /// A user migrated to unique usernames (`discriminator` `"0"`), without an avatar.
    pub fn migrated() -> Self {
        Self {
            discriminator: "0".to_owned(),
            avatar: None,
        }
    }

    /// A user still on a legacy `name#1337` tag, without an avatar.
    pub fn legacy(discriminator: impl Into<String>) -> Self {
        Self {
            discriminator: discriminator.into(),
            avatar: None,
        }
    }

    pub fn with_avatar(mut self, hash: impl Into<String>) -> Self {
        self.avatar = Some(hash.into());
        self
    }
}
