//! The export (docs/api.md#export): everything the service holds about a user, as one
//! document.

use super::{AuditEventRead, LinkedAccountRead, UserRead, rfc3339};
use serde::Serialize;
use social_login_domain::{AuditEvent, LinkedAccount};
use social_login_ports::SessionSummary;
use utoipa::ToSchema;

/// Everything the service holds about a user (docs/api.md#export).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportRead {
    /// RFC 3339.
    pub exported_at: String,
    pub user: UserRead,
    /// No token: the service never hands one out.
    pub linked_accounts: Vec<ExportedLink>,
    /// The live sessions; no token.
    pub sessions: Vec<ExportedSession>,
    /// Whether support locked the account (no login, no refresh until it is unlocked).
    pub locked: bool,
    /// The provider of the linked account the user registered through, which gave the
    /// user's email, name and avatar; null for a password registration, or once that
    /// account is no longer linked.
    pub profile_from: Option<String>,
    /// Newest first, at most 10,000.
    pub events: Vec<ExportedEvent>,
    /// Deletions asked for and not carried out yet: always empty, since the service
    /// carries every deletion out at once.
    pub pending_deletions: Vec<String>,
}

/// A linked account in an export: as the account list shows it, and the provider's id of
/// the account (`subject`), which the service holds too.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedLink {
    pub id: String,
    pub provider: String,
    /// The provider's id of the account (`sub`, or its user id).
    pub subject: String,
    pub email: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    pub scopes: Vec<String>,
    /// Its provider reported the account disabled: it signs nobody in until the provider
    /// enables it again.
    pub disabled: bool,
}

impl From<&LinkedAccount> for ExportedLink {
    fn from(link: &LinkedAccount) -> Self {
        let shown = LinkedAccountRead::from(link);
        Self {
            id: shown.id,
            provider: shown.provider,
            subject: link.subject.as_str().to_owned(),
            email: shown.email,
            created_at: shown.created_at,
            scopes: shown.scopes,
            disabled: link.disabled,
        }
    }
}

/// A session in an export: as the session list shows it, without `current`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedSession {
    pub id: String,
    /// RFC 3339: when its login happened.
    pub created_at: String,
    /// RFC 3339: when its newest refresh token was issued (the login, or the last refresh).
    pub last_used_at: String,
    /// What it began with: `password`, a provider key, or null for a session from before
    /// the service recorded it.
    pub provider: Option<String>,
}

impl From<&SessionSummary> for ExportedSession {
    fn from(session: &SessionSummary) -> Self {
        Self {
            id: session.id.to_string(),
            created_at: rfc3339(session.created_at),
            last_used_at: rfc3339(session.last_used_at),
            provider: session.began_with.map(|method| method.as_str().to_owned()),
        }
    }
}

impl From<&social_login_app::UserExport> for ExportRead {
    fn from(export: &social_login_app::UserExport) -> Self {
        Self {
            exported_at: rfc3339(export.exported_at),
            user: UserRead::from(&export.user),
            linked_accounts: export.links.iter().map(ExportedLink::from).collect(),
            sessions: export.sessions.iter().map(ExportedSession::from).collect(),
            locked: export.user.locked,
            profile_from: export.profile_from().map(|key| key.as_str().to_owned()),
            events: export.events.iter().map(ExportedEvent::from).collect(),
            pending_deletions: Vec::new(),
        }
    }
}

/// An audit event in an export: as the events list shows it, and what else the service
/// keeps of the request that made it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedEvent {
    #[serde(flatten)]
    pub event: AuditEventRead,
    /// The request's `User-Agent`, as kept (at most 256 printable characters).
    pub user_agent: Option<String>,
    /// The request's id (`X-Request-Id`), as kept.
    pub request_id: Option<String>,
}

impl From<&AuditEvent> for ExportedEvent {
    fn from(event: &AuditEvent) -> Self {
        let origin = &event.origin;
        Self {
            event: AuditEventRead::from(event),
            user_agent: origin.user_agent_shown_to_user().map(str::to_owned),
            request_id: origin.request_id_shown_to_user().map(str::to_owned),
        }
    }
}
