//! The relay's scenarios: the same call to the simulated GitHub API made directly with the
//! provider's token (the baseline) and through the service's relay with the user's own
//! token, so the difference is what the relay adds; and many large answers streamed at
//! once, for the service's memory.

use crate::flows::Flows;

/// What the relay scenarios call, prepared by one login of a user of their own.
pub struct RelayTarget {
    /// The service's access token of that user: what a relayed call sends.
    pub bearer: String,
    /// The provider's access token the service stored for that user: what a direct call
    /// sends (the benchmark reads it off the simulator, which a real client never could).
    pub provider_token: String,
    /// `GET /me` at the simulated API, and the same through the first instance's relay.
    pub direct_url: String,
    pub relay_url: String,
    /// `bytes?n=…`, the large answer, through the relay.
    pub relay_stream_url: String,
}

impl RelayTarget {
    /// Logs `user_id` in and reads the provider token the simulator issued for it last.
    pub async fn prepare(
        flows: &Flows,
        api_base: &str,
        user_id: &str,
        issued: impl Fn() -> Vec<String>,
        stream_bytes: u64,
    ) -> Result<Self, String> {
        let login = flows
            .logged_in(0, user_id)
            .await
            .ok_or("the relay user's login failed")?;
        let login: serde_json::Value = login.json().await.map_err(|error| error.to_string())?;
        let bearer = login["access_token"]
            .as_str()
            .ok_or("the login answered no access token")?
            .to_owned();
        let provider_token = issued()
            .pop()
            .ok_or("the simulator issued no access token")?;
        let relay = format!("{}/relay/github/", flows.bases[0]);
        let stream = format!("bytes?n={stream_bytes}");
        Ok(Self {
            bearer,
            provider_token,
            direct_url: format!("{api_base}me"),
            relay_url: format!("{relay}me"),
            relay_stream_url: format!("{relay}{stream}"),
        })
    }
}
