//! The interactive simulator's sign-in page (the demo's): the identities as cards in the
//! provider's colours, a form to type one, and the request itself once someone is chosen.

use crate::support::fixtures::{ALL, GITHUB, ada, config_for, start_with};
use social_login_simulator::{PAGE_STYLE, SimUser};

#[tokio::test]
async fn a_request_that_names_nobody_shows_the_identities_as_cards_in_the_providers_colours() {
    let mallory = SimUser::new("666", "mallory").with_name("<script>alert(1)</script>");
    let config = config_for(&ALL, ada()).with_user(mallory).interactive();
    let sim = start_with(config).await;
    let client = GITHUB.client(&sim);
    let response = client.authorize(&client.valid(GITHUB.scope)).await;
    assert_eq!(response.status(), 200);
    let page = response.text().await.unwrap();
    assert!(page.contains("<h1>Sign in with GitHub</h1>"));
    assert!(page.contains("background: #24292f"), "GitHub's colours");
    assert!(page.contains(PAGE_STYLE), "the shared look");
    assert!(page.contains(r#"<a class="user card" data-user="583231""#));
    assert!(page.contains("Ada Lovelace") && page.contains("verified"));
    assert!(page.contains("Or type an identity") && page.contains(r#"id="sim-continue""#));
    assert!(!page.contains("<script>alert(1)"), "names are escaped");
    assert!(sim.requests().is_empty(), "nobody has answered yet");
    let chosen = client
        .answer(&client.valid(GITHUB.scope).and("sim_user", "583231"))
        .await;
    assert!(chosen.get("code").is_some());
}

#[tokio::test]
async fn every_provider_has_its_own_name_on_its_page() {
    let sim = start_with(config_for(&ALL, ada()).interactive()).await;
    let names = [
        "Google",
        "GitHub",
        "Facebook",
        "Microsoft",
        "LinkedIn",
        "Discord",
        "X",
        "Apple",
    ];
    for (fixture, name) in ALL.into_iter().zip(names) {
        let client = fixture.client(&sim);
        let page = client.page(&client.valid(fixture.scope)).await;
        assert!(
            page.contains(&format!("<h1>Sign in with {name}</h1>")),
            "{fixture}"
        );
    }
}
