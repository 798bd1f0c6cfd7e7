//! `social-login gen-admin-key`, the real binary: a new key each run, and the hash it prints
//! is the SHA-256 of that key, as a receiver would compute it (not the service's code), in
//! the form `[admin] api_keys` takes.

use sha2::{Digest, Sha256};

fn run() -> (String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_social-login"))
        .arg("gen-admin-key")
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .unwrap_or_else(|| panic!("{name} in {text}"))
            .trim()
            .to_owned()
    };
    (field("key:"), field("hash:"))
}

#[test]
fn gen_admin_key_prints_a_fresh_key_and_its_sha256_for_the_configuration() {
    let (key, hash) = run();
    assert!(key.starts_with("sla_") && key.len() > 40, "{key}");
    assert_eq!(
        hash,
        format!("sha256:{}", hex::encode(Sha256::digest(key.as_bytes())))
    );
    let mut settings = social_login::settings::Settings::with_secret_key(
        social_login_security::generate_secret_key(),
    );
    settings.admin.api_keys = vec![hash.clone()];
    settings
        .validate()
        .expect("the printed hash is a valid [admin] api_keys entry");
    let (other, _) = run();
    assert_ne!(key, other, "a new key each run");
}
