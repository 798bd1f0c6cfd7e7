//! The common engine: one flow per endpoint (authorize, token, revoke, userinfo, discovery
//! and keys), run for every simulated provider with its dialect and hooks, mounted at the
//! paths the provider serves.

mod authorize;
mod client;
mod discovery;
mod pkce;
mod redirect;
mod revoke;
mod token;
mod token_answer;
mod userinfo;

use userinfo::Carried;
pub use userinfo::gate;

use crate::authorize::AuthorizeQuery;
use crate::dialect::{BodyRule, UserinfoMethod};
use crate::faults::Endpoint;
use crate::flow::Refusal;
use crate::hooks::{Cx, Served};
use crate::log::RequestRecord;
use crate::paths::PathParams;
use crate::state::SimState;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{OriginalUri, Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use std::sync::Arc;

/// Serves one request: logged with what its path says, an injected fault played, the path
/// checked by the provider's hooks, then `run`; logged with its outcome either way.
pub async fn serve<T: IntoResponse>(
    cx: Cx<'_>,
    mut record: RequestRecord,
    run: impl FnOnce(&mut RequestRecord) -> Result<T, Refusal>,
) -> Response {
    cx.hooks().note_path(cx.params, &mut record);
    let endpoint = record.endpoint.unwrap_or(Endpoint::Authorize);
    crate::flow::serve(cx.sim, record, |record| {
        cx.hooks().check_path(&cx, endpoint)?;
        run(record)
    })
    .await
}

/// The refresh grant, for a provider that serves it at a path of its own (WeChat).
pub(crate) use token::refresh as refresh_grant;

/// A token answer's `body` in the dialect's envelope, with its own `Content-Type`.
pub(crate) fn token_answer_of(
    cx: &Cx<'_>,
    body: serde_json::Map<String, serde_json::Value>,
) -> Response {
    token::labelled(cx, cx.dialect.envelope.answer(body, true))
}

type Captures = Option<Path<PathParams>>;
type Shared = State<Arc<SimState>>;

fn captures(path: Captures) -> PathParams {
    path.map(|Path(params)| params).unwrap_or_default()
}

/// Every route of `provider`: the engine's at its served paths (and the dialect's aliases)
/// for the endpoints its dialect describes, then its hooks' own.
pub fn routes(served: Served) -> Router<Arc<SimState>> {
    let (provider, hooks) = served;
    let dialect = provider.dialect();
    let paths = &dialect.paths;
    let mut routes: Vec<(&str, MethodRouter<Arc<SimState>>)> = Vec::new();
    let authorize = get(
        move |State(sim): Shared,
              path: Captures,
              OriginalUri(uri): OriginalUri,
              headers: HeaderMap,
              RawQuery(query): RawQuery| async move {
            let q = AuthorizeQuery::read(query.as_deref(), &dialect.authorize.params);
            authorize::answer(Cx::new(&sim, served, &captures(path)), &uri, &headers, &q).await
        },
    );
    for path in std::iter::once(&paths.authorization).chain(&dialect.aliases.authorize) {
        routes.push((path, authorize.clone()));
    }
    let token = move |State(sim): Shared,
                      path: Captures,
                      RawQuery(query): RawQuery,
                      headers: HeaderMap,
                      body: Bytes| async move {
        token::answer(
            Cx::new(&sim, served, &captures(path)),
            query.as_deref(),
            &headers,
            &body,
        )
        .await
    };
    let token = match dialect.token.body {
        BodyRule::QueryAndForm => get(token).post(token),
        BodyRule::Form | BodyRule::FormOrJson | BodyRule::Json => post(token),
    };
    routes.push((&paths.token, token));
    if let (Some(path), Some(rules)) = (&paths.revocation, &dialect.revoke) {
        let revoke = move |State(sim): Shared, path: Captures, headers: HeaderMap, body: Bytes| async move {
            revoke::answer(
                Cx::new(&sim, served, &captures(path)),
                rules,
                &headers,
                &body,
            )
            .await
        };
        routes.push((path, post(revoke)));
    }
    if let (Some(path), Some(rules)) = (&paths.userinfo, &dialect.userinfo) {
        let userinfo = move |State(sim): Shared,
                             path: Captures,
                             RawQuery(query): RawQuery,
                             headers: HeaderMap,
                             body: Bytes| async move {
            let carried = Carried {
                headers: &headers,
                query: query.as_deref(),
                body: &body,
            };
            userinfo::answer(Cx::new(&sim, served, &captures(path)), rules, carried).await
        };
        let userinfo = match rules.method {
            UserinfoMethod::Get => get(userinfo),
            UserinfoMethod::Post => post(userinfo),
        };
        for path in std::iter::once(path).chain(&dialect.aliases.userinfo) {
            routes.push((path, userinfo.clone()));
        }
        if let (Some(path), Some(emails)) = (&paths.emails, &dialect.emails) {
            let emails = move |State(sim): Shared,
                               path: Captures,
                               RawQuery(query): RawQuery,
                               headers: HeaderMap| async move {
                let carried = Carried {
                    headers: &headers,
                    query: query.as_deref(),
                    body: &[],
                };
                let params = captures(path);
                userinfo::emails(Cx::new(&sim, served, &params), (rules, emails), carried).await
            };
            routes.push((path, get(emails)));
        }
    }
    if let (Some(path), Some(rules)) = (&paths.discovery, &dialect.discovery) {
        let discovery = move |State(sim): Shared, path: Captures, headers: HeaderMap| async move {
            discovery::document(Cx::new(&sim, served, &captures(path)), rules, &headers).await
        };
        routes.push((path, get(discovery)));
    }
    if let Some(path) = &paths.jwks {
        let key_set = move |State(sim): Shared, path: Captures, headers: HeaderMap| async move {
            discovery::key_set(Cx::new(&sim, served, &captures(path)), &headers).await
        };
        routes.push((path, get(key_set)));
    }
    let router = routes
        .into_iter()
        .fold(Router::new(), |router, (path, route)| {
            router.route(path, route)
        });
    router.merge(hooks.routes(paths))
}
