//! One row per provider: its fixture, how its adapter is built, and what its simulated
//! provider answers where providers differ. What each provider asks for is read from the
//! plan its adapter was built from. Discord is the plain OAuth 2.0 row and Google the plain
//! OpenID Connect one; the other rows name only what they do differently.

use social_login_conformance::Fixture;
use social_login_conformance::fixture::{self, OTHER_P256_KEY_PEM};
use social_login_conformance::kit::{Adapter, Built, Credentials, Refusals, Subject};
use social_login_domain::{ProviderKey, ProviderKind, SecretText};
use social_login_provider_apple as apple;
use social_login_provider_core::spec::{Claims, EmailVerified, GenericProvider};
use social_login_provider_core::{BuildContext, ProviderPlan, ProviderSettings, SigningKey};
use social_login_provider_oauth2 as oauth2;
use social_login_provider_oidc as oidc;
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, LinkedinKnobs, LinkedinPkce,
};

/// The refusals of providers that answer as RFC 6749 says.
const RFC_6749: Refusals = Refusals {
    replayed_code: "token endpoint answered error `invalid_grant`",
    wrong_verifier: Some("token endpoint answered error `invalid_grant`"),
    wrong_secret: Some("token endpoint answered error `invalid_client`"),
};

/// The Graph API's error envelope: `error` is an object, not an RFC 6749 code.
const GRAPH_ERROR: &str = "token endpoint answered error `non-string error member`";

pub const DISCORD: Subject = Subject {
    fixture: fixture::DISCORD,
    build: built,
    // The simulated provider checks the verifier without being asked.
    enforce_pkce: |_| {},
    refusals: RFC_6749,
    never_in_messages: &[],
};

pub const GITHUB: Subject = Subject {
    fixture: fixture::GITHUB,
    refusals: Refusals {
        replayed_code: "token endpoint answered error `bad_verification_code`",
        wrong_verifier: Some("token endpoint answered error `bad_verification_code`"),
        wrong_secret: Some("token endpoint answered error `incorrect_client_credentials`"),
    },
    never_in_messages: &["gho_"],
    ..DISCORD
};

pub const FACEBOOK: Subject = Subject {
    fixture: fixture::FACEBOOK,
    refusals: Refusals {
        replayed_code: GRAPH_ERROR,
        wrong_verifier: Some(GRAPH_ERROR),
        wrong_secret: Some(GRAPH_ERROR),
    },
    never_in_messages: &["EAA"],
    ..DISCORD
};

pub const TWITTER: Subject = Subject {
    fixture: fixture::TWITTER,
    refusals: Refusals {
        replayed_code: "token endpoint answered error `invalid_request`",
        wrong_verifier: Some("token endpoint answered error `invalid_request`"),
        wrong_secret: Some("token endpoint answered error `unauthorized_client`"),
    },
    ..DISCORD
};

/// The row of `fixture`, a provider that answers like `base`'s, whose messages must not hold
/// `never_in_messages` either.
const fn like(
    base: Subject,
    fixture: Fixture,
    never_in_messages: &'static [&'static str],
) -> Subject {
    Subject {
        fixture,
        never_in_messages,
        ..base
    }
}

pub const GOOGLE: Subject = like(DISCORD, fixture::GOOGLE, &["ya29."]);

pub const MICROSOFT: Subject = like(GOOGLE, fixture::MICROSOFT, &["EwA", "AADSTS"]);

pub const LINKEDIN: Subject = Subject {
    fixture: fixture::LINKEDIN,
    // A web app on LinkedIn skips PKCE; a native app checks it.
    enforce_pkce: |sim| {
        sim.set_linkedin_knobs(LinkedinKnobs {
            pkce: LinkedinPkce::Enforce,
        })
    },
    // LinkedIn answers a bad code with `invalid_request`, not `invalid_grant`.
    refusals: Refusals {
        replayed_code: "token endpoint answered error `invalid_request`",
        wrong_verifier: Some("token endpoint answered error `invalid_request`"),
        ..RFC_6749
    },
    never_in_messages: &["AQV"],
    ..GOOGLE
};

pub const APPLE: Subject = like(GOOGLE, fixture::APPLE, &["MIG"]);

