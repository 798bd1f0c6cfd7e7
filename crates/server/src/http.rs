//! The HTTP API: routes, shared state and the middleware stack.

pub mod admin;
mod body;
mod client_ip;
mod dto;
pub(crate) mod error;
mod extract;
mod id_token;
mod in_flight;
mod metrics;
mod no_store;
mod oauth;
mod openapi_doc;
mod ops;
pub use ops::Draining;
mod platform;
mod problem_only;
mod rate_limit;
mod relay;
mod request_timeout;
mod signals;
mod steps;
mod traced;
mod users;

pub use client_ip::{ClientIp, TrustedProxies};
pub use error::{ApiError, Problem};
pub use metrics::metrics_handle;
pub use platform::{JWKS_PATH, WellKnown};
pub use traced::TraceParents;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, Request};
use metrics_exporter_prometheus::PrometheusHandle;
use social_login_app::AuthService;
use social_login_domain::ErrorCode;
use social_login_domain::audit::is_sound_request_id;
use social_login_security::AdminKeys;
use std::sync::Arc;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use utoipa::OpenApi;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa_axum::router::OpenApiRouter;

/// What every handler can reach: one `Arc`, so handing it to a request is one atomic
/// increment, not a clone of each part.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The parts of [`AppState`], built once at start-up.
pub struct Shared {
    pub service: Arc<AuthService>,
    pub metrics: PrometheusHandle,
    /// The OpenAPI document, rendered once at start-up.
    pub openapi: axum::body::Bytes,
    /// The access tokens' public keys and issuer, rendered once at start-up.
    pub well_known: WellKnown,
    /// `[server] public_url` + `/auth/oauth/facebook/data-deletion/`: where a data deletion
    /// request's status is served (the code follows). `None` without a `public_url`.
    pub deletion_status_base: Option<String>,
    /// The operator API, when `[admin] api_keys` lists a key.
    pub operator: Option<admin::Operator>,
    /// `[relay] service_keys`: the backends that may relay calls for any user.
    pub relay_keys: AdminKeys,
    /// Set while the service stops: `/readyz` answers 503.
    pub draining: ops::Draining,
}

/// The HTTP knobs of the configuration (docs/configuration.md `[http]`, `[rate_limit]`,
/// `server.trusted_proxies`). The header deadline is the connection's, not the router's
/// (`server::ConnectionOptions`).
#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub max_body_bytes: usize,
    /// Reading the body and handling the request; past it 408 and the connection closes.
    pub request_timeout: std::time::Duration,
    /// Reading the body alone; past it 408 and the connection closes.
    pub body_read_timeout: std::time::Duration,
    /// Requests handled at once, counted once their body is read; more are shed with 503.
    pub max_in_flight: usize,
    pub rate_limit: Option<RateLimit>,
    /// The peers whose `X-Forwarded-For` names the client (for the rate limit and the logs).
    pub trusted_proxies: TrustedProxies,
    /// Where data deletion statuses are served, the code appended: `[server] public_url` +
    /// [`DELETION_STATUS_PATH`]. Never built from the request's `Host`.
    pub deletion_status_base: Option<String>,
    /// `[relay] service_keys`' hashes.
    pub relay_keys: AdminKeys,
    /// With traces exported (`[telemetry]`), each request gets its traced span and these
    /// peers' `traceparent` is continued; `None`: no traced span.
    pub traces: Option<TraceParents>,
    /// What the server sets when it starts to stop.
    pub draining: ops::Draining,
}

/// The path under which a Facebook data deletion request's status is served.
pub const DELETION_STATUS_PATH: &str = "/auth/oauth/facebook/data-deletion/";

/// Per-client-IP limit on the endpoints that need no bearer token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// One request is replenished per period.
    pub period: std::time::Duration,
    pub burst: u32,
    /// IPv6 clients share a bucket per network of this many leading bits.
    pub ipv6_prefix: u8,
}

