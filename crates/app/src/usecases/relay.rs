//! A call to a provider's API made for a user (docs/api.md#relay): the service attaches the
//! link's provider access token itself, so the token never leaves it. An access token known
//! to be dead, or one the provider answers 401 to, is refreshed first with the stored
//! refresh token, by one caller at a time across instances (a lease on the link's row);
//! the others wait for its tokens.

mod answer;
mod refresh;

pub use answer::BoundedBody;
use answer::TokenGuard;

use crate::{AppError, AppResult, AuthService, EnabledProvider};
use bytes::Bytes;
use social_login_domain::relay::{RelayMethod, RelayPath, needs_refresh, passed_back, relay_url};
use social_login_domain::{Origin, ProviderKey, UserId};
use social_login_ports::{ApiAnswer, ApiCall, GrantLookup, LinkGrant};
use tracing::instrument;

/// A relayed call as the edge checked it: the path and query are safe to append to a base.
/// `Debug` shows neither the body nor the path.
#[derive(derive_more::Debug)]
pub struct RelayRequest {
    pub caller: RelayCaller,
    pub method: RelayMethod,
    pub path: RelayPath,
    #[debug(skip)]
    pub query: String,
    /// The base the caller chose, else the provider's first.
    #[debug(skip)]
    pub base: Option<String>,
    /// The caller's headers that go on (`domain::relay::forwarded_to_provider`).
    #[debug(skip)]
    pub headers: Vec<(String, String)>,
    #[debug("{} bytes", body.len())]
    pub body: Bytes,
}

/// Who asks for a user's relayed call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelayCaller {
    /// The user, with their own bearer token: a user gone since the token was issued is
    /// 401, as on every other endpoint.
    User(UserId),
    /// A backend, with a service key, naming the user.
    Backend(UserId),
}

impl RelayCaller {
    /// The user the call is for.
    pub fn user(self) -> UserId {
        match self {
            Self::User(user) | Self::Backend(user) => user,
        }
    }
}

/// The provider's answer as it passes back: its status, the headers that may pass, and the
/// body, read chunk by chunk up to the bound.
pub struct Relayed {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: BoundedBody,
}

impl AuthService {
    #[instrument(skip_all, fields(provider = %provider, method = request.method.as_str()))]
    pub async fn relay(
        &self,
        provider: &EnabledProvider,
        request: RelayRequest,
        origin: &Origin,
    ) -> AppResult<Relayed> {
        let policy = self.policy.relay;
        let api = provider
            .api()
            .filter(|_| policy.enabled)
            .ok_or(AppError::RelayNotOffered)?;
        let base = api.base(request.base.as_deref()).ok_or_else(|| {
            AppError::Validation(
                "Social-Login-Relay-Base: not one of the provider's API bases".into(),
            )
        })?;
        let url = relay_url(base, &request.path, &request.query);
        let key = provider.key();
        let whose = Whose {
            provider,
            caller: request.caller,
            origin,
        };
        let mut grant = self.live_grant(&whose).await?;
        if needs_refresh(grant.tokens.access_expires_at, self.ports.clock.now()) {
            grant = self.refreshed(&whose, grant).await?;
        }
        let (mut answer, mut guard) = self.call(provider, &grant, &request, &url).await?;
        // One refresh and one retry: a token the provider dropped before its expiry.
        if answer.status == 401 && self.may_be_dead(provider, &grant).await? {
            grant = self.refreshed(&whose, grant).await?;
            (answer, guard) = self.call(provider, &grant, &request, &url).await?;
        }
        count_call(key, answer.status);
        if answer
            .body
            .announced_length()
            .is_some_and(|length| length > policy.max_response_bytes)
        {
            return Err(AppError::ProviderUnavailable(
                "the provider's answer is longer than max_response_bytes".into(),
            ));
        }
        Ok(Relayed {
            status: answer.status,
            headers: (answer.headers.into_iter())
                .filter(|(name, value)| passed_back(name) && !guard.shows_in(value))
                .collect(),
            body: BoundedBody::new(answer.body, policy.max_response_bytes, guard),
        })
    }

    /// The caller's link of the provider, with a token to call with: one read, which also
    /// says whether an operator locked the user (the bearer alone was checked before) or
    /// deleted them. A bearer's user gone since the token was issued is 401, as on every
    /// other endpoint; a backend naming a user that is not there finds no link.
    async fn live_grant(&self, whose: &Whose<'_>) -> AppResult<LinkGrant> {
        let key = whose.provider.key();
        let grant = match self.ports.grants.grant_of(whose.user(), key).await? {
            GrantLookup::Grant(grant) => grant,
            GrantLookup::NoUser if matches!(whose.caller, RelayCaller::User(_)) => {
                return Err(AppError::Unauthorized);
            }
            GrantLookup::NoUser | GrantLookup::NoLink => return Err(AppError::AccountNotFound),
        };
        if grant.user_locked {
            return Err(AppError::UserLocked);
        }
        if grant.disabled {
            return Err(AppError::ProviderAccountDisabled);
        }
        if grant.tokens.access_token.is_none() {
            return Err(AppError::ProviderReauthorizationRequired { provider: key });
        }
        Ok(grant)
    }

    async fn call(
        &self,
        provider: &EnabledProvider,
        grant: &LinkGrant,
        request: &RelayRequest,
        url: &str,
    ) -> AppResult<(ApiAnswer, TokenGuard)> {
        let token = self.ports.cipher.open(&grant.tokens.access_token)?;
        // A provider that takes the token in the query may repeat the URL (a redirect, a page
        // link, an echo): the answer goes back to the caller guarded against it.
        let guard = TokenGuard::new(&token);
        let call = ApiCall {
            method: request.method,
            url: url.to_owned(),
            headers: request.headers.clone(),
            body: request.body.clone(),
            token,
            timeout: self.policy.relay.timeout,
        };
        let answer = provider.adapter().call_api(call).await.map_err(|error| {
            count_call(provider.key(), 502);
            AppError::from(error)
        })?;
        Ok((answer, guard))
    }
}

/// Whose grant a relayed call uses: the provider, who calls for which user, and where the
/// call came from (for the events a refresh records).
struct Whose<'a> {
    provider: &'a EnabledProvider,
    caller: RelayCaller,
    origin: &'a Origin,
}

impl Whose<'_> {
    fn user(&self) -> UserId {
        self.caller.user()
    }
}

/// Relayed calls by provider and status class (`2xx`…`5xx`): bounded labels.
fn count_call(provider: ProviderKey, status: u16) {
    let class = match status {
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    };
    metrics::counter!(
        "social_login_relay_calls_total",
        "provider" => provider.to_string(),
        "status_class" => class
    )
    .increment(1);
}
