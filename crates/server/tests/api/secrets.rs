//! No provider token in any response, log line, or in plaintext on disk.

use crate::helpers::*;
use serde_json::Value;

#[tokio::test]
async fn provider_tokens_appear_in_no_response_no_log_and_not_in_plaintext_on_disk() {
    let app = spawn_app().await;
    let mut responses = Vec::new();
    let login = app.login_response("583231").await;
    let login_text = login.text().await.unwrap();
    let login: Value = serde_json::from_str(&login_text).unwrap();
    responses.push(login_text);
    let bearer = token(&login);
    responses.push(app.login_response("583231").await.text().await.unwrap());
    let registered = app.register("pat@example.com").await;
    responses.push(registered.to_string());
    responses.push(
        app.connect_response(&token(&registered), "1000001")
            .await
            .text()
            .await
            .unwrap(),
    );
    for path in ["/auth/oauth/accounts", "/users/me"] {
        responses.push(app.get(path, Some(&bearer)).await.text().await.unwrap());
    }
    let _ = app.password_login("pat@example.com", PASSWORD).await;

    // The simulator issues GitHub-style tokens, all prefixed `gho_`.
    let issued = app.sim.issued_access_tokens();
    assert!(
        issued.len() >= 3,
        "the flows above were real: {}",
        issued.len()
    );
    let stored = app.stored_bytes().await;
    assert!(
        contains(&stored, b"pat@example.com"),
        "the stored bytes hold what the service stored"
    );
    let logs = logs();
    for provider_token in &issued {
        for response in &responses {
            assert!(
                !response.contains(provider_token.as_str()),
                "token in a response"
            );
        }
        assert!(!logs.contains(provider_token.as_str()), "token in the logs");
        assert!(
            !contains(&stored, provider_token.as_bytes()),
            "token in plaintext on disk"
        );
    }
    assert!(!logs.contains(PASSWORD), "password in the logs");
    assert!(!logs.contains(registered["refresh_token"].as_str().unwrap()));
    assert!(!contains(
        &stored,
        registered["refresh_token"].as_str().unwrap().as_bytes()
    ));
    assert!(!logs.contains(CLIENT_SECRET));
    app.stop().await;
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}
