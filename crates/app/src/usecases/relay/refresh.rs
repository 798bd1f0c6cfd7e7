//! A dead grant's refresh, by one caller at a time across instances (a lease on the link's
//! row), and what a refresh the provider refused or could not serve leaves behind.

use super::Whose;
use crate::outliving::outliving;
use crate::{AppError, AppResult, AuthService, Cause, EnabledProvider};
use social_login_domain::ProviderKey;
use social_login_domain::SealedTokens;
use social_login_domain::relay::{GrantRenewal, RefusedGrant, RelayRefresh};
use social_login_ports::{LeaseRelease, LinkGrant, ProviderGrant, RefreshClaim, RefreshFailure};
use std::time::Duration;
use time::OffsetDateTime;
use tracing::warn;

/// How often a caller waiting for another's refresh looks again.
const WAIT_STEP: Duration = Duration::from_millis(25);

impl AuthService {
    /// Whether a 401 may mean `grant` is dead: always where a refresh token can tell; else
    /// only where the provider's userinfo endpoint refuses the token too, since one
    /// endpoint's 401 (a wrong path, a scope not granted) is no proof the grant is gone. A
    /// provider that cannot say in time leaves the grant as it is.
    pub(super) async fn may_be_dead(
        &self,
        provider: &EnabledProvider,
        grant: &LinkGrant,
    ) -> AppResult<bool> {
        if grant.tokens.refresh_token.is_some() {
            return Ok(true);
        }
        let token = self.ports.cipher.open(&grant.tokens.access_token)?;
        let asked = provider.adapter().honours(token);
        let honoured = tokio::time::timeout(self.policy.relay.timeout, asked).await;
        Ok(matches!(honoured, Ok(Ok(false))))
    }

    /// The grant with fresh tokens: refreshed by this caller when it wins the link's lease,
    /// else those another caller (of any instance) stored meanwhile.
    pub(super) async fn refreshed(
        &self,
        whose: &Whose<'_>,
        stale: LinkGrant,
    ) -> AppResult<LinkGrant> {
        let timeout = self.policy.relay.timeout;
        let lease = time::Duration::try_from(timeout).unwrap_or(time::Duration::MINUTE)
            + time::Duration::seconds(5);
        // Twice the call's budget: the other caller's refresh may itself take all of it.
        let waits = (timeout * 2).as_millis() / WAIT_STEP.as_millis();
        for _ in 0..=waits {
            let now = self.ports.clock.now();
            let until = now + lease;
            let claim = RefreshClaim {
                link: stale.link,
                seen: stale.tokens.access_token.clone(),
                now,
                until,
            };
            if self.ports.grants.claim_refresh(claim).await? {
                let held = Held { stale, until };
                return self.refresh_detached(whose, held).await;
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
    async fn refresh_detached(&self, whose: &Whose<'_>, held: Held) -> AppResult<LinkGrant> {
        let service = self.clone();
        let (provider, caller, origin) =
            (whose.provider.clone(), whose.caller, whose.origin.clone());
        let refresh = outliving(async move {
            let whose = Whose {
                provider: &provider,
                caller,
                origin: &origin,
            };
            service.refresh_now(&whose, held).await
        });
        refresh
            .await
            .map_err(|failed| AppError::Internal(Cause::of(failed)))?
    }

    /// Refreshes the grant `held` (this caller holds its lease) and stores the tokens; a
    /// refused refresh, or none possible, is a reauthorization the user must give. The
    /// provider has the relay's timeout to answer, so the lease (longer) outlives the refresh.
    async fn refresh_now(&self, whose: &Whose<'_>, held: Held) -> AppResult<LinkGrant> {
        let Held { stale, until } = held;
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
                return Err(self.refresh_failed(whose, &stale, until, failure).await);
            }
        };
        count_refresh(key, "refreshed");
        let sealed = self.seal(&tokens, stale.tokens.client_id.clone())?;
        let issued = ProviderGrant::issued(tokens, stale.tokens.client_id.clone());
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
            self.revoke_unkept_grant(adapter, issued).await;
        }
        current
    }

    /// Gives `stale`'s lease (held until `until`) back after a failed refresh and says what it
    /// answers: a refused grant loses its tokens and records a reauthorization; one that
    /// failed keeps them.
    async fn refresh_failed(
        &self,
        whose: &Whose<'_>,
        stale: &LinkGrant,
        until: OffsetDateTime,
        failure: RefreshFailure,
    ) -> AppError {
        let provider = whose.provider.key();
        match failure {
            RefreshFailure::Failed(why) => {
                count_refresh(provider, "failed");
                // The lease this caller took: one that ran out and another caller took stays
                // theirs.
                let release = LeaseRelease {
                    link: stale.link,
                    seen: stale.tokens.access_token.clone(),
                    until,
                };
                if let Err(error) = self.ports.grants.release_refresh(release).await {
                    return error.into();
                }
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

/// A grant whose refresh lease this caller holds, until `until`.
struct Held {
    stale: LinkGrant,
    until: OffsetDateTime,
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

/// Refreshes by provider and outcome (`refreshed`, `refused`, `failed`).
fn count_refresh(provider: ProviderKey, outcome: &'static str) {
    metrics::counter!(
        "social_login_relay_refreshes_total",
        "provider" => provider.to_string(),
        "outcome" => outcome
    )
    .increment(1);
}
