//! A program that embeds social-login's use cases instead of running its HTTP service: the
//! domain and `AuthService` from `social-login-app`, its own choice of adapters (an
//! in-memory user store from `social-login-testing`, the real GitHub adapter, the real
//! cipher, state sealer and session tokens), and a login walked end to end against the
//! simulated GitHub. `docs/embedding.md` explains which crate serves what.

use social_login_app::{
    AuthPolicy, AuthService, LoginResult, Ports, ProviderRegistry, SignalVerifiers,
};
use social_login_domain::{Origin, ProviderKey, SecretText};
use social_login_ports::SystemClock;
use social_login_provider_core::spec::built_in_spec;
use social_login_provider_core::{
    BuildContext, EndpointOverrides, ProviderPlan, ProviderSettings, build_http_client,
};
use social_login_security::{
    AeadStateSealer, AesGcmTokenCipher, Argon2PasswordHasher, JwtSessionTokens, ThreadRandomness,
    generate_secret_key,
};
use social_login_simulator::{Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig};
use social_login_state_store::MemoryStateStore;
use social_login_testing::InMemoryRepository;
use std::sync::Arc;
use std::time::Duration;

const CLIENT_ID: &str = "embedding-example";
const CLIENT_SECRET: &str = "embedding-example-secret";
const REDIRECT_URI: &str = "http://127.0.0.1:9/my-app/github-callback";

/// Builds the service from the adapters this program chose, logs Ada in through the
/// simulated GitHub, and returns the login result.
pub async fn run() -> Result<LoginResult, String> {
    // The identity provider: GitHub as the simulator plays it, on loopback.
    let github_site = Simulator::start(
        SimulatorConfig::default()
            .with_client(RegisteredClient::new(
                Provider::Github,
                CLIENT_ID,
                CLIENT_SECRET,
                REDIRECT_URI,
            ))
            .with_user(
                SimUser::new("583231", "adalovelace")
                    .with_name("Ada Lovelace")
                    .with_email("ada@example.com", true),
            ),
    )
    .await
    .map_err(|error| format!("simulator: {error}"))?;
    let endpoints = github_site.github();

    // The adapters: any mix of ours and yours, as long as each implements its port.
    let http = build_http_client(Duration::from_secs(10)).map_err(|error| error.to_string())?;
    let spec = built_in_spec(ProviderKey::GITHUB).ok_or("github is built in")?;
    let settings = ProviderSettings {
        client_id: CLIENT_ID.into(),
        client_secret: SecretText::new(CLIENT_SECRET),
        redirect_uri: REDIRECT_URI.into(),
        scopes: None,
        pkce: true,
        client_ids: Vec::new(),
        signing: None,
        endpoints: EndpointOverrides {
            authorization: Some(endpoints.authorization),
            token: Some(endpoints.token),
            userinfo: Some(endpoints.user),
            emails: Some(endpoints.emails),
            ..EndpointOverrides::default()
        },
    };
    let plan = ProviderPlan::resolve(spec, &settings).map_err(|error| error.to_string())?;
    let github = social_login_provider_oauth2::build(plan, &BuildContext::new(http))
        .map_err(|error| error.to_string())?;
    let secret = SecretText::new(generate_secret_key());
    let store = Arc::new(InMemoryRepository::default());
    let clock = Arc::new(SystemClock);
    let service = AuthService::new(
        Ports {
            users: store.clone(),
            refresh_tokens: store.clone(),
            grants: store.clone(),
            signals: store,
            signal_verifiers: SignalVerifiers::new(),
            state_sealer: Arc::new(AeadStateSealer::new(&secret, &[])),
            states: Arc::new(MemoryStateStore::new(clock.clone())),
            providers: ProviderRegistry::new().with(Arc::new(github)),
            cipher: Arc::new(AesGcmTokenCipher::new(&secret, &[])),
            hasher: Arc::new(Argon2PasswordHasher::new()),
            sessions: Arc::new(JwtSessionTokens::new(
                &secret,
                &[],
                time::Duration::minutes(15),
                time::Duration::days(30),
            )),
            clock,
            random: Arc::new(ThreadRandomness),
        },
        AuthPolicy::default(),
    );

    // The flow your program drives: the URL to send the browser to, the browser's visit
    // (played here), and the code and state that come back.
    let github = service
        .provider_of(ProviderKey::GITHUB)
        .map_err(|error| error.to_string())?;
    let authorization_url = service
        .authorize(github.clone(), None, Default::default())
        .await
        .map_err(|error| error.to_string())?;
    let (code, state) = approve_as_ada(&authorization_url).await?;
    let returned = service
        .provider_return(github, &code, &state, None)
        .map_err(|error| error.to_string())?;
    let login = service
        .callback(returned, &Origin::default())
        .await
        .map_err(|error| error.to_string())?;
    github_site.shutdown().await;
    Ok(login)
}

/// What the user's browser does at GitHub: approve, and follow the redirect back.
async fn approve_as_ada(authorization_url: &str) -> Result<(String, String), String> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|error| error.to_string())?;
    let answer = browser
        .get(format!("{authorization_url}&sim_user=583231"))
        .send()
        .await
        .map_err(|error| error.to_string())?;
    let location = answer
        .headers()
        .get("location")
        .and_then(|value| value.to_str().ok())
        .ok_or("GitHub did not redirect back")?;
    let redirect = url::Url::parse(location).map_err(|error| error.to_string())?;
    let param = |name: &str| {
        redirect
            .query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
            .ok_or(format!("no {name} in the redirect"))
    };
    Ok((param("code")?, param("state")?))
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn the_example_signs_ada_in_through_the_real_github_adapter() {
        let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
        let login = super::run().await.unwrap();
        assert!(login.is_new_user);
        assert_eq!(
            login.user.email.as_ref().map(|email| email.as_str()),
            Some("ada@example.com")
        );
        assert_eq!(login.user.full_name.as_deref(), Some("Ada Lovelace"));
    }
}