#[derive(OpenApi)]
#[openapi(
    info(title = "social-login", description = "Sign-in, registration and account linking through eight built-in identity providers and any OpenID Connect or OAuth 2.0 provider from configuration."),
    modifiers(&BearerAuth),
)]
struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
        // The operator API's own scheme: an admin key from `[admin] api_keys`, never a
        // user's access token.
        components.add_security_scheme(
            "admin_key",
            SecurityScheme::Http(
                utoipa::openapi::security::HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An admin key (`social-login gen-admin-key`) whose hash is in \
                         `[admin] api_keys`. The /admin routes exist only when one is configured.",
                    ))
                    .build(),
            ),
        );
    }
}

pub(crate) const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Builds the whole application; `well_known` publishes the keys of `service`'s access
/// tokens. Serve it with
/// `into_make_service_with_connect_info::<SocketAddr>()`: the client IP (rate limit, logs)
/// starts from the peer address. Without it every request's client is `0.0.0.0`.
pub fn router(service: Arc<AuthService>, well_known: WellKnown, options: HttpOptions) -> Router {
    router_with_operator(service, well_known, options, None)
}

/// [`router`], with the operator API when `operator` is given. Its routes are documented
/// in `/openapi.json` either way; without an operator they do not exist (404).
pub fn router_with_operator(
    service: Arc<AuthService>,
    well_known: WellKnown,
    options: HttpOptions,
    operator: Option<admin::Operator>,
) -> Router {
    routers(
        service,
        well_known,
        options,
        operator,
        AdminRoutes::OnTheApi,
    )
    .api
}

/// Where the operator API's routes are served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminRoutes {
    /// With every other route.
    OnTheApi,
    /// On a router of their own (`[admin] bind`), and nowhere on the public one.
    Apart,
}

/// The public router, and the operator API's own when it is served apart.
pub struct Routers {
    pub api: Router,
    pub admin: Option<Router>,
}

/// Builds the routers: one per resource, composed here, with the same state and the same
/// stack of layers (client IP, deadlines, limits, problem bodies) on each served router.
pub fn routers(
    service: Arc<AuthService>,
    well_known: WellKnown,
    options: HttpOptions,
    operator: Option<admin::Operator>,
    admin_routes: AdminRoutes,
) -> Routers {
    let limit = rate_limit::Limit::new(options.rate_limit);
    let (api, mut openapi) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(oauth::routes(&limit))
        .merge(users::routes(&limit))
        .merge(signals::routes(&limit))
        .merge(platform::routes())
        .merge(ops::routes())
        .split_for_parts();
    // The relay is documented either way; served only when it is on, so that with it off
    // every `/relay/...` is the fallback's 404, before any bearer is looked at.
    let (relay_api, relay_openapi) = relay::routes().split_for_parts();
    openapi.merge(relay_openapi);
    let relay_on = service.policy().relay.enabled;
    let api = if relay_on { api.merge(relay_api) } else { api };
    // The operator API is documented either way; served only with an operator.
    let (admin_api, admin_openapi) = admin::routes().split_for_parts();
    openapi.merge(admin_openapi);
    let (api, admin) = match (&operator, admin_routes) {
        (None, _) => (api, None),
        (Some(_), AdminRoutes::OnTheApi) => (api.merge(admin_api), None),
        (Some(_), AdminRoutes::Apart) => (api, Some(admin_api)),
    };
    let openapi = openapi_doc::render(&openapi);
    let state = AppState(Arc::new(Shared {
        service,
        metrics: metrics_handle(),
        openapi: axum::body::Bytes::from(openapi),
        well_known,
        deletion_status_base: options.deletion_status_base.clone(),
        operator,
        relay_keys: options.relay_keys.clone(),
        draining: options.draining.clone(),
    }));
    serve(api, admin, state, &options, relay_on)
}

