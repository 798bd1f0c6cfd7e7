//! Where the test webhook receivers listen: a `POST /hooks` route on a loopback port of its
//! own. Shared by the test binaries that receive the service's webhooks.

use axum::http::HeaderMap;
use axum::routing::MethodRouter;

/// Serves `hooks` (a handler with its state) at `/hooks` on 127.0.0.1; the URL to post to.
pub async fn serve_hooks(hooks: MethodRouter) -> String {
    let router = axum::Router::new().route("/hooks", hooks);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// The value of the header `name` as text; empty when missing or not text.
pub fn header(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}
