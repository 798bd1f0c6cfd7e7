//! After the exchange: each user endpoint's gate and subject, each OIDC provider's
//! metadata, each RFC 7009 revocation endpoint.

use super::expected::{self, Answer};
use crate::support::fixtures::{ALL, start};
use serde_json::Value;
use social_login_simulator::{Endpoint, Provider, TEST_KEY_A, TokenKind};

#[tokio::test]
async fn each_user_endpoint_names_the_user_of_a_live_token() {
    let sim = start(&ALL).await;
    for (fixture, client, wanted) in expected::having(&sim, |e| e.userinfo.as_ref()) {
        let token = client.access_token(fixture.scope).await;
        let (status, body) = client.userinfo(Some(&token)).await;
        assert_eq!(status, 200, "{fixture}: {body}");
        assert_eq!(
            body.pointer(&wanted.at),
            Some(&wanted.is),
            "{fixture}: {body}"
        );
    }
}

#[tokio::test]
async fn each_user_endpoint_refuses_a_missing_or_unknown_token_in_its_own_words() {
    let sim = start(&ALL).await;
    for (fixture, client, wanted) in expected::having(&sim, |e| e.userinfo.as_ref()) {
        for (token, answer) in [
            (None, &wanted.missing),
            (Some("not-a-token"), &wanted.unknown),
        ] {
            let (status, _) = client.userinfo(token).await;
            let got = Answer(status, client.last_outcome());
            assert_eq!(&got, answer, "{fixture} {token:?}");
        }
    }
}

#[tokio::test]
async fn each_openid_provider_publishes_its_endpoints_issuer_and_keys() {
    let sim = start(&ALL).await;
    for (_, client, issuer) in expected::having(&sim, |e| e.issuer.as_ref()) {
        let issuer = issuer.replace("{base}", sim.base_url());
        let urls = client.urls();
        let (status, document) = client.get(urls.discovery.as_deref().unwrap(), None).await;
        assert_eq!(
            (status, &document["issuer"]),
            (200, &Value::from(issuer.as_str()))
        );
        assert_eq!(urls.issuer.as_deref(), Some(issuer.as_str()));
        assert_eq!(document["authorization_endpoint"], urls.authorization);
        assert_eq!(document["token_endpoint"], urls.token);
        assert_eq!(document["jwks_uri"].as_str(), urls.jwks.as_deref());
        assert_eq!(
            document["id_token_signing_alg_values_supported"][0],
            "RS256"
        );
        let (_, keys) = client.get(urls.jwks.as_deref().unwrap(), None).await;
        assert_eq!(
            (&keys["keys"][0]["kid"], &keys["keys"][0]["n"]),
            (&TEST_KEY_A.kid.into(), &TEST_KEY_A.n.into())
        );
        assert!(
            keys["keys"][0].get("d").is_none(),
            "no private part is published"
        );
        let logged: Vec<_> = sim
            .requests()
            .iter()
            .rev()
            .take(2)
            .map(|r| r.endpoint)
            .collect();
        assert_eq!(logged, [Some(Endpoint::Jwks), Some(Endpoint::Discovery)]);
    }
}

#[tokio::test]
async fn each_rfc_7009_endpoint_revokes_a_live_token_records_it_and_answers_its_way() {
    let sim = start(&ALL).await;
    for (fixture, client, wanted) in expected::having(&sim, |e| e.revocation.as_ref()) {
        let token = client.access_token(fixture.scope).await;
        let answer: Value = serde_json::from_str(&wanted.answer).unwrap_or_default();
        assert_eq!(client.revoke(&token, "access_token").await, (200, answer));
        let revoked = sim.revocations().pop().unwrap();
        assert_eq!(
            (revoked.provider, revoked.kind),
            (fixture.provider, Some(TokenKind::Access))
        );
        assert_eq!(
            (revoked.client_id.as_str(), revoked.hint.as_deref()),
            (fixture.id, Some("access_token"))
        );
        assert!(!sim.issued_access_tokens().contains(&token));
        if fixture.provider != Provider::Apple {
            assert_eq!(client.userinfo(Some(&token)).await.0, 401, "{fixture}");
        }
    }
}

#[tokio::test]
async fn an_unknown_token_is_revoked_as_rfc_7009_says_but_google_refuses_it() {
    let sim = start(&ALL).await;
    for (fixture, client, wanted) in expected::having(&sim, |e| e.revocation.as_ref()) {
        let before = sim.revocations().len();
        let (status, _) = client.revoke("never-issued", "refresh_token").await;
        assert_eq!(
            &Answer(status, client.last_outcome()),
            &wanted.unknown,
            "{fixture}"
        );
        // A refusal is not recorded; an accepted one is, as nothing found.
        let recorded = sim.revocations();
        assert_eq!(recorded.len() - before, usize::from(status == 200));
        assert!(recorded.iter().skip(before).all(|r| r.kind.is_none()));
    }
}