/// Gives each router the state, the fallbacks and a stack of layers of its own: the
/// operator's listener has its own in-flight slots, so a flood of the public one cannot shed
/// support's requests. One `layer` call for the whole stack: each `Router::layer` boxes every
/// route again, and a boxed route is cloned (one allocation per box inside it) on every
/// request, so eleven separate calls cost about a hundred allocations a request.
/// `ServiceBuilder` lists the outermost layer first.
fn serve(
    api: Router<AppState>,
    admin: Option<Router<AppState>>,
    state: AppState,
    options: &HttpOptions,
    relay_on: bool,
) -> Routers {
    let stack = || {
        tower::ServiceBuilder::new()
            .layer(tower::util::MapRequestLayer::new(unless_sound_request_id))
            .layer(SetRequestIdLayer::new(REQUEST_ID, RequestUuid))
            // Outside the trace layer, so the span and the rate limit both see the client IP.
            .layer(client_ip::layer(options.trusted_proxies.clone()))
            .layer(
                // The span carries method, path, request id and client IP; never headers or
                // bodies, which hold tokens and codes.
                TraceLayer::new_for_http()
                    .make_span_with(request_span)
                    // One access-log line per request: status and latency.
                    .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
            )
            .option_layer(
                options
                    .traces
                    .clone()
                    .map(|parents| axum::middleware::from_fn_with_state(parents, traced::traced)),
            )
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            // Outside the steps, so their own answers (408, 413, 503) are not stored either;
            // the metrics only read the status.
            .layer(tower::util::MapResponseLayer::new(
                no_store::unless_cacheable,
            ))
            .layer(steps::Steps {
                request_timeout: options.request_timeout,
                body: body::BodyLimit {
                    relay: relay_on,
                    max_bytes: options.max_body_bytes,
                    read_timeout: options.body_read_timeout,
                },
                in_flight: in_flight::InFlight::new(options.max_in_flight),
            })
            .layer(DefaultBodyLimit::max(options.max_body_bytes))
            .layer(tower::util::MapResponseLayer::new(
                problem_only::ensure_problem,
            ))
    };
    let finish = |routes: Router<AppState>| {
        routes
            .with_state(state.clone())
            .fallback(|| async { ApiError::of(ErrorCode::NotFound) })
            .method_not_allowed_fallback(|| async { ApiError::of(ErrorCode::MethodNotAllowed) })
            .layer(stack())
    };
    Routers {
        api: finish(api),
        admin: admin.map(finish),
    }
}

/// What the stack guarantees of every answer, for routes served beside the API's but built
/// apart (the demo's page and buttons): an error is a problem body, and an answer that
/// chose no caching of its own is `no-store`.
#[cfg(feature = "demo")]
pub fn with_answer_rules(routes: Router) -> Router {
    routes
        .layer(tower::util::MapResponseLayer::new(
            problem_only::ensure_problem,
        ))
        .layer(tower::util::MapResponseLayer::new(
            no_store::unless_cacheable,
        ))
}

/// The request's span: method, path, request id and client IP.
fn request_span<B>(request: &Request<B>) -> tracing::Span {
    let request_id = request
        .headers()
        .get(REQUEST_ID)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("-");
    let client_ip = request
        .extensions()
        .get::<ClientIp>()
        .copied()
        .unwrap_or(ClientIp::UNKNOWN);
    // A relayed path may name the person (`users/ada`): only its provider is logged.
    let path = request.uri().path();
    let path = match path.strip_prefix(relay::RELAY_PREFIX) {
        Some(rest) => &path[..relay::RELAY_PREFIX.len() + rest.find('/').unwrap_or(rest.len())],
        None => path,
    };
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %path,
        request_id,
        client_ip = %client_ip,
    )
}

/// `request` without the client's `X-Request-Id` when it is not one the service keeps as it
/// is (at most 64 visible ASCII characters): a fresh id replaces it, so a client cannot
/// make every log line of its request carry kilobytes of its choosing.
fn unless_sound_request_id<B>(mut request: Request<B>) -> Request<B> {
    let given = request.headers().get_all(REQUEST_ID);
    if !given
        .iter()
        .all(|value| is_sound_request_id(value.as_bytes()))
    {
        request.headers_mut().remove(REQUEST_ID);
    }
    request
}

/// A random (v4) UUID for a request without an `X-Request-Id`, as tower-http's
/// `MakeRequestUuid` makes, written on the stack rather than into a `String` first.
#[derive(Debug, Clone, Copy)]
struct RequestUuid;

impl MakeRequestId for RequestUuid {
    fn make_request_id<B>(&mut self, _request: &Request<B>) -> Option<RequestId> {
        let mut text = [0; uuid::fmt::Hyphenated::LENGTH];
        let text = uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
        axum::http::HeaderValue::from_str(text)
            .ok()
            .map(RequestId::new)
    }
}
