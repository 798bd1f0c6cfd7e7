//! `social-login demo`: the whole product with no configuration and no credentials.
//! SQLite in a local data directory, the in-process state store, the simulated identity
//! provider on a loopback port with every provider enabled, and a demo page at `/`.

mod page;
mod settings;

use crate::server::{StartupError, build_router, serve_router};
use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;
use tokio::net::TcpListener;

/// Runs the demo until `signal` completes.
pub async fn run(
    bind: SocketAddr,
    data_dir: &Path,
    signal: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    // Bind first: the redirect URIs registered with the simulator carry the real port.
    let listener = TcpListener::bind(bind)
        .await
        .map_err(|source| StartupError::Bind {
            address: bind.to_string(),
            source,
        })?;
    let address = listener.local_addr().map_err(StartupError::Serve)?;
    let base = format!("http://{address}");
    let simulator = social_login_simulator::Simulator::start(settings::simulator_config(&base))
        .await
        .map_err(|error| StartupError::Provider(format!("simulator: {error}")))?;
    let settings = settings::demo_settings(&base, &simulator, data_dir)?;
    let enabled: Vec<_> = settings
        .enabled_providers()
        .map(|(key, _)| key.as_str())
        .collect();
    let router = build_router(&settings).await?.merge(page::routes(&enabled));
    println!("social-login demo is running: open {base}/ in a browser");
    println!(
        "  simulated identity provider: {}  (data: {})",
        simulator.base_url(),
        data_dir.display()
    );
    let result = serve_router(listener, router, signal).await;
    simulator.shutdown().await;
    result
}