/// A provider of `kind = "oidc"` from configuration: the standards, nothing else.
pub const GENERIC_OIDC: Subject = Subject {
    fixture: fixture::GENERIC_OIDC,
    build: generic,
    never_in_messages: &["sim_at_", "sim_rt_"],
    ..DISCORD
};

/// A provider of `kind = "oauth2"` from configuration, its user document nested.
pub const GENERIC_OAUTH2: Subject = Subject {
    fixture: fixture::GENERIC_OAUTH2,
    build: generic,
    never_in_messages: &["corp_at_", "corp_rt_"],
    ..DISCORD
};

/// Every provider built the way the server builds it, by the crate its declaration names.
/// Apple's client secret is a JWT the adapter signs: its wrong credentials are a key of no
/// team.
fn built(
    key: ProviderKey,
    settings: ProviderSettings,
    http: social_login_provider_core::ProviderHttp,
    credentials: Credentials,
) -> Built {
    Box::pin(std::future::ready(built_in(
        key,
        settings,
        http,
        credentials,
    )))
}

fn built_in(
    key: ProviderKey,
    settings: ProviderSettings,
    http: social_login_provider_core::ProviderHttp,
    credentials: Credentials,
) -> Box<dyn Adapter> {
    let spec = fixture::spec_of(key, &settings);
    let cx = BuildContext::new(http);
    let mut settings = credentials.apply(settings);
    let plan = |settings| ProviderPlan::resolve(&spec, settings).expect("the fixture's settings");
    let engine = if spec.quirks.as_deref() == Some("apple") {
        let pem = match credentials {
            Credentials::Registered => APPLE_TEST_KEY_PEM,
            Credentials::Wrong => OTHER_P256_KEY_PEM,
        };
        settings.signing = Some(SigningKey {
            team_id: APPLE_TEST_TEAM_ID.into(),
            key_id: APPLE_TEST_KEY_ID.into(),
            private_key_pem: SecretText::new(pem),
        });
        apple::build(plan(&settings), &cx)
    } else if spec.kind == ProviderKind::Oidc {
        oidc::build(plan(&settings), &cx)
    } else {
        oauth2::build(plan(&settings), &cx)
    };
    Box::new(engine.expect("the fixture's settings build"))
}

/// A provider from configuration built the way the server builds it: its table's declaration
/// (the fixture's endpoints are the table's; an `issuer` among them is where the `oidc`
/// kind's discovery starts), no quirks.
fn generic(
    key: ProviderKey,
    settings: ProviderSettings,
    http: social_login_provider_core::ProviderHttp,
    credentials: Credentials,
) -> Built {
    Box::pin(async move {
        let mut settings = credentials.apply(settings);
        let issuer = settings.endpoints.issuer.take();
        let provider = declared(key, issuer, &settings);
        let cx = BuildContext::new(http);
        let engine = match provider.kind {
            ProviderKind::Oidc => oidc::generic::discovered_engine(&provider, &settings, &cx)
                .await
                .map_err(|error| error.to_string()),
            ProviderKind::OAuth2 => ProviderPlan::resolve(&provider.declaration(None), &settings)
                .and_then(|plan| oauth2::build(plan, &cx))
                .map_err(|error| error.to_string()),
        };
        Box::new(engine.expect("the fixture's provider builds")) as Box<dyn Adapter>
    })
}

/// What an operator's table says: `oidc` with the OpenID Connect claims, `oauth2` with
/// pointers into the standard provider's nested document; both vouched for.
fn declared(
    key: ProviderKey,
    issuer: Option<String>,
    settings: &ProviderSettings,
) -> GenericProvider {
    let (kind, scopes, claims) = match issuer {
        Some(_) => (
            ProviderKind::Oidc,
            vec!["openid", "email", "profile"],
            Claims::openid_connect(),
        ),
        None => (
            ProviderKind::OAuth2,
            vec!["profile", "email"],
            nested_claims(),
        ),
    };
    let table = &settings.endpoints;
    GenericProvider {
        key,
        display_name: key.to_string(),
        kind,
        issuer,
        scopes: scopes.into_iter().map(str::to_owned).collect(),
        token_auth: None,
        claims,
        endpoints: table.as_endpoints(),
        revocation: table.revocation.clone(),
        knobs: Default::default(),
    }
}

