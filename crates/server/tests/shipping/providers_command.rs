//! `social-login providers`, the real binary: the whole catalogue, each entry's key, name and
//! kind, what its table must set and its email rule, and a printed table that `check-config`
//! then accepts with the listed fields alone.

fn listing() -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_social-login"))
        .arg("providers")
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn providers_prints_every_provider_known_by_name_with_what_to_set() {
    let text = listing();
    for spec in social_login_provider_core::spec::catalogue() {
        let head = format!(
            "{}  {}  ({})",
            spec.key,
            spec.display_name,
            spec.kind.as_str()
        );
        let at = text
            .find(&head)
            .unwrap_or_else(|| panic!("{head} in {text}"));
        let entry: Vec<&str> = text[at..].lines().take(3).collect();
        assert!(entry[1].starts_with("  set:   client_id"), "{entry:?}");
        assert_eq!(
            entry[2],
            format!("  email: {}", spec.email_note),
            "{entry:?}"
        );
        for need in &spec.needs {
            assert!(entry[1].contains(need.as_str()), "{entry:?}");
        }
    }
}

#[test]
fn a_preset_table_with_the_listed_fields_alone_is_valid() {
    let text = listing();
    let at = text.find("zitadel  ").unwrap();
    let set = text[at..].lines().nth(1).unwrap();
    let mut settings = social_login::settings::Settings::with_secret_key(
        social_login_security::generate_secret_key(),
    );
    let mut table = social_login::settings::ProviderConfig::new(
        "id",
        "secret",
        "https://app.example.com/cb/zitadel",
    );
    assert!(set.ends_with(", issuer"), "{set}");
    table.issuer = Some("https://auth.example.com".into());
    let key = social_login_domain::ProviderKey::parse("zitadel").unwrap();
    settings.oauth_providers.insert(key, table);
    settings.validate().expect("a preset needs nothing more");
}
