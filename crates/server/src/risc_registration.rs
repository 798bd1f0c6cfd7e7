//! `social-login risc-registration`: prints the requests that register this service's
//! Cross-Account Protection endpoint with Google (docs/operations.md, "Google Cross-Account
//! Protection") as a shell script; nothing is sent. Google takes them only from a service
//! account of the project that owns the google `client_id`, with the RISC Configuration
//! Admin role: the script signs that account's token (jq and openssl) unless `RISC_TOKEN`
//! is already set.

use crate::settings::Settings;
use serde_json::json;
use social_login_domain::ProviderKey;
use social_login_provider_signals::RISC_EVENT_TYPES;

/// Where the service receives Security Event Tokens.
pub const RISC_PATH: &str = "/auth/oauth/google/risc";

const STREAM_UPDATE: &str = "https://risc.googleapis.com/v1beta/stream:update";
const STREAM_VERIFY: &str = "https://risc.googleapis.com/v1beta/stream:verify";
/// The audience of the service account's self-signed token (Google's RISC documentation).
const RISC_API_AUDIENCE: &str =
    "https://risc.googleapis.com/google.identity.risc.v1beta.RiscManagementService";
const PUSH: &str = "https://schemas.openid.net/secevent/risc/delivery-method/push";

/// The script, or why there is none (google off, no public URL).
pub fn script(settings: &Settings) -> Result<String, String> {
    let google = settings
        .enabled_providers()
        .find(|(key, _)| *key == ProviderKey::GOOGLE)
        .map(|(_, config)| config)
        .ok_or("oauth_providers.google is not enabled: there is nothing to register")?;
    let receiver = settings
        .server
        .public_url_for(RISC_PATH)
        .ok_or("server.public_url is not set: Google needs the endpoint's public URL")?;
    let events: Vec<&str> = RISC_EVENT_TYPES.iter().map(|(uri, _)| *uri).collect();
    let update = json!({
        "delivery": {"delivery_method": PUSH, "url": receiver},
        "events_requested": events,
    });
    let verify = json!({"state": "social-login verification"});
    // Every value goes in single quotes (`quoted`), whatever it holds: a newline in a
    // client id must stay text, never become a command.
    Ok(format!(
        r#"#!/bin/sh
# Registers this service's RISC receiver with Google's Cross-Account Protection for its
# google OAuth client, then asks Google for a verification event.
# Needs RISC_TOKEN, or SERVICE_ACCOUNT naming the JSON key of a service account of that
# client's Google Cloud project with the RISC Configuration Admin role (then jq and openssl).
set -eu
receiver={receiver}
client_id={client_id}
update={update}
verify={verify}
printf 'Registering %s for the OAuth client %s\n' "$receiver" "$client_id" >&2
if [ -z "${{RISC_TOKEN:-}}" ]; then
  b64() {{ openssl base64 -A | tr '+/' '-_' | tr -d '='; }}
  email=$(jq -r .client_email "$SERVICE_ACCOUNT")
  kid=$(jq -r .private_key_id "$SERVICE_ACCOUNT")
  key=$(mktemp); trap 'rm -f "$key"' EXIT
  jq -r .private_key "$SERVICE_ACCOUNT" > "$key"
  now=$(date +%s)
  header=$(printf '{{"alg":"RS256","typ":"JWT","kid":"%s"}}' "$kid" | b64)
  claims=$(printf '{{"iss":"%s","sub":"%s","aud":"{RISC_API_AUDIENCE}","iat":%s,"exp":%s}}' \
    "$email" "$email" "$now" "$((now + 3600))" | b64)
  signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$key" -binary | b64)
  RISC_TOKEN="$header.$claims.$signature"
fi
curl -sS --fail-with-body -X POST '{STREAM_UPDATE}' \
  -H "Authorization: Bearer $RISC_TOKEN" -H 'Content-Type: application/json' \
  -d "$update"
curl -sS --fail-with-body -X POST '{STREAM_VERIFY}' \
  -H "Authorization: Bearer $RISC_TOKEN" -H 'Content-Type: application/json' \
  -d "$verify"
"#,
        receiver = quoted(&receiver),
        client_id = quoted(&google.client_id),
        update = quoted(&update.to_string()),
        verify = quoted(&verify.to_string()),
    ))
}

/// `text` as one POSIX shell word: in single quotes, each `'` written as `'\''`. Nothing
/// inside single quotes is special to the shell, a newline included.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::ProviderConfig;

    fn settings(public_url: Option<&str>, google: bool) -> Settings {
        let mut settings = Settings::with_secret_key("unused-in-these-tests");
        settings.server.public_url = public_url.map(str::to_owned);
        if google {
            settings.oauth_providers.insert(
                ProviderKey::GOOGLE,
                ProviderConfig::new(
                    "123-web.apps.googleusercontent.com",
                    "g-client-secret-value",
                    "https://app.example.com/cb",
                ),
            );
        }
        settings
    }

    #[test]
    fn the_script_registers_the_public_risc_url_for_every_event_type_and_then_verifies() {
        let script = script(&settings(Some("https://auth.example.com/"), true)).unwrap();
        let update_line = script.lines().find(|l| l.starts_with("update=")).unwrap();
        let body: serde_json::Value = serde_json::from_str(
            update_line
                .trim_start_matches("update='")
                .trim_end_matches('\''),
        )
        .unwrap();
        assert_eq!(
            body["delivery"]["url"],
            "https://auth.example.com/auth/oauth/google/risc"
        );
        assert_eq!(body["delivery"]["delivery_method"], PUSH);
        assert_eq!(
            body["events_requested"].as_array().unwrap().len(),
            RISC_EVENT_TYPES.len()
        );
        assert!(script.contains(STREAM_UPDATE) && script.contains(STREAM_VERIFY));
        assert!(script.contains("123-web.apps.googleusercontent.com"));
        assert!(script.contains(RISC_API_AUDIENCE));
        assert!(
            !script.contains("g-client-secret-value"),
            "no client secret in the output"
        );
    }

    #[test]
    fn without_google_or_a_public_url_there_is_nothing_to_register() {
        assert!(script(&settings(Some("https://auth.example.com"), false)).is_err());
        assert!(
            script(&settings(None, true))
                .unwrap_err()
                .contains("server.public_url")
        );
    }

    #[test]
    fn every_value_is_one_quoted_word_whatever_it_holds() {
        assert_eq!(quoted("plain"), "'plain'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        let marker = tempfile::tempdir().unwrap();
        let pwned = marker.path().join("pwned");
        let client_id = format!("x\ntouch {} # '$(id)' \"", pwned.display());
        let mut hostile = settings(Some("https://auth.example.com"), true);
        let google = hostile
            .oauth_providers
            .get_mut(ProviderKey::GOOGLE)
            .unwrap();
        google.client_id = client_id.clone();
        let script = script(&hostile).unwrap();
        // The assignments, then the value as the shell read it: nothing runs but printf.
        let (assignments, _) = script.split_once("\nprintf 'Registering").unwrap();
        let read = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{assignments}\nprintf '%s' \"$client_id\""))
            .output()
            .unwrap();
        assert!(read.status.success(), "{read:?}");
        assert_eq!(String::from_utf8(read.stdout).unwrap(), client_id);
        assert!(!pwned.exists(), "the client id ran a command");
    }
}