fn nested_claims() -> Claims {
    let at = |path: &str| format!("/data{path}");
    Claims {
        subject: at("/id"),
        email: Some(at("/attributes/mail")),
        email_verified: EmailVerified::AllOf(vec![at("/attributes/mail_confirmed")]),
        name: vec![at("/attributes/display")],
        avatar_url: Some(at("/attributes/avatar/url")),
        hosted_domain: None,
    }
}

/// A preset's row: its fixture, built as the server builds it, answering `refusals`.
const fn preset(key: &'static str, refusals: Refusals) -> Subject {
    Subject {
        fixture: fixture::preset_fixture(key),
        refusals,
        ..DISCORD
    }
}

/// The refusals of a provider that compares no PKCE verifier and otherwise answers as RFC
/// 6749 says.
const NO_VERIFIER: Refusals = Refusals {
    wrong_verifier: None,
    ..RFC_6749
};

/// The refusals of a provider whose errors have no `error` member: only their status says.
const BY_STATUS: Refusals = Refusals {
    replayed_code: "token endpoint answered HTTP 400",
    wrong_verifier: Some("token endpoint answered HTTP 400"),
    wrong_secret: Some("token endpoint answered HTTP 401"),
};

pub const GITLAB: Subject = preset("gitlab", RFC_6749);
pub const SLACK: Subject = preset("slack", NO_VERIFIER);
pub const TWITCH: Subject = preset("twitch", BY_STATUS);
pub const SPOTIFY: Subject = preset("spotify", RFC_6749);
pub const LINE: Subject = preset("line", RFC_6749);
pub const PATREON: Subject = preset("patreon", RFC_6749);
pub const BITBUCKET: Subject = preset("bitbucket", RFC_6749);
pub const KAKAO: Subject = preset("kakao", RFC_6749);
/// WeChat's `errcode`s: 40029 invalid code, 40125 invalid appsecret; no PKCE.
pub const WECHAT: Subject = preset(
    "wechat",
    Refusals {
        replayed_code: "token endpoint answered error `errcode_40029`",
        wrong_verifier: None,
        wrong_secret: Some("token endpoint answered error `errcode_40125`"),
    },
);
pub const HUGGINGFACE: Subject = preset("huggingface", RFC_6749);
pub const ZOOM: Subject = preset("zoom", RFC_6749);
pub const TIKTOK: Subject = preset("tiktok", NO_VERIFIER);
pub const DROPBOX: Subject = preset("dropbox", RFC_6749);
/// VK ID's apps send no secret at the exchange.
pub const VK: Subject = preset(
    "vk",
    Refusals {
        wrong_secret: None,
        ..RFC_6749
    },
);
pub const NOTION: Subject = preset("notion", BY_STATUS);
pub const YANDEX: Subject = preset("yandex", RFC_6749);
/// Salesforce answers a wrong verifier `invalid_request`.
pub const SALESFORCE: Subject = preset(
    "salesforce",
    Refusals {
        wrong_verifier: Some("token endpoint answered error `invalid_request`"),
        ..RFC_6749
    },
);
pub const NAVER: Subject = preset("naver", RFC_6749);
pub const OKTA: Subject = preset("okta", RFC_6749);
pub const AUTH0: Subject = preset("auth0", RFC_6749);
pub const ATLASSIAN: Subject = preset("atlassian", RFC_6749);
pub const REDDIT: Subject = preset("reddit", NO_VERIFIER);
pub const FIGMA: Subject = preset("figma", RFC_6749);
pub const AMAZON: Subject = preset("amazon", RFC_6749);
pub const KEYCLOAK: Subject = preset("keycloak", RFC_6749);
pub const BOX: Subject = preset("box", NO_VERIFIER);
pub const HUBSPOT: Subject = preset("hubspot", RFC_6749);
pub const PAYPAL: Subject = preset("paypal", NO_VERIFIER);
pub const XERO: Subject = preset("xero", RFC_6749);
pub const ROBLOX: Subject = preset("roblox", RFC_6749);
pub const LINEAR: Subject = preset("linear", RFC_6749);
pub const VERCEL: Subject = preset("vercel", RFC_6749);
pub const COGNITO: Subject = preset("cognito", RFC_6749);
pub const ZITADEL: Subject = preset("zitadel", RFC_6749);
pub const DINGTALK: Subject = preset("dingtalk", NO_VERIFIER);
