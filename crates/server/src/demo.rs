//! `social-login demo`: the whole product with no configuration and no credentials.
//! SQLite in a local data directory, the in-process state store, the simulated identity
//! provider on a loopback port with every provider enabled, and a demo page at `/`.

mod page;
mod settings;
mod signals;

use crate::server::{
    Background, ConnectionOptions, Listeners, StartupError, build_routers_serving, listen,
};
use social_login_simulator::SimulatorHandle;
use std::future::Future;
use std::net::SocketAddr;
use std::path::Path;

/// A demo running in the background.
pub struct RunningDemo {
    url: String,
    /// A key of the operator API, new each start: the Support panel asks for it.
    admin_key: String,
    simulator: SimulatorHandle,
    serving: Background,
}

impl RunningDemo {
    /// `http://127.0.0.1:<port>`, the page to open.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The admin key this run accepts (its hash is the only one configured).
    pub fn admin_key(&self) -> &str {
        &self.admin_key
    }

    pub fn simulator_url(&self) -> &str {
        self.simulator.base_url()
    }

    /// Drains the demo server, then stops the simulator.
    pub async fn stop(self) -> Result<(), StartupError> {
        let served = self.serving.stop().await;
        self.simulator.shutdown().await;
        served
    }
}

/// Binds `bind` (port 0 picks one), starts the simulator and the service, serves in the
/// background.
pub async fn start(bind: SocketAddr, data_dir: &Path) -> Result<RunningDemo, StartupError> {
    // Bind first: the redirect URIs registered with the simulator carry the real port.
    let listener = listen(&bind.to_string()).await?;
    let address = listener.local_addr().map_err(StartupError::Serve)?;
    let url = format!("http://{address}");
    let simulator = social_login_simulator::Simulator::start(settings::simulator_config(&url))
        .await
        .map_err(|error| StartupError::Provider(format!("simulator: {error}")))?;
    let mut settings = settings::demo_settings(&url, &simulator, data_dir)?;
    // Never stored: a new key each run, printed for whoever started the demo.
    let (admin_key, admin_hash) = social_login_security::generate_admin_key();
    settings.admin.api_keys = vec![admin_hash.to_string()];
    let draining = crate::http::Draining::default();
    let (routers, service) = build_routers_serving(&settings, &draining).await?;
    let router = routers.api;
    let signals = signals::DemoSignals {
        service,
        simulator_url: simulator.base_url().to_owned(),
        service_url: url.clone(),
        http: reqwest::Client::new(),
    };
    let own = page::routes().merge(signals::routes(signals));
    let router = router.merge(crate::http::with_answer_rules(own));
    let options = ConnectionOptions::from(&settings);
    Ok(RunningDemo {
        url,
        admin_key,
        simulator,
        serving: Background::spawn(
            Listeners {
                api: (listener, router),
                admin: None,
                draining,
            },
            options,
        ),
    })
}

/// `social-login demo`: runs until `signal` completes.
pub async fn run(
    bind: SocketAddr,
    data_dir: &Path,
    signal: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    if let Some(warning) = exposure_warning(bind) {
        eprintln!("{warning}");
    }
    let demo = start(bind, data_dir).await?;
    println!(
        "social-login demo is running: open {}/ in a browser",
        demo.url()
    );
    println!(
        "  simulated identity provider: {}  (data: {})",
        demo.simulator_url(),
        data_dir.display()
    );
    println!(
        "  admin key (the page's Support panel, and /admin/...): {}",
        demo.admin_key()
    );
    signal.await;
    demo.stop().await
}

/// A loud warning when the demo listens beyond this machine: anyone who can reach it signs
/// in as any simulated identity, and its simulated Apple key is public.
pub fn exposure_warning(bind: SocketAddr) -> Option<String> {
    (!bind.ip().is_loopback()).then(|| {
        format!(
            "WARNING: the demo listens on {bind}, reachable from other machines. It signs \
             anyone in as any simulated identity and is not a secure service: bind it to \
             127.0.0.1 unless you know why not."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::exposure_warning;

    #[test]
    fn only_a_loopback_bind_goes_without_a_warning() {
        assert!(exposure_warning("127.0.0.1:8080".parse().unwrap()).is_none());
        assert!(exposure_warning("[::1]:8080".parse().unwrap()).is_none());
        let warning = exposure_warning("0.0.0.0:8080".parse().unwrap()).unwrap();
        assert!(warning.starts_with("WARNING") && warning.contains("0.0.0.0:8080"));
        assert!(exposure_warning("192.168.1.5:80".parse().unwrap()).is_some());
    }
}
