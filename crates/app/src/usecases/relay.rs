//! A call to a provider's API made for a user (docs/api.md#relay): the service attaches the
//! link's provider access token itself, so the token never leaves it. An access token known
//! to be dead, or one the provider answers 401 to, is refreshed first with the stored
//! refresh token, by one caller at a time across instances (a lease on the link's row);
//! the others wait for its tokens.

mod answer;

pub use answer::BoundedBody;
use answer::TokenGuard;

use crate::{AppError, AppResult, AuthService, Cause, EnabledProvider};
use bytes::Bytes;
use social_login_domain::plan::SealedTokens;
use social_login_domain::relay::{
    GrantRenewal, RefusedGrant, RelayMethod, RelayPath, RelayRefresh, needs_refresh, passed_back,
    relay_url,
};
use social_login_domain::{Origin, ProviderKey, UserId};
use social_login_ports::{
    ApiAnswer, ApiCall, GrantLookup, LeaseRelease, LinkGrant, ProviderGrant, RefreshClaim,
    RefreshFailure,
};
use std::time::Duration;
use tracing::{Instrument, instrument, warn};

/// How often a caller waiting for another's refresh looks again.
const WAIT_STEP: Duration = Duration::from_millis(25);

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
        if answer.status == 401 {
            // One refresh and one retry: a token the provider dropped before its expiry.
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

    /// The grant with fresh tokens: refreshed by this caller when it wins the link's lease,
    /// else those another caller (of any instance) stored meanwhile.
    async fn refreshed(&self, whose: &Whose<'_>, stale: LinkGrant) -> AppResult<LinkGrant> {
        let timeout = self.policy.relay.timeout;
        let lease = time::Duration::try_from(timeout).unwrap_or(time::Duration::MINUTE)
            + time::Duration::seconds(5);
        // Twice the call's budget: the other caller's refresh may itself take all of it.
        let waits = (timeout * 2).as_millis() / WAIT_STEP.as_millis();
        for _ in 0..=waits {
            let now = self.ports.clock.now();
            let claim = RefreshClaim {
                link: stale.link,
                seen: stale.tokens.access_token.clone(),
                now,
                until: now + lease,
            };
            if self.ports.grants.claim_refresh(claim).await? {
                return self.refresh_detached(whose, stale).await;
            }
            tokio::time::sleep(WAIT_STEP).await;
            let current = self.live_grant(whose).await?;
            if current.tokens.access_token != stale.tokens.access_token {
                return Ok(current);
            }
        }
        Err(AppError::ProviderUnavailable(
            "timed out waiting for another caller's refresh".into(),
        ))
    }

    /// [`Self::refresh_now`] on a task of its own: once the provider is asked, its answer is
    /// stored whatever becomes of this request (a client that leaves, the request's
    /// deadline), so a refresh token the provider rotated is never lost with it.
    async fn refresh_detached(&self, whose: &Whose<'_>, stale: LinkGrant) -> AppResult<LinkGrant> {
        let service = self.clone();
        let (provider, caller, origin) =
            (whose.provider.clone(), whose.caller, whose.origin.clone());
        // In the request's span: the refresh's logs and provider call keep its context.
        let refresh = tokio::spawn(
            async move {
                let whose = Whose {
                    provider: &provider,
                    caller,
                    origin: &origin,
                };
                service.refresh_now(&whose, stale).await
            }
            .in_current_span(),
        );
        refresh
            .await
            .map_err(|failed| AppError::Internal(Cause::of(failed)))?
    }

    /// Refreshes `stale` (this caller holds its lease) and stores the tokens; a refused
    /// refresh, or none possible, is a reauthorization the user must give. The provider has
    /// the relay's timeout to answer, so the lease (longer) outlives the refresh.
    async fn refresh_now(&self, whose: &Whose<'_>, stale: LinkGrant) -> AppResult<LinkGrant> {
        let (provider, user, origin) = (whose.provider, whose.user(), whose.origin);
        let key = provider.key();
        let outcome = match &stale.tokens.refresh_token {
            None => Err(RefreshFailure::Refused("no refresh token stored".into())),
            Some(sealed) => {
                let grant = ProviderGrant {
                    access_token: self.ports.cipher.open(&stale.tokens.access_token)?,
                    refresh_token: Some(self.ports.cipher.open(sealed)?),
                    client_id: stale.tokens.client_id.clone(),
                };
                let refresh = provider.adapter().refresh(grant);
                tokio::time::timeout(self.policy.relay.timeout, refresh)
                    .await
                    .unwrap_or_else(|_| {
                        Err(RefreshFailure::Failed(
                            "the provider did not answer the refresh in time".into(),
                        ))
                    })
            }
        };
        let tokens = match outcome {
            Ok(tokens) => tokens,
            Err(failure) => {
                return Err(self.refresh_failed(whose, &stale, failure).await);
            }
        };
        count_refresh(key, "refreshed");
        let issued = ProviderGrant {
            access_token: tokens.access_token.clone(),
            refresh_token: tokens.refresh_token.clone(),
            client_id: stale.tokens.client_id.clone(),
        };
        let sealed = self.seal(tokens, stale.tokens.client_id.clone())?;
        let now = self.ports.clock.now();
        let refresh = RelayRefresh {
            user,
            provider: key,
            renewal: GrantRenewal {
                link: stale.link,
                seen: stale.tokens.access_token.clone(),
                tokens: sealed.clone(),
                at: now,
            },
            audit: self.audit(origin, now),
        };
        if !self.ports.grants.store_refresh(refresh).await? {
            return self.not_stored(whose, issued).await;
        }
        Ok(renewed(stale, sealed))
    }

    /// After a refresh whose tokens were not stored: the tokens another writer (a login)
    /// stored meanwhile. When the link itself went meanwhile (a disconnect, the user's
    /// deletion), nothing keeps the tokens just issued, and the removal revoked only the
    /// ones it found: these are revoked too. With a link still there they are not, as a
    /// provider may revoke the whole grant, the kept tokens with it.
    async fn not_stored(&self, whose: &Whose<'_>, issued: ProviderGrant) -> AppResult<LinkGrant> {
        let current = self.live_grant(whose).await;
        if let Err(AppError::AccountNotFound | AppError::Unauthorized) = &current {
            let adapter = whose.provider.adapter();
            self.revoke_unkept_grant(adapter.as_ref(), issued).await;
        }
        current
    }

    /// Gives `stale`'s lease back after a failed refresh and says what it answers: a refused
    /// grant loses its tokens and records a reauthorization; one that failed keeps them.
    async fn refresh_failed(
        &self,
        whose: &Whose<'_>,
        stale: &LinkGrant,
        failure: RefreshFailure,
    ) -> AppError {
        let provider = whose.provider.key();
        match failure {
            RefreshFailure::Failed(why) => {
                let release = LeaseRelease {
                    link: stale.link,
                    seen: stale.tokens.access_token.clone(),
                };
                if let Err(error) = self.ports.grants.release_refresh(release).await {
                    return error.into();
                }
                count_refresh(provider, "failed");
                AppError::ProviderUnavailable(why)
            }
            RefreshFailure::Refused(why) => {
                count_refresh(provider, "refused");
                warn!(%provider, reason = %why, "provider refused to refresh a grant");
                let refusal = RefusedGrant {
                    user: whose.user(),
                    provider,
                    link: stale.link,
                    seen: stale.tokens.access_token.clone(),
                    audit: self.audit(whose.origin, self.ports.clock.now()),
                };
                // Not stored: the link holds other tokens now (or went); the caller's next
                // call uses what is there.
                if let Err(error) = self.ports.grants.store_refusal(refusal).await {
                    return error.into();
                }
                AppError::ProviderReauthorizationRequired { provider }
            }
        }
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

/// `stale` with the tokens its refresh stored.
fn renewed(stale: LinkGrant, tokens: SealedTokens) -> LinkGrant {
    LinkGrant {
        tokens: SealedTokens {
            access_token: tokens.access_token,
            refresh_token: tokens.refresh_token.or(stale.tokens.refresh_token),
            access_expires_at: tokens.access_expires_at,
            ..stale.tokens
        },
        refresh_lease_until: None,
        ..stale
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

/// Refreshes by provider and outcome (`refreshed`, `refused`, `failed`).
fn count_refresh(provider: ProviderKey, outcome: &'static str) {
    metrics::counter!(
        "social_login_relay_refreshes_total",
        "provider" => provider.to_string(),
        "outcome" => outcome
    )
    .increment(1);
}
