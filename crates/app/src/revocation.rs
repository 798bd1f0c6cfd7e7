//! Revoking a removed link's grant at its provider: best effort, after the removal has
//! committed, on a task of its own (the stored tokens are gone: a client that leaves or the
//! request's deadline must not stop the only revocation there will be). A failure never
//! undoes or blocks anything: it is logged, counted and recorded as a
//! `provider.revocation_failed` event. A grant the provider has just issued
//! that nothing keeps (a refused native sign-in's; a relay refresh's whose link went
//! meanwhile) is revoked the same way, without the event.

use crate::AuthService;
use crate::outliving::outliving;
use social_login_domain::{AuditEventType, Origin, ProviderKey, UserId};
use social_login_ports::{IdentityProvider, ProviderGrant, Revoked, SealedGrant};
use std::sync::Arc;
use tracing::{info, warn};

impl AuthService {
    /// Revokes the grants of `user`'s removed links, all at once, each on a task of its own
    /// that outlives this request; returns when they are done.
    pub(crate) async fn revoke_removed(
        &self,
        user: UserId,
        grants: Vec<SealedGrant>,
        origin: &Origin,
    ) {
        let revoking: Vec<_> = (grants.into_iter())
            .map(|grant| {
                let (service, origin) = (self.clone(), origin.clone());
                outliving(async move { service.revoke_grant(user, grant, &origin).await })
            })
            .collect();
        for task in revoking {
            if let Err(error) = task.await {
                warn!(%error, "a revocation's task failed");
            }
        }
    }

    async fn revoke_grant(&self, user: UserId, grant: SealedGrant, origin: &Origin) {
        let provider = grant.provider;
        if grant.access_token.is_none() && grant.refresh_token.is_none() {
            // A link made by a native id_token sign-in: the app on the device holds the
            // grant, the service was never given a token to revoke it with.
            info!(%provider, "no provider token stored; nothing to revoke");
            return;
        }
        let outcome = match self.open_grant(&grant) {
            Err(why) => Err(why),
            Ok(opened) => match self.ports.providers.get(provider) {
                // Disabled since the link was made: no credentials to revoke with.
                None => Err("the provider is not configured any more".to_owned()),
                Some(adapter) => adapter.revoke(opened).await.map_err(|e| e.to_string()),
            },
        };
        if self.revocation_failed(provider, outcome) {
            let failed = AuditEventType::ProviderRevocationFailed;
            if let Err(error) = self
                .record_lone_event(origin, failed, user, Some(provider))
                .await
            {
                warn!(%error, "could not record the failed revocation");
            }
        }
    }

    /// Revokes a grant the provider has just issued that nothing keeps: a sign-in that was
    /// then refused (an app's code about another person than its id_token), or a relay
    /// refresh whose link was removed meanwhile. There is no link (and maybe no user) to
    /// record an event for, so a failure is logged and counted only. On a task of its own,
    /// as a removed link's: it is the only revocation there will be.
    pub(crate) async fn revoke_unkept_grant(
        &self,
        adapter: &Arc<dyn IdentityProvider>,
        grant: ProviderGrant,
    ) {
        let (service, adapter) = (self.clone(), Arc::clone(adapter));
        let revoke = async move {
            let outcome = adapter.revoke(grant).await.map_err(|e| e.to_string());
            service.revocation_failed(adapter.key(), outcome);
        };
        if let Err(error) = outliving(revoke).await {
            warn!(%error, "a revocation's task failed");
        }
    }

    /// Logs a revocation's outcome, counts a failure; true when it failed.
    fn revocation_failed(&self, provider: ProviderKey, outcome: Result<Revoked, String>) -> bool {
        match outcome {
            Ok(Revoked::Done) => info!(%provider, "provider grant revoked"),
            Ok(Revoked::NotSupported) => info!(%provider, "provider has no revocation endpoint"),
            Err(why) => {
                warn!(%provider, error = %why, "provider grant revocation failed");
                // A label per configured provider, one for the rest: the set stays bounded.
                let label = match self.ports.providers.get(provider) {
                    Some(_) => provider.to_string(),
                    None => "unconfigured".to_owned(),
                };
                metrics::counter!(
                    "social_login_provider_revocation_failures_total",
                    "provider" => label
                )
                .increment(1);
                return true;
            }
        }
        false
    }

    fn open_grant(&self, grant: &SealedGrant) -> Result<ProviderGrant, String> {
        let open = |sealed| {
            self.ports
                .cipher
                .open(sealed)
                .map_err(|_| "the stored token could not be decrypted".to_owned())
        };
        let refresh_token = grant.refresh_token.as_ref().map(open).transpose()?;
        let access_token = match (grant.access_token.is_none(), &refresh_token) {
            (false, _) => open(&grant.access_token)?,
            // Only a refresh token is stored: a link whose access token an earlier native
            // sign-in blanked. Only providers with native sign-in get here (Google, Apple,
            // Microsoft), and their adapters revoke with the refresh token when there is
            // one (RFC 7009 `token_type_hint=refresh_token`; Microsoft has no endpoint).
            (true, Some(refresh)) => refresh.clone(),
            (true, None) => return Err("no provider token is stored".to_owned()),
        };
        Ok(ProviderGrant {
            access_token,
            refresh_token,
            client_id: grant.client_id.clone(),
        })
    }
}
