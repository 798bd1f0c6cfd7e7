//! Starting and stopping the HTTP server: migrate, bind, serve, shut down gracefully.

mod connections;
mod head_errors;
mod per_ip;

pub use crate::startup_error::StartupError;
pub use connections::ConnectionOptions;

use crate::housekeeping;
use crate::http::{self, HttpOptions, RateLimit, TraceParents, TrustedProxies};
use crate::settings::Settings;
use crate::wiring::wire;
use std::future::Future;
use std::net::SocketAddr;
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

/// `social-login migrate`.
pub async fn migrate(settings: &Settings) -> Result<(), StartupError> {
    let repository = social_login_persistence::connect(&settings.database.options())
        .await
        .map_err(|error| StartupError::Database(error.to_string()))?;
    repository
        .migrate()
        .await
        .map_err(|error| StartupError::Database(error.to_string()))?;
    tracing::info!("migrations applied");
    Ok(())
}

/// A server running in the background (tests, the demo).
pub struct RunningServer {
    address: SocketAddr,
    /// The operator API's own listener (`[admin] bind`).
    admin_address: Option<SocketAddr>,
    serving: Background,
}

/// What one process serves: the public router on its listener and, with `[admin] bind`,
/// the operator API on a listener of its own.
pub(crate) struct Listeners {
    pub api: (TcpListener, axum::Router),
    pub admin: Option<(TcpListener, axum::Router)>,
    /// What `/readyz` of these routers reads; set when they start to stop.
    pub draining: http::Draining,
}

/// Routers served in a task of their own until [`Background::stop`].
pub(crate) struct Background {
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<Result<(), StartupError>>,
}

