//! The id_tokens of the simulated OIDC providers: what each says about whom, broken on
//! demand by the injected [`crate::IdTokenFault`]s and signed with the simulator's keys.

use crate::claims::Subject;
use crate::dialect::Signing;
use crate::flow::unix_now;
use crate::hooks::Cx;
use crate::id_token_fault::apply_to_claims;
use crate::signing::{TEST_EC_KEY, sign_with_secret};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::json;
use sha2::{Digest, Sha256};

/// Signs the id_token of `cx`'s provider about `subject`; with the access token issued
/// beside it, the token carries its `at_hash`.
pub fn issue(cx: &Cx<'_>, subject: &Subject<'_>, access_token: Option<&str>) -> String {
    let (sim, provider) = (cx.sim, cx.provider);
    let now = unix_now();
    let mut claims = cx.hooks().id_token_claims(cx, subject, now);
    if let Some(token) = access_token {
        claims["at_hash"] = json!(at_hash(token));
    }
    let fault = sim.id_token_faults.get(provider);
    apply_to_claims(&mut claims, fault, now);
    match cx.dialect.id_token.signing {
        Signing::Rs256 => sim.keys.sign(&claims, fault),
        Signing::Es256 => TEST_EC_KEY.sign(&claims, fault),
        Signing::ClientSecret => {
            let secret = sim
                .client(provider, subject.client_id)
                .map_or("", |client| client.client_secret.as_str());
            sign_with_secret(secret, &claims)
        }
    }
}

/// OIDC Core §3.1.3.6: base64url of the left half of SHA-256 of the access token.
fn at_hash(access_token: &str) -> String {
    let digest = Sha256::digest(access_token.as_bytes());
    URL_SAFE_NO_PAD.encode(&digest[..16])
}
