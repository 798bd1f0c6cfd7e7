//! `cargo run -p social-login-example-embedding`: the embedding example's login, printed.

#[tokio::main]
async fn main() -> Result<(), String> {
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let login = social_login_example_embedding::run().await?;
    println!(
        "signed in: {} <{}>, new user: {}",
        login.user.full_name.as_deref().unwrap_or("?"),
        login
            .user
            .email
            .as_ref()
            .map_or("no email", |email| email.as_str()),
        login.is_new_user
    );
    Ok(())
}