impl Background {
    /// Serves `listeners` in the background.
    pub(crate) fn spawn(listeners: Listeners, options: ConnectionOptions) -> Self {
        let (shutdown, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(serve_listeners(listeners, options, async {
            let _ = stopped.await;
        }));
        Self { shutdown, task }
    }

    /// Stops accepting, lets requests in flight finish, and waits.
    pub(crate) async fn stop(self) -> Result<(), StartupError> {
        let _ = self.shutdown.send(());
        self.task
            .await
            .map_err(|join| StartupError::Serve(std::io::Error::other(join)))?
    }
}

impl RunningServer {
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Where the operator API answers when `[admin] bind` gives it a listener of its own.
    pub fn admin_address(&self) -> Option<SocketAddr> {
        self.admin_address
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Stops accepting, lets requests in flight finish, and waits.
    pub async fn stop(self) -> Result<(), StartupError> {
        self.serving.stop().await
    }
}

/// Migrates, binds `server.bind` (port 0 picks a free port) and serves in the background.
pub async fn start(settings: &Settings) -> Result<RunningServer, StartupError> {
    let listeners = prepare(settings).await?;
    let address = local_address(&listeners.api.0)?;
    let admin_address = listeners
        .admin
        .as_ref()
        .map(|(listener, _)| local_address(listener))
        .transpose()?;
    let options = ConnectionOptions::from(settings);
    let serving = Background::spawn(listeners, options);
    Ok(RunningServer {
        address,
        admin_address,
        serving,
    })
}

fn local_address(listener: &TcpListener) -> Result<SocketAddr, StartupError> {
    listener.local_addr().map_err(StartupError::Serve)
}

/// `social-login serve`: runs until `signal` completes, then drains and returns.
pub async fn serve(
    settings: &Settings,
    signal: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    for warning in settings.warnings() {
        tracing::warn!(warning, "configuration");
    }
    let listeners = prepare(settings).await?;
    let address = local_address(&listeners.api.0)?;
    tracing::info!(%address, "social-login listening");
    if let Some((admin, _)) = &listeners.admin {
        let address = local_address(admin)?;
        tracing::info!(%address, "operator API listening");
    }
    let options = ConnectionOptions::from(settings);
    serve_listeners(listeners, options, signal).await?;
    tracing::info!("social-login stopped");
    Ok(())
}

async fn prepare(settings: &Settings) -> Result<Listeners, StartupError> {
    let draining = http::Draining::default();
    let (routers, _) = build_routers_serving(settings, &draining).await?;
    let api = (listen(&settings.server.bind).await?, routers.api);
    let admin = match (routers.admin, &settings.admin.bind) {
        (Some(router), Some(bind)) => Some((listen(bind).await?, router)),
        _ => None,
    };
    Ok(Listeners {
        api,
        admin,
        draining,
    })
}

/// Binds `address` (port 0 picks a free port); a failure names the address.
pub(crate) async fn listen(address: &str) -> Result<TcpListener, StartupError> {
    TcpListener::bind(address)
        .await
        .map_err(|source| StartupError::Bind {
            address: address.to_owned(),
            source,
        })
}

/// Validates, wires, migrates and builds the HTTP app, without binding anything: the
/// public router (with `[admin] bind`, the operator API is not on it).
pub async fn build_router(settings: &Settings) -> Result<axum::Router, StartupError> {
    build_routers_serving(settings, &http::Draining::default())
        .await
        .map(|(routers, _)| routers.api)
}

/// [`build_router`]'s routers, and the service they serve: the demo's page acts for the
/// person signed in to it (which of their provider accounts a simulated signal is about).
pub(crate) async fn build_routers_serving(
    settings: &Settings,
    draining: &http::Draining,
) -> Result<(http::Routers, std::sync::Arc<social_login_app::AuthService>), StartupError> {
    // Whoever embeds the server gets the same guarantee as the CLI: never half-configured.
    settings
        .validate_for_this_build()
        .map_err(StartupError::Config)?;
    let wired = wire(settings).await?;
    wired
        .repository
        .migrate()
        .await
        .map_err(|error| StartupError::Database(error.to_string()))?;
    let options = HttpOptions {
        max_body_bytes: settings.http.max_body_bytes,
        request_timeout: settings.http.request_timeout(),
        body_read_timeout: settings.http.body_read_timeout(),
        max_in_flight: settings.http.max_in_flight,
        trusted_proxies: TrustedProxies::new(settings.server.trusted_proxy_networks()),
        rate_limit: settings.rate_limit.enabled.then_some(RateLimit {
            period: settings.rate_limit.replenish_interval(),
            burst: settings.rate_limit.burst,
            ipv6_prefix: settings.rate_limit.ipv6_prefix,
        }),
        deletion_status_base: settings.server.public_url_for(http::DELETION_STATUS_PATH),
        relay_keys: settings.relay.service_keys(),
        traces: settings.telemetry.otlp_endpoint.as_ref().map(|_| {
            TraceParents(TrustedProxies::new(
                settings.telemetry.traceparent_networks(),
            ))
        }),
        draining: draining.clone(),
    };
    let outbox: std::sync::Arc<dyn social_login_ports::WebhookOutbox> = wired.repository.clone();
    let service = std::sync::Arc::new(wired.service);
    housekeeping::spawn(
        std::sync::Arc::downgrade(&service),
        housekeeping::PRUNE_EVERY,
        std::sync::Arc::downgrade(&outbox),
    );
    if let Some(delivery) = wired.webhooks {
        crate::webhook_delivery::spawn(std::sync::Arc::downgrade(&service), delivery);
    }
    wired.undiscovered.spawn();
    let admin_routes = match settings.admin.bind {
        Some(_) => http::AdminRoutes::Apart,
        None => http::AdminRoutes::OnTheApi,
    };
    let routers = http::routers(
        service.clone(),
        wired.well_known,
        options,
        wired.operator,
        admin_routes,
    );
    Ok((routers, service))
}

/// Serves every listener until `signal` completes, then drains them all.
async fn serve_listeners(
    listeners: Listeners,
    options: ConnectionOptions,
    signal: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    let (stop, stopped) = watch::channel(false);
    let (draining, delay) = (listeners.draining, options.shutdown_delay);
    tokio::spawn(async move {
        signal.await;
        // Unready first, still serving: the balancer stops sending before the door closes.
        draining.set();
        tokio::time::sleep(delay).await;
        let _ = stop.send(true);
    });
    let stopping = |mut stopped: watch::Receiver<bool>| async move {
        // A dropped sender stops the listeners too.
        let _ = stopped.wait_for(|stop| *stop).await;
    };
    let (listener, router) = listeners.api;
    let api = serve_router(listener, router, options.clone(), stopping(stopped.clone()));
    match listeners.admin {
        Some((listener, router)) => {
            let admin = serve_router(listener, router, options, stopping(stopped));
            let (api, admin) = tokio::join!(api, admin);
            api.and(admin)
        }
        None => api.await,
    }
}

/// Serves `router` on `listener` until `signal` completes, then drains. Each request sees
/// its peer as `ConnectInfo<SocketAddr>`.
pub async fn serve_router(
    listener: TcpListener,
    router: axum::Router,
    options: ConnectionOptions,
    signal: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StartupError> {
    connections::serve(listener, router, options, signal).await;
    Ok(())
}

/// Completes on Ctrl-C or SIGTERM (what container runtimes send).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received; draining");
}
