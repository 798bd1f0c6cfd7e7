//! The id_token of OpenID Connect providers and Apple: every broken token, an unavailable
//! key set and a missing token end as `ProviderError::UserInfo` naming the failed check.

use super::{Subject, requires_nonce};
use crate::expect::expect_user_info;
use crate::flow::{Authorize, OTHER_NONCE, VERIFIER};
use social_login_simulator::{Endpoint, Fault, IdTokenFault};

pub async fn an_unavailable_key_set(subject: &Subject) {
    let sim = subject.fixture.start().await;
    sim.set_fault(Fault::new(subject.fixture.provider, Endpoint::Jwks).status(503));
    let result = subject
        .fixture
        .flow()
        .sign_in(&*subject.adapter(&sim).await)
        .await;
    let message = expect_user_info(result, &subject.secrets(&sim, &[]));
    assert_eq!(message, "JWKS endpoint answered HTTP 503");
}

pub async fn each_broken_id_token_names_its_check(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let adapter = subject.adapter(&sim).await;
    let flow = subject.fixture.flow();
    let mut cases = vec![
        (
            IdTokenFault::WrongSignature,
            "id_token signature is invalid",
        ),
        (
            IdTokenFault::UnknownKid,
            "id_token key id is not in the provider's key set",
        ),
        (
            IdTokenFault::AlgNone,
            "id_token algorithm `none` is not allowed",
        ),
        (
            IdTokenFault::HmacWithPublicKey,
            "id_token algorithm `HS256` is not allowed",
        ),
        (
            IdTokenFault::WrongAudience,
            "id_token audience is not this client",
        ),
        (IdTokenFault::WrongIssuer, "id_token issuer is not accepted"),
        (IdTokenFault::Expired, "id_token has expired (exp)"),
        (
            IdTokenFault::IssuedInFuture,
            "id_token is issued in the future (iat)",
        ),
        // Present, a nonce must be ours even where it may be left out.
        (IdTokenFault::WrongNonce, "id_token nonce does not match"),
        (
            IdTokenFault::MissingIssuedAt,
            "id_token has no issue time (iat)",
        ),
        (
            IdTokenFault::ForeignAuthorizedParty,
            "id_token authorized party is not this client",
        ),
        (IdTokenFault::MissingSubject, "id_token has no subject"),
    ];
    if requires_nonce(adapter.plan()) {
        cases.push((IdTokenFault::MissingNonce, "id_token has no nonce"));
    }
    for (fault, expected) in cases {
        sim.set_id_token_fault(subject.fixture.provider, fault);
        let message = expect_user_info(flow.sign_in(&*adapter).await, &subject.secrets(&sim, &[]));
        assert_eq!(message, expected, "{fault:?}");
    }
    sim.clear_faults();
    let clean = flow.sign_in(&*adapter).await;
    assert!(clean.is_ok(), "a clean token still verifies: {clean:?}");
}

pub async fn an_id_token_of_another_sign_in_is_refused_by_its_nonce(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let adapter = subject.adapter(&sim).await;
    // The code (and so the id_token) belongs to a sign-in started in another browser.
    let how = Authorize {
        nonce: OTHER_NONCE,
        ..Authorize::default()
    };
    let callback = subject.fixture.flow().authorize_with(&*adapter, how).await;
    let code = callback.code.as_str();
    let result = callback.complete(&*adapter, VERIFIER).await;
    let message = expect_user_info(result, &subject.secrets(&sim, &[code]));
    assert_eq!(message, "id_token nonce does not match");
}

pub async fn a_token_answer_without_id_token(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let mut settings = subject.fixture.settings(&sim);
    // Without `openid` the provider sends no id_token.
    let declared = subject.adapter(&sim).await;
    let scopes = declared
        .plan()
        .spec
        .scopes
        .iter()
        .filter(|s| *s != "openid");
    settings.scopes = Some(scopes.cloned().collect());
    let adapter = subject.adapter_of(settings).await;
    let result = subject.fixture.flow().sign_in(&*adapter).await;
    let message = expect_user_info(result, &subject.secrets(&sim, &[]));
    assert_eq!(message, "token endpoint answered no id_token");
}
