//! Client authentication at a token or revocation endpoint, the way the dialect takes it:
//! which methods, what an HTTP Basic header means, which error for which failure.

use crate::client_auth::{PresentedClient, presented, secret_matches};
use crate::config::RegisteredClient;
use crate::dialect::{AuthMethod, BasicHeader, ClientAuthRule, ErrorSpec};
use crate::flow::TokenParams;
use crate::hooks::Cx;
use crate::log::{ClientAuthKind, RequestRecord};
use axum::http::{HeaderMap, header};

/// Notes in `record` what the request showed (never a secret) and returns the credentials
/// that count. Where the header is ignored, it is still logged if the body names no client.
pub fn note(
    rule: &ClientAuthRule,
    params: &TokenParams,
    headers: &HeaderMap,
    record: &mut RequestRecord,
) -> Option<PresentedClient> {
    if rule.basic_header != BasicHeader::Ignored {
        return params.note(record, headers);
    }
    let client = params.note(record, &HeaderMap::new());
    if client.is_none()
        && let Some(basic) = presented(headers, None, None)
    {
        record.client_id = Some(basic.client_id);
        record.client_auth = Some(ClientAuthKind::Basic);
    }
    client
}

/// The registered client the credentials authenticate: `bad_client` for no client, an
/// unknown one, or a refused header; `bad_secret` for a known client that fails.
pub fn authenticate<'s>(
    cx: &Cx<'s>,
    headers: &HeaderMap,
    presented: Option<PresentedClient>,
    record: &mut RequestRecord,
) -> Result<&'s RegisteredClient, &'static ErrorSpec> {
    let rules = &cx.dialect.token;
    let bad_client = &rules.errors.bad_client;
    let refused_header = rules.client_auth.basic_header == BasicHeader::Refused
        && headers.contains_key(header::AUTHORIZATION);
    let presented = presented.filter(|_| !refused_header).ok_or(bad_client)?;
    let client = cx
        .sim
        .client(cx.provider, &presented.client_id)
        .ok_or(bad_client)?;
    let takes = |method| rules.client_auth.methods.contains(&method);
    let secret = presented.client_secret.as_deref();
    let accepted = match presented.kind {
        ClientAuthKind::Basic => {
            takes(AuthMethod::ClientSecretBasic) && secret_matches(client, secret)
        }
        ClientAuthKind::Body if takes(AuthMethod::SignedSecretPost) => {
            let lifetime = secret.and_then(|s| cx.hooks().signed_secret(cx, &client.client_id, s));
            if let Some((iat, exp)) = lifetime {
                record.client_secret_iat = Some(iat);
                record.client_secret_exp = Some(exp);
            }
            lifetime.is_some()
        }
        ClientAuthKind::Body => {
            takes(AuthMethod::ClientSecretPost) && secret_matches(client, secret)
        }
        ClientAuthKind::None => {
            takes(AuthMethod::ClientIdOnly)
                || (takes(AuthMethod::None) && client.client_secret.is_empty())
        }
    };
    let bad_secret = rules.errors.bad_secret.as_ref().unwrap_or(bad_client);
    accepted.then_some(client).ok_or(bad_secret)
}
