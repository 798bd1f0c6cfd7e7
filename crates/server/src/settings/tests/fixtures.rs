//! Sample configurations and keys shared by the settings tests.

/// An output of `social-login gen-secret` (48 random bytes, base64url): a key the strength
/// check accepts, as every fixture's must be.
pub(crate) const SECRET: &str = "8Rc1gfuiXSKdnpF_dWsRuk8kfG-z8_4nuwh6sqZ0cCsfb5zH-Z34Po2H8nmOy5PW";

/// Test-only keys made with `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`
/// (and P-384); they sign nothing anywhere.
pub(crate) const P256_PEM: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgT80AMudqmO+DF4XY
uH4cpJPMorx0vYDVK5g3GJf216yhRANCAARY8TemNpzFv+Scec4k9UCYlJraV5aR
p2aq29Fw8ut/9VLmg5aE81895Dok6laBwjhsyFvGxvTLGbSkgliZQOUB
-----END PRIVATE KEY-----
";
pub(crate) const P384_PEM: &str = "-----BEGIN PRIVATE KEY-----
MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDDKhEz8MBV3jH6TkbLv
1wylU6R21MID2kU9eSvkl64gvJEHVMGvnqO5aV1XbztrODOhZANiAAR5MBghCNzc
VpLYHGz6Eub4a3HcEK+ttu/WOAGiSX1swGeOW2tCVwzSq291/ChA5zLVn4msOkao
thwELL4fZYascHB212WGVDo01VY4TixGLWmxTw/0lRxTZgQr/qcWwsM=
-----END PRIVATE KEY-----
";

/// A configuration that uses every field of docs/configuration.md.
pub(crate) fn full_toml() -> String {
    format!(
        r#"
secret_key = "{SECRET}"
previous_secret_keys = ["old-secret-key-0123456789abcdefghijklmnopq"]
auto_link_by_email = true
apple_team_id = "TEAM123456"
apple_key_id = "KEY1234567"
apple_private_key_pem = """{P256_PEM}"""

[server]
bind = "0.0.0.0:9000"
trusted_proxies = ["10.0.0.0/8", "2001:db8::1"]
public_url = "https://auth.example.com"

[database]
url = "postgres://app:db-password@127.0.0.1:5432/social"
max_connections = 20

[oauth_state_store]
backend = "redis"
url = "redis://:redis-password@127.0.0.1:6379"
ttl_seconds = 300

[tokens]
access_ttl_seconds = 600
refresh_ttl_seconds = 86400
issuer = "https://auth.example.com"
audience = "api.example.com"

[http]
provider_timeout_seconds = 5
max_body_bytes = 1024
header_read_timeout_seconds = 4
request_timeout_seconds = 20
body_read_timeout_seconds = 3
max_in_flight = 64
max_connections_per_ip = 32
max_concurrent_password_hashes = 3

[rate_limit]
enabled = false
per_second = 20
burst = 100
ipv6_prefix = 56

[oauth_providers.github]
client_id = "gh-client"
client_secret = "gh-client-secret-value"
redirect_uri = "https://app.example.com/auth/callback/github"
scopes = ["read:user", "user:email"]

[oauth_providers.github.endpoints]
authorization = "https://github.example.com/login/oauth/authorize"
token = "https://github.example.com/login/oauth/access_token"
userinfo = "https://api.github.example.com/user"
emails = "https://api.github.example.com/user/emails"
revocation = "https://api.github.example.com/applications/{{client_id}}/grant"

[oauth_providers.linkedin]
client_id = "li-client"
client_secret = "li-client-secret-value"
redirect_uri = "https://app.example.com/auth/callback/linkedin"
pkce = false

[oauth_providers.microsoft]
client_id = "ms-client"
client_secret = "ms-client-secret-value"
redirect_uri = "https://app.example.com/auth/callback/microsoft"
enabled = false

[oauth_providers.microsoft.endpoints]
issuer = "https://login.microsoftonline.com/{{tenantid}}/v2.0"

[oauth_providers.apple]
client_id = "com.example.web"
client_secret = ""
redirect_uri = "https://app.example.com/auth/callback/apple"
client_ids = ["com.example.ios"]
"#
    )
}

/// Only the required field.
pub(crate) fn minimal_toml() -> String {
    format!("secret_key = \"{SECRET}\"\n")
}

/// No variables at all.
pub(crate) fn no_env() -> Vec<(String, String)> {
    Vec::new()
}

/// A valid webhook secret (32 bytes).
pub const WEBHOOK: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=";
