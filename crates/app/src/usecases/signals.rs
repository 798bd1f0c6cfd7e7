//! Signals from providers (docs/api.md, "Signals from providers"): verified before anything
//! is read or written, then acted on in one repository transaction with their audit events.
//!
//! A signal that does not verify costs no database work at all, and one about an account
//! linked to nobody writes nothing (except a data deletion request's receipt, whose status
//! URL must answer like any other): the answer is the same either way, so a sender learns
//! nothing about who has an account here.

use crate::batches::{LastBatch, PRUNE_MAX_BATCHES, in_batches};
use crate::{AppError, AppResult, AuthService};
use social_login_domain::signal::RECEIPT_RETENTION;
use social_login_domain::{Origin, SignalId, SignalSource};
use social_login_ports::{
    RefusalReason, SignalCommand, SignalOutcome, SignalReceipt, SignalRefused, SignalVerifier,
    VerifiedSignal,
};
use std::sync::Arc;
use time::OffsetDateTime;
use tracing::{info, instrument};

/// A signal endpoint of an enabled provider, resolved once per request: its verifier.
#[derive(Clone)]
pub struct SignalEndpoint {
    source: SignalSource,
    verifier: Arc<dyn SignalVerifier>,
}

impl AuthService {
    /// The endpoint of `source`: 404 when its provider is not enabled (or has no verifier),
    /// whatever the request looks like.
    pub fn signal_endpoint(&self, source: SignalSource) -> AppResult<SignalEndpoint> {
        self.ports
            .providers
            .get(source.provider())
            .ok_or(AppError::ProviderNotConfigured)?;
        let verifier = self
            .ports
            .signal_verifiers
            .get(source)
            .ok_or(AppError::ProviderNotConfigured)?
            .clone();
        Ok(SignalEndpoint { source, verifier })
    }

    /// Verifies a signal as its provider signs it (`token` as the endpoint read it from the
    /// request) and acts on it once. Answers with the signal's id (a Facebook data deletion
    /// request's confirmation code); 400 `InvalidSignal` when it does not verify.
    #[instrument(skip_all, fields(source = %endpoint.source))]
    pub async fn receive_signal(
        &self,
        endpoint: &SignalEndpoint,
        token: &str,
        origin: &Origin,
    ) -> AppResult<SignalId> {
        let signal = endpoint.verifier.verify(token).await?;
        let id = signal.id.clone();
        self.act_on(signal, origin).await?;
        Ok(id)
    }

    async fn act_on(&self, signal: VerifiedSignal, origin: &Origin) -> AppResult<()> {
        let now = self.ports.clock.now();
        let receipt = SignalReceipt {
            source: signal.source,
            id: signal.id,
            received_at: now,
            payload: signal.payload,
        };
        let kind = signal.kind;
        let Some(subject) = signal.subject else {
            info!(?kind, "signal about no account: nothing to do");
            return Ok(());
        };
        let command = SignalCommand {
            receipt: receipt.clone(),
            subject,
            action: kind.action(),
            event: kind.event(),
            occurred_at: signal.occurred_at,
            audit: self.audit(origin, now),
        };
        match self.ports.signals.apply_signal(command).await? {
            SignalOutcome::Applied { user_deleted, .. } => {
                info!(?kind, user_deleted, "signal acted on");
            }
            SignalOutcome::Duplicate => info!(?kind, "signal handled before; nothing to do"),
            SignalOutcome::PayloadUsedElsewhere => return Err(used_elsewhere()),
            SignalOutcome::NotLinked => {
                info!(?kind, "signal about an account linked to nobody");
                if receipt.source == SignalSource::FacebookDataDeletion {
                    // Meta shows the status URL to the person, who must find it answering.
                    let kept = self.ports.signals.keep_receipt(receipt).await?;
                    kept.ok_or_else(used_elsewhere)?;
                }
            }
        }
        Ok(())
    }

    /// When the Facebook data deletion request with this confirmation code was handled;
    /// `None` for a code this service never gave (or forgot: receipts live 90 days).
    #[instrument(skip_all)]
    pub async fn data_deletion_status(
        &self,
        confirmation_code: &str,
    ) -> AppResult<Option<OffsetDateTime>> {
        let Ok(id) = SignalId::parse(confirmation_code) else {
            return Ok(None);
        };
        Ok(self
            .ports
            .signals
            .find_receipt(SignalSource::FacebookDataDeletion, &id)
            .await?)
    }

    /// Housekeeping: forgets signal receipts older than [`RECEIPT_RETENTION`], in bounded
    /// batches. Returns how many went.
    #[instrument(skip_all)]
    pub async fn prune_signal_receipts(&self) -> AppResult<u64> {
        let before = self.ports.clock.now() - RECEIPT_RETENTION;
        let signals = &self.ports.signals;
        let batch = |limit| signals.prune_receipts(before, limit);
        Ok(in_batches(batch, LastBatch::Short, PRUNE_MAX_BATCHES).await?)
    }
}

/// A signed payload that acted at another endpoint of its provider (a Facebook deauthorize
/// payload replayed to the data deletion callback): one payload, one purpose.
fn used_elsewhere() -> AppError {
    AppError::InvalidSignal(SignalRefused::new(
        RefusalReason::InvalidRequest,
        "this payload has already acted at another endpoint of the provider",
    ))
}
