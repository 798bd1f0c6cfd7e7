//! The `{tenant}` segment of a Microsoft path, and who may sign in through it.

use super::MicrosoftAccount;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TenantPath {
    /// Work, school and personal accounts.
    Common,
    /// Work and school accounts only.
    Organizations,
    /// Personal accounts only.
    Consumers,
    /// The members of one tenant.
    Tenant(String),
}

impl TenantPath {
    /// `None` for a segment Microsoft would answer "tenant not found" to.
    pub fn parse(segment: &str) -> Option<Self> {
        match segment {
            "common" => Some(Self::Common),
            "organizations" => Some(Self::Organizations),
            "consumers" => Some(Self::Consumers),
            guid if is_guid(guid) => Some(Self::Tenant(guid.to_ascii_lowercase())),
            _ => None,
        }
    }

    pub fn admits(&self, account: &MicrosoftAccount) -> bool {
        match self {
            Self::Common => true,
            Self::Organizations => !account.is_personal(),
            Self::Consumers => account.is_personal(),
            Self::Tenant(tid) => account.tenant_id.eq_ignore_ascii_case(tid),
        }
    }
}

fn is_guid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.bytes().all(|b| b.is_ascii_hexdigit()))
}
