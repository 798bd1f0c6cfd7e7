//! The conformance kit's table: every adapter against its simulated provider, the shared
//! scenarios once each; the last two rows are providers from configuration. What a provider answers differently is in its row (`subjects`);
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
}
