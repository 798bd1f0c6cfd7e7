//! Four steps of the middleware stack as one tower layer, each wrapping the next, outermost
//! first: the request metrics, the request deadline, the body read (outside the rate limit
//! and every handler, so none of them answers an unread body), then the in-flight slot
//! (inside the body read: a request whose body is still arriving holds no slot).
//!
//! As four axum `from_fn` layers they cost three allocations each per request (the boxed
//! future, the boxed `Next`, the boxed future of calling it); as one `from_fn`, three. This
//! layer boxes its future once and calls the next service directly.

use super::{body, in_flight, metrics, request_timeout};
use axum::extract::Request;
use axum::response::Response;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// The layer, with its settings.
#[derive(Debug, Clone)]
pub struct Steps {
    pub request_timeout: Duration,
    pub body: body::BodyLimit,
    pub in_flight: in_flight::InFlight,
}

impl<S> tower::Layer<S> for Steps {
    type Service = StepsService<S>;

    fn layer(&self, inner: S) -> StepsService<S> {
        StepsService {
            inner,
            steps: self.clone(),
        }
    }
}

/// The steps around the service `S`.
#[derive(Debug, Clone)]
pub struct StepsService<S> {
    inner: S,
    steps: Steps,
}

impl<S> tower::Service<Request> for StepsService<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // The service that was polled ready serves this request; a clone takes its place.
        let ready = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, ready);
        let steps = self.steps.clone();
        let body_limit = steps.body.for_path(request.uri().path());
        Box::pin(async move {
            let response = metrics::record(request, |request| {
                request_timeout::limit(steps.request_timeout, request, |request| {
                    body::read_whole(body_limit, request, |request| {
                        in_flight::limit(&steps.in_flight, request, |request| async move {
                            match inner.call(request).await {
                                Ok(response) => response,
                                Err(never) => match never {},
                            }
                        })
                    })
                })
            })
            .await;
            Ok(response)
        })
    }
}
