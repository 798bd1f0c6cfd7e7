//! The browser and callback steps every adapter test repeats, for any `IdentityProvider`:
//! authorization URL → simulator → code (a redirect, or Apple's form_post page) → exchange.

use social_login_domain::{Purpose, RedeemedState, SecretText, StateToken};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, PostBody, ProviderError, ProviderLogin,
};
use social_login_simulator::AppleFormPost;
use std::collections::HashMap;

pub const STATE: &str = "state-0123456789abcdef";
/// 43 characters, the shortest verifier RFC 7636 allows (and Discord's strict minimum).
pub const VERIFIER: &str = "verifier-0123456789-0123456789-0123456789ab";
/// A verifier of another sign-in: the provider must refuse it for our code.
pub const OTHER_VERIFIER: &str = "another-verifier-0123456789-0123456789-0123";
pub const NONCE: &str = "nonce-0S6_WzA2Mj-0123456789";
/// The nonce of a sign-in started in another browser.
pub const OTHER_NONCE: &str = "nonce-of-another-browser-0123";

/// The authorization request the flow sends: [`STATE`], [`VERIFIER`], [`NONCE`].
pub fn request() -> AuthorizationRequest {
    request_with(VERIFIER, NONCE)
}

fn request_with(verifier: &str, nonce: &str) -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse(STATE).expect("a valid state"),
        pkce_verifier: SecretText::new(verifier),
        nonce: SecretText::new(nonce),
        extra_scopes: Default::default(),
    }
}

/// The query parameters of `url`.
pub fn query_of(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .expect("a URL")
        .query_pairs()
        .into_owned()
        .collect()
}

/// How the browser step goes: the verifier and nonce behind the URL, and which seeded user
/// approves (`None`: the simulator's default identity).
#[derive(Debug, Clone, Copy)]
pub struct Authorize<'a> {
    pub verifier: &'a str,
    pub nonce: &'a str,
    pub login: Option<&'a str>,
}

impl Default for Authorize<'_> {
    fn default() -> Self {
        Self {
            verifier: VERIFIER,
            nonce: NONCE,
            login: None,
        }
    }
}

/// What the browser brings back to the callback: the code, and Apple's posted form.
#[derive(Debug, Clone)]
pub struct Callback {
    pub code: String,
    pub form: Option<AppleFormPost>,
}

impl Callback {
    /// A field of the posted form (Apple's `user`), `None` for a redirect.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.form.as_ref().and_then(|form| form.field(name))
    }

    /// The `post_body` the HTTP layer hands the adapter: the form's fields as one JSON
    /// object, `None` for a redirect.
    pub fn post_body(&self) -> Option<PostBody> {
        let form = self.form.as_ref()?;
        let fields: serde_json::Map<String, serde_json::Value> = form
            .fields
            .iter()
            .map(|(name, value)| (name.clone(), value.as_str().into()))
            .collect();
        Some(PostBody::new(serde_json::Value::Object(fields).to_string()))
    }

    /// Completes this callback as the HTTP layer does after redeeming a state with
    /// `verifier` and [`NONCE`], passing any posted form through.
    pub async fn complete(
        &self,
        provider: &dyn IdentityProvider,
        verifier: &str,
    ) -> Result<ProviderLogin, ProviderError> {
        complete_with(provider, &self.code, verifier, self.post_body()).await
    }
}

/// The browser of one provider's callback URL.
#[derive(Debug, Clone, Copy)]
pub struct Flow {
    pub callback: &'static str,
}

impl Flow {
    /// The code the simulator issued for an authorization with [`VERIFIER`] and [`NONCE`].
    pub async fn authorize(&self, provider: &dyn IdentityProvider) -> Callback {
        self.authorize_with(provider, Authorize::default()).await
    }

    /// Follows the authorization URL like a browser up to the callback.
    pub async fn authorize_with(
        &self,
        provider: &dyn IdentityProvider,
        how: Authorize<'_>,
    ) -> Callback {
        let mut url = provider
            .authorization_url(&request_with(how.verifier, how.nonce))
            .expect("the provider is ready");
        if let Some(login) = how.login {
            url = format!("{url}&sim_user={login}");
        }
        let browser = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .user_agent("test-browser")
            .build()
            .expect("a browser");
        let response = browser
            .get(url)
            .send()
            .await
            .expect("the simulator answers");
        match response.status().as_u16() {
            302 => self.redirected(&response),
            // Apple's response_mode=form_post: a page that posts the code back.
            200 => self.posted(&response.text().await.expect("a page")),
            status => panic!("the simulator approves, but answered {status}"),
        }
    }

    fn redirected(&self, response: &reqwest::Response) -> Callback {
        let location = response.headers()["location"].to_str().expect("a location");
        assert!(location.starts_with(self.callback), "{location}");
        let query = query_of(location);
        assert!(!query.contains_key("error"), "{query:?}");
        assert_eq!(query["state"], STATE);
        Callback {
            code: query["code"].clone(),
            form: None,
        }
    }

    fn posted(&self, page: &str) -> Callback {
        let form = AppleFormPost::parse(page).expect("a form_post page");
        assert_eq!(form.action, self.callback);
        assert_eq!(form.field("state"), Some(STATE));
        Callback {
            code: form.field("code").expect("a code").to_owned(),
            form: Some(form),
        }
    }

    /// The whole sign-in as the default identity, passing any posted form through.
    pub async fn sign_in(
        &self,
        provider: &dyn IdentityProvider,
    ) -> Result<ProviderLogin, ProviderError> {
        self.sign_in_with(provider, Authorize::default()).await
    }

    /// The whole sign-in approved by the seeded user `login`.
    pub async fn sign_in_as(
        &self,
        provider: &dyn IdentityProvider,
        login: &str,
    ) -> Result<ProviderLogin, ProviderError> {
        let how = Authorize {
            login: Some(login),
            ..Authorize::default()
        };
        self.sign_in_with(provider, how).await
    }

    async fn sign_in_with(
        &self,
        provider: &dyn IdentityProvider,
        how: Authorize<'_>,
    ) -> Result<ProviderLogin, ProviderError> {
        let callback = self.authorize_with(provider, how).await;
        callback.complete(provider, VERIFIER).await
    }
}

/// Completes with [`VERIFIER`] and [`NONCE`] and no posted form.
pub async fn complete(
    provider: &dyn IdentityProvider,
    code: &str,
) -> Result<ProviderLogin, ProviderError> {
    complete_with(provider, code, VERIFIER, None).await
}

/// Completes as the HTTP layer does after redeeming a state with `verifier` and [`NONCE`].
async fn complete_with(
    provider: &dyn IdentityProvider,
    code: &str,
    verifier: &str,
    post_body: Option<PostBody>,
) -> Result<ProviderLogin, ProviderError> {
    provider
        .complete(CallbackInput {
            code: SecretText::new(code),
            redeemed: RedeemedState {
                provider: provider.key(),
                purpose: Purpose::Login,
                pkce_verifier: SecretText::new(verifier),
                nonce: SecretText::new(NONCE),
                extra_scopes: Default::default(),
            },
            post_body,
        })
        .await
}
