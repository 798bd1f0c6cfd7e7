//! Simulated people: the seeded directory and the identity the authorize endpoint approves as.

use crate::discord::seed::DiscordSeed;
use crate::microsoft::account::MicrosoftAccount;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::HashMap;

/// One entry of GitHub's `/user/emails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimEmail {
    pub email: String,
    pub primary: bool,
    pub verified: bool,
    /// `"public"`, `"private"` or `null`, as GitHub sends it.
    pub visibility: Option<String>,
}

/// A person who can sign in at any simulated provider. This is also the JSON body of
/// `POST /_control/identity` (`id` may be a number or a string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimUser {
    #[serde(deserialize_with = "number_or_string")]
    pub id: String,
    pub login: String,
    pub name: Option<String>,
    /// The primary email.
    pub email: Option<String>,
    #[serde(default)]
    pub email_verified: bool,
    /// What GitHub's `/user` shows as `email` (null unless the user made one public).
    pub public_email: Option<String>,
    /// The exact `/user/emails` list; derived from the fields above when absent.
    pub emails: Option<Vec<SimEmail>>,
    pub avatar_url: Option<String>,
    /// Discord's discriminator and avatar hash; `None`: migrated, default avatar.
    pub discord: Option<DiscordSeed>,
    /// Microsoft's tenant, UPN and `xms_edov`; `None`: a personal account.
    pub microsoft: Option<MicrosoftAccount>,
    /// Google's `hd`: the Workspace domain that manages the account; `None`: a consumer
    /// account, which Google sends no `hd` for.
    pub hosted_domain: Option<String>,
}

fn number_or_string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Number(u64),
        Text(String),
    }
    Ok(match Id::deserialize(deserializer)? {
        Id::Number(n) => n.to_string(),
        Id::Text(s) => s,
    })
}

impl SimUser {
    /// A user with no name and no email.
    pub fn new(id: impl Into<String>, login: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            login: login.into(),
            name: None,
            email: None,
            email_verified: false,
            public_email: None,
            emails: None,
            avatar_url: None,
            discord: None,
            microsoft: None,
            hosted_domain: None,
        }
    }

    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Sets the primary email and whether it is verified.
    pub fn with_email(mut self, email: impl Into<String>, verified: bool) -> Self {
        self.email = Some(email.into());
        self.email_verified = verified;
        self
    }

    pub fn with_public_email(mut self, email: impl Into<String>) -> Self {
        self.public_email = Some(email.into());
        self
    }

    pub fn with_emails(mut self, emails: Vec<SimEmail>) -> Self {
        self.emails = Some(emails);
        self
    }

    /// Makes this a Google Workspace account of `domain` (Google's `hd` claim).
    pub fn with_hosted_domain(mut self, domain: impl Into<String>) -> Self {
        self.hosted_domain = Some(domain.into());
        self
    }

    pub fn with_avatar_url(mut self, url: impl Into<String>) -> Self {
        self.avatar_url = Some(url.into());
        self
    }

    /// This user's addresses: the explicit list, or the primary email alone.
    pub fn addresses(&self) -> Vec<SimEmail> {
        if let Some(emails) = &self.emails {
            return emails.clone();
        }
        let primary = self.email.as_ref().map(|email| {
            let public = self.public_email.as_deref() == Some(email.as_str());
            SimEmail {
                email: email.clone(),
                primary: true,
                verified: self.email_verified,
                visibility: Some(if public { "public" } else { "private" }.to_owned()),
            }
        });
        primary.into_iter().collect()
    }

    /// GitHub's `/user/emails` for this user: the explicit list, or the primary email plus
    /// the `noreply` address every account has (verified, never primary).
    pub fn github_emails(&self) -> Vec<SimEmail> {
        let mut emails = self.addresses();
        if self.emails.is_some() {
            return emails;
        }
        emails.push(SimEmail {
            email: format!("{}+{}@users.noreply.github.com", self.id, self.login),
            primary: false,
            verified: true,
            visibility: None,
        });
        emails
    }
}

impl SimUser {
    /// Sets the Discord-only fields (discriminator, avatar hash).
    pub fn with_discord(mut self, seed: DiscordSeed) -> Self {
        self.discord = Some(seed);
        self
    }

    /// The Discord seed, or a migrated user without an avatar.
    pub(crate) fn discord_seed(&self) -> DiscordSeed {
        self.discord.clone().unwrap_or_else(DiscordSeed::migrated)
    }
}

