//! Simulated people: the seeded directory and the identity the authorize endpoint approves as.

use serde::{Deserialize, Deserializer, Serialize};

/// One entry of GitHub's `/user/emails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimEmail {
    pub email: String,
    pub primary: bool,
    pub verified: bool,
    /// `"public"`, `"private"` or `null`, as GitHub sends it.
    #[serde(default)]
    pub visibility: Option<String>,
}

/// A person who can sign in at any simulated provider. This is also the JSON body of
/// `POST /_control/identity` (`id` may be a number or a string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimUser {
    #[serde(deserialize_with = "number_or_string")]
    pub id: String,
    pub login: String,
    #[serde(default)]
    pub name: Option<String>,
    /// The primary email.
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub email_verified: bool,
    /// What GitHub's `/user` shows as `email` (null unless the user made one public).
    #[serde(default)]
    pub public_email: Option<String>,
    /// The exact `/user/emails` list; derived from the fields above when absent.
    #[serde(default)]
    pub emails: Option<Vec<SimEmail>>,
    #[serde(default)]
    pub avatar_url: Option<String>,
    /// Discord's discriminator and avatar hash; `None`: migrated, default avatar.
    #[serde(default)]
    pub discord: Option<crate::discord::DiscordSeed>,
    /// Microsoft's tenant, UPN and `xms_edov`; `None`: a personal account.
    #[serde(default)]
    pub microsoft: Option<crate::microsoft::MicrosoftAccount>,
    /// Google's `hd`: the Workspace domain that manages the account; `None`: a consumer
    /// account, which Google sends no `hd` for.
    #[serde(default)]
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

    /// GitHub's `/user/emails` for this user: the explicit list, or the primary email plus
    /// the `noreply` address every account has (verified, never primary).
    pub fn github_emails(&self) -> Vec<SimEmail> {
        if let Some(emails) = &self.emails {
            return emails.clone();
        }
        let mut emails = Vec::new();
        if let Some(email) = &self.email {
            let public = self.public_email.as_deref() == Some(email.as_str());
            emails.push(SimEmail {
                email: email.clone(),
                primary: true,
                verified: self.email_verified,
                visibility: Some(if public { "public" } else { "private" }.to_owned()),
            });
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

/// The seeded users and the identity chosen when a request names none.
#[derive(Debug, Default)]
pub struct Directory {
    users: Vec<SimUser>,
    current: Option<String>,
}

impl Directory {
    pub fn new(users: Vec<SimUser>) -> Self {
        Self {
            users,
            current: None,
        }
    }

    /// Adds or replaces (by login) a user.
    pub fn upsert(&mut self, user: SimUser) {
        match self
            .users
            .iter_mut()
            .find(|known| known.login == user.login)
        {
            Some(known) => *known = user,
            None => self.users.push(user),
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

    /// The user a `hint` names (by login or id); without a hint the default identity,
    /// else the first seeded user.
    pub fn choose(&self, hint: Option<&str>) -> Option<SimUser> {
        let wanted = hint.or(self.current.as_deref());
        let found = match wanted {
            Some(name) => self.users.iter().find(|u| u.login == name || u.id == name),
            None => self.users.first(),
        };
        found.cloned()
    }
}
