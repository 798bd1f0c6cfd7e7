//! Microsoft-only facts of a simulated person: their tenant, object id, UPN and the
//! optional `xms_edov` claim (docs/providers.md#microsoft-common).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The tenant of every personal Microsoft account.
pub const MICROSOFT_CONSUMER_TENANT: &str = "9188040d-6c67-4c5b-b112-36a304b66dad";

/// What Microsoft knows of a person beyond [`crate::SimUser`]'s common fields. A user without one
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
}
