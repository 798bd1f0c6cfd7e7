//! A provider's authorization URL with its constant part encoded once, at start-up: the
//! endpoint, `response_type`, `client_id` (under the provider's own name for it),
//! `redirect_uri`, `scope` (joined by its separator), `code_challenge_method` and the
//! declaration's extra parameters. A request only appends
//! its `state`, its PKCE challenge and its nonce, into one String of the right size
//! (docs/performance.md: 17 allocations per authorize fewer than oauth2's builder).

use crate::plan::ProviderPlan;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use social_login_ports::AuthorizationRequest;
use social_login_provider_spec::ProviderKind;
use url::form_urlencoded::byte_serialize;

/// Characters of an S256 challenge: 32 bytes in base64url without padding.
const CHALLENGE_LEN: usize = 43;
/// Percent-encoding at most triples a byte.
const ENCODED_BYTE_MAX: usize = 3;
const STATE: &str = "&state=";
const CHALLENGE: &str = "&code_challenge=";
const NONCE: &str = "&nonce=";

/// The prebuilt URL of one provider.
#[derive(Debug, Clone)]
pub struct AuthorizeUrl {
    /// Up to the end of the query's constant parameters, encoded.
    prefix: String,
    /// The same without `scope`, and the scopes joined: for a connect that asks for more.
    prefix_without_scope: String,
    scope: String,
    scope_separator: String,
    /// The endpoint's `#fragment` if it had one, kept at the end where it was.
    fragment: String,
    pkce: bool,
    nonce: bool,
}

impl AuthorizeUrl {
    /// The URL of `plan`: its constant parameters encoded into the endpoint's query, after
    /// any it has, by the serializer oauth2 used (`application/x-www-form-urlencoded`), in
    /// oauth2's order; then the declaration's own parameters (`response_mode`...). The nonce
    /// goes to an `oidc` provider (one that does not echo it ignores it, RFC 6749 §3.1).
    pub fn from_plan(plan: &ProviderPlan) -> Self {
        let mut url = plan.urls.authorization.clone();
        let fragment = url.fragment().map(|f| format!("#{f}")).unwrap_or_default();
        url.set_fragment(None);
        let spec = &plan.spec;
        let scope = spec.scopes.join(&spec.scope_separator);
        let prefix = |scope: &str| {
            let mut url = url.clone();
            let mut query = url.query_pairs_mut();
            query.append_pair("response_type", "code");
            query.append_pair(&spec.client_id_param, &plan.settings.client_id);
            if plan.pkce {
                query.append_pair("code_challenge_method", "S256");
            }
            query.append_pair("redirect_uri", plan.urls.redirect.as_str());
            if !scope.is_empty() {
                query.append_pair("scope", scope);
            }
            query.extend_pairs(&spec.authorization_params);
            drop(query);
            String::from(url)
        };
        Self {
            prefix: prefix(&scope),
            prefix_without_scope: prefix(""),
            scope,
            scope_separator: spec.scope_separator.clone(),
            fragment,
            pkce: plan.pkce,
            nonce: plan.spec.kind == ProviderKind::Oidc,
        }
    }

    /// The URL for `request`: the prefix, then `state`, the S256 challenge of the request's
    /// verifier (with PKCE on) and its nonce (for the `oidc` kind). One allocation.
    pub fn for_request(&self, request: &AuthorizationRequest) -> String {
        let state = request.state.as_str();
        let mut url = String::with_capacity(self.capacity_for(request));
        if request.extra_scopes.as_str().is_empty() {
            url.push_str(&self.prefix);
        } else {
            self.push_with_extra_scopes(&mut url, request);
        }
        url.push_str(STATE);
        url.extend(byte_serialize(state.as_bytes()));
        if self.pkce {
            // RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))).
            url.push_str(CHALLENGE);
            let digest = Sha256::digest(request.pkce_verifier.expose().as_bytes());
            URL_SAFE_NO_PAD.encode_string(digest, &mut url);
        }
        if self.nonce {
            url.push_str(NONCE);
            url.extend(byte_serialize(request.nonce.expose().as_bytes()));
        }
        url.push_str(&self.fragment);
        url
    }

    /// The constant part with `scope` naming the provider's scopes and then the extra ones
    /// a connect asked for (the provider's separator between each).
    fn push_with_extra_scopes(&self, url: &mut String, request: &AuthorizationRequest) {
        let mut scope = self.scope.clone();
        for extra in request.extra_scopes.iter() {
            if !scope.is_empty() {
                scope.push_str(&self.scope_separator);
            }
            scope.push_str(extra);
        }
        url.push_str(&self.prefix_without_scope);
        url.push_str("&scope=");
        url.extend(byte_serialize(scope.as_bytes()));
    }

    /// At least the length of the URL for `request`: each value as if every byte were
    /// percent-encoded.
    fn capacity_for(&self, request: &AuthorizationRequest) -> usize {
        let encoded = |value: &str| value.len() * ENCODED_BYTE_MAX;
        let mut capacity =
            self.prefix.len() + STATE.len() + encoded(request.state.as_str()) + self.fragment.len();
        let extra = request.extra_scopes.as_str();
        if !extra.is_empty() {
            // The separators between the extra scopes take at most what their spaces did, times
            // a separator's length: a hint, not a bound.
            capacity += "&scope=".len() + encoded(&self.scope) + encoded(extra) * 2;
        }
        if self.pkce {
            capacity += CHALLENGE.len() + CHALLENGE_LEN;
        }
        if self.nonce {
            capacity += NONCE.len() + encoded(request.nonce.expose());
        }
        capacity
    }
}

#[cfg(test)]
mod tests;
