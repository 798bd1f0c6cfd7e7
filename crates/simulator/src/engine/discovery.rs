//! OIDC metadata, once for every provider that publishes it: the discovery document (the
//! dialect's fields, the served endpoints, the issuer the hooks announce) and the key set.

use crate::dialect::{DiscoveryRules, Listed, Signing};
use crate::faults::Endpoint;
use crate::hooks::Cx;
use crate::log::RequestRecord;
use crate::signing::TEST_EC_KEY;
use axum::Json;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::json;

pub async fn document(cx: Cx<'_>, rules: &DiscoveryRules, headers: &HeaderMap) -> Response {
    let record = RequestRecord::new(cx.provider, Endpoint::Discovery, headers);
    super::serve(cx, record, |_| {
        let urls = cx
            .dialect
            .paths
            .under(&cx.sim.base_url, cx.provider.prefix(), cx.params);
        let mut document = rules.document.clone();
        document.insert("issuer".into(), json!(cx.hooks().announced_issuer(&cx)));
        for listed in &rules.lists {
            let (member, url) = match listed {
                Listed::Authorization => ("authorization_endpoint", Some(&urls.authorization)),
                Listed::Token => ("token_endpoint", Some(&urls.token)),
                Listed::Userinfo => ("userinfo_endpoint", urls.userinfo.as_ref()),
                Listed::Jwks => ("jwks_uri", urls.jwks.as_ref()),
                Listed::Revocation => ("revocation_endpoint", urls.revocation.as_ref()),
            };
            document.insert(member.into(), json!(url));
        }
        Ok(Json(document))
    })
    .await
}

/// The simulator's signing keys as a JWKS, the way the provider lists them.
pub async fn key_set(cx: Cx<'_>, headers: &HeaderMap) -> Response {
    let record = RequestRecord::new(cx.provider, Endpoint::Jwks, headers);
    super::serve(cx, record, |_| {
        let mut jwks = match cx.dialect.id_token.signing {
            Signing::Es256 => json!({ "keys": [TEST_EC_KEY.jwk()] }),
            Signing::Rs256 | Signing::ClientSecret => cx.sim.keys.jwks(),
        };
        cx.hooks().key_set(&cx, &mut jwks);
        Ok(Json(jwks))
    })
    .await
}
