//! Microsoft-only facts of a simulated person: their tenant, object id, UPN and the
//! optional `xms_edov` claim (docs/providers.md#microsoft-common).

use crate::users::SimUser;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The tenant of every personal Microsoft account.
pub const MICROSOFT_CONSUMER_TENANT: &str = "9188040d-6c67-4c5b-b112-36a304b66dad";

/// What Microsoft knows of a person beyond [`SimUser`]'s common fields. A user without one
/// has a personal account: the consumer tenant, `preferred_username` = their email.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MicrosoftAccount {
    /// `tid`: [`MICROSOFT_CONSUMER_TENANT`], or the organisation's GUID.
    pub tenant_id: String,
    /// `oid`; derived from the user id when absent.
    pub object_id: Option<String>,
    /// `preferred_username` (a work account's UPN); the email, else the login, when absent.
    pub preferred_username: Option<String>,
    /// The optional `xms_edov` claim exactly as the id_token carries it (`true`, `"1"`,
    /// `"true"`, `false`...); left out of the token when `None`.
    pub xms_edov: Option<Value>,
}

impl MicrosoftAccount {
    /// A personal account (outlook.com, hotmail.com...).
    pub fn personal() -> Self {
        Self {
            tenant_id: MICROSOFT_CONSUMER_TENANT.to_owned(),
            object_id: None,
            preferred_username: None,
            xms_edov: None,
        }
    }

    /// A work or school account of the tenant `tenant_id` (a GUID), signing in as `upn`.
    pub fn work(tenant_id: impl Into<String>, upn: impl Into<String>) -> Self {
        Self {
            tenant_id: tenant_id.into(),
            object_id: None,
            preferred_username: Some(upn.into()),
            xms_edov: None,
        }
    }

    /// Adds the `xms_edov` claim with this exact JSON value.
    pub fn with_xms_edov(mut self, value: impl Into<Value>) -> Self {
        self.xms_edov = Some(value.into());
        self
    }

    pub fn is_personal(&self) -> bool {
        self.tenant_id == MICROSOFT_CONSUMER_TENANT
    }

    /// The `oid`: the seeded one, or a stable value derived from the user and tenant
    /// (personal accounts' look like `00000000-0000-0000-xxxx-xxxxxxxxxxxx`).
    pub(crate) fn object_id_of(&self, user: &SimUser) -> String {
        if let Some(oid) = &self.object_id {
            return oid.clone();
        }
        let digest = Sha256::digest(format!("{}:{}", self.tenant_id, user.id).as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        if self.is_personal() {
            format!("00000000-0000-0000-{}-{}", &hex[..4], &hex[4..16])
        } else {
            let g = |from: usize, to: usize| &hex[from..to];
            format!(
                "{}-{}-{}-{}-{}",
                g(0, 8),
                g(8, 12),
                g(12, 16),
                g(16, 20),
                g(20, 32)
            )
        }
    }

    /// `preferred_username`: the seeded one, else the email, else the login.
    pub(crate) fn username_of(&self, user: &SimUser) -> String {
        self.preferred_username
            .clone()
            .or_else(|| user.email.clone())
            .unwrap_or_else(|| user.login.clone())
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