impl SimUser {
    /// Sets the Microsoft-only facts (tenant, UPN, `xms_edov`).
    pub fn with_microsoft(mut self, account: MicrosoftAccount) -> Self {
        self.microsoft = Some(account);
        self
    }

    /// The Microsoft account, or a personal one.
    pub(crate) fn microsoft_account(&self) -> MicrosoftAccount {
        self.microsoft
            .clone()
            .unwrap_or_else(MicrosoftAccount::personal)
    }
}

/// The seeded users and the identity chosen when a request names none. Found by login or
/// id through an index each, so the benchmark's hundred thousand users cost a lookup, not a
/// scan, per sign-in.
#[derive(Debug, Default)]
pub struct Directory {
    users: Vec<SimUser>,
    by_login: HashMap<String, usize>,
    /// The first user (in seeding order) holding each id.
    by_id: HashMap<String, usize>,
    current: Option<String>,
}

impl Directory {
    pub fn new(users: Vec<SimUser>) -> Self {
        let mut directory = Self::default();
        for user in users {
            directory.upsert(user);
        }
        directory
    }

    /// Adds or replaces (by login) a user.
    pub fn upsert(&mut self, user: SimUser) {
        match self.by_login.get(&user.login) {
            Some(&index) => {
                let id_changed = self.users[index].id != user.id;
                self.users[index] = user;
                if id_changed {
                    self.index_ids();
                }
            }
            None => {
                let index = self.users.len();
                self.by_login.insert(user.login.clone(), index);
                self.by_id.entry(user.id.clone()).or_insert(index);
                self.users.push(user);
            }
        }
    }

    fn index_ids(&mut self) {
        self.by_id.clear();
        for (index, user) in self.users.iter().enumerate() {
            self.by_id.entry(user.id.clone()).or_insert(index);
        }
    }

    /// Every known user, in seeding order.
    pub fn all(&self) -> &[SimUser] {
        &self.users
    }

    /// Adds or replaces `user` and makes it the default identity.
    pub fn set_identity(&mut self, user: SimUser) {
        self.current = Some(user.login.clone());
        self.upsert(user);
    }

    /// The first user whose login or id a `hint` is; without a hint the default identity,
    /// else the first seeded user.
    pub fn choose(&self, hint: Option<&str>) -> Option<SimUser> {
        let wanted = hint.or(self.current.as_deref());
        let found = match wanted {
            // The first user, in seeding order, whose login or id it is.
            Some(name) => [self.by_login.get(name), self.by_id.get(name)]
                .into_iter()
                .flatten()
                .min()
                .map(|&index| &self.users[index]),
            None => self.users.first(),
        };
        found.cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str, login: &str) -> SimUser {
        SimUser::new(id, login)
    }

    #[test]
    fn users_are_found_by_login_or_id_first_in_seeding_order_and_replaced_by_login() {
        let mut directory = Directory::new(vec![user("1", "ada"), user("2", "bob")]);
        assert_eq!(directory.choose(Some("bob")).unwrap().id, "2");
        assert_eq!(directory.choose(Some("1")).unwrap().login, "ada");
        assert!(directory.choose(Some("nobody")).is_none());
        directory.upsert(user("ada", "carl"));
        assert_eq!(
            directory.choose(Some("ada")).unwrap().id,
            "1",
            "the first user named so, by login or by id"
        );
        assert_eq!(
            directory.choose(None).unwrap().login,
            "ada",
            "the first seeded"
        );

        directory.upsert(user("7", "ada"));
        assert_eq!(directory.all().len(), 3, "replaced, not added");
        assert_eq!(directory.choose(Some("7")).unwrap().login, "ada");
        assert!(directory.choose(Some("1")).is_none(), "the old id is gone");
        assert_eq!(directory.all()[0].id, "7", "in its place");
    }

    #[test]
    fn an_id_shared_by_two_users_names_the_first_and_the_identity_is_the_default() {
        let mut directory = Directory::new(vec![user("5", "first"), user("5", "second")]);
        assert_eq!(directory.choose(Some("5")).unwrap().login, "first");
        directory.set_identity(user("9", "carol"));
        assert_eq!(directory.choose(None).unwrap().login, "carol");
        assert_eq!(directory.all().len(), 3);
        let seeded = Directory::new(vec![user("1", "dup"), user("2", "dup")]);
        assert_eq!(
            seeded.all().len(),
            1,
            "logins are unique: the later one replaces"
        );
        assert_eq!(seeded.choose(Some("dup")).unwrap().id, "2");
    }
}
