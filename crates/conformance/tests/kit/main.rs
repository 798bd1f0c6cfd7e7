//! The conformance kit's table: every adapter against its simulated provider, the shared
//! scenarios once each; then two providers from configuration, then every preset. What a provider answers differently is in its row (`subjects`);
//! what only one provider does is tested in that adapter's own crate.

mod subjects;

social_login_conformance::conformance_kit! {
    github: crate::subjects::GITHUB => [sign_in, code_exchange, user_info, email_scope, revocation];
    discord: crate::subjects::DISCORD => [sign_in, code_exchange, user_info, email_scope, revocation];
    facebook: crate::subjects::FACEBOOK => [sign_in, code_exchange, user_info, email_scope, revocation];
    twitter: crate::subjects::TWITTER => [sign_in, code_exchange, user_info, revocation];
    google: crate::subjects::GOOGLE => [sign_in, code_exchange, user_info, id_token, nonce, openid, email_scope, revocation];
    microsoft: crate::subjects::MICROSOFT => [sign_in, code_exchange, id_token, nonce, openid, no_revocation];
    linkedin: crate::subjects::LINKEDIN => [sign_in, code_exchange, user_info, id_token, openid, email_scope, revocation];
    apple: crate::subjects::APPLE => [sign_in, code_exchange, id_token, nonce, email_scope, revocation];
    generic_oidc: crate::subjects::GENERIC_OIDC => [sign_in, code_exchange, user_info, id_token, nonce, openid, email_scope, revocation];
    generic_oauth2: crate::subjects::GENERIC_OAUTH2 => [sign_in, code_exchange, user_info, email_scope, revocation];
    // The presets (docs/providers.md#presets).
    gitlab: crate::subjects::GITLAB => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    slack: crate::subjects::SLACK => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, no_revocation];
    twitch: crate::subjects::TWITCH => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, no_revocation];
    spotify: crate::subjects::SPOTIFY => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    line: crate::subjects::LINE => [sign_in, code_exchange, user_info, openid, nonce, email_trust, no_revocation];
    patreon: crate::subjects::PATREON => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    bitbucket: crate::subjects::BITBUCKET => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    kakao: crate::subjects::KAKAO => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    wechat: crate::subjects::WECHAT => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    huggingface: crate::subjects::HUGGINGFACE => [sign_in, code_exchange, user_info, id_token, openid, email_trust, no_revocation];
    zoom: crate::subjects::ZOOM => [sign_in, code_exchange, user_info, email_trust, revocation];
    tiktok: crate::subjects::TIKTOK => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    dropbox: crate::subjects::DROPBOX => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    vk: crate::subjects::VK => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    notion: crate::subjects::NOTION => [sign_in, code_exchange, email_trust, no_revocation];
    yandex: crate::subjects::YANDEX => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    salesforce: crate::subjects::SALESFORCE => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    naver: crate::subjects::NAVER => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    okta: crate::subjects::OKTA => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    auth0: crate::subjects::AUTH0 => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    atlassian: crate::subjects::ATLASSIAN => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    reddit: crate::subjects::REDDIT => [sign_in, code_exchange, user_info, email_trust, revocation];
    figma: crate::subjects::FIGMA => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    amazon: crate::subjects::AMAZON => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    keycloak: crate::subjects::KEYCLOAK => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    box_: crate::subjects::BOX => [sign_in, code_exchange, user_info, email_trust, revocation];
    hubspot: crate::subjects::HUBSPOT => [sign_in, code_exchange, user_info, email_trust, revocation];
    paypal: crate::subjects::PAYPAL => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    xero: crate::subjects::XERO => [sign_in, code_exchange, id_token, openid, nonce, email_trust, revocation];
    roblox: crate::subjects::ROBLOX => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    linear: crate::subjects::LINEAR => [sign_in, code_exchange, user_info, email_trust, no_revocation];
    vercel: crate::subjects::VERCEL => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    cognito: crate::subjects::COGNITO => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    zitadel: crate::subjects::ZITADEL => [sign_in, code_exchange, user_info, id_token, openid, nonce, email_trust, revocation];
    dingtalk: crate::subjects::DINGTALK => [sign_in, code_exchange, user_info, email_trust, no_revocation];
}
