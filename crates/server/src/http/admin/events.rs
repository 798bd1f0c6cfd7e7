//! `GET /admin/events` (docs/api.md#audit-trail): the audit trail as a query, a page at a
//! time by event id; with `Accept: application/x-ndjson` the whole selection streams as one
//! event per line, read a page at a time, so memory stays bounded whatever its size.

use super::{AdminCaller, query};
use crate::http::error::{ApiError, Problem, ProblemAt};
use axum::Json;
use axum::body::Body;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::{Stream, StreamExt};
use serde::{Deserialize, Serialize};
use social_login_app::AppResult;
use social_login_domain::event_query::{EventPageLimit, EventQuery};
use social_login_domain::{AuditEvent, AuditEventId, AuditEventType, UserId};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utoipa::{IntoParams, ToSchema};

/// The media type of the streamed answer.
const NDJSON: &str = "application/x-ndjson";

/// `GET /admin/events`'s query; every field optional.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only this user's events.
    user_id: Option<String>,
    /// Only events of this type (`user.login`, …).
    r#type: Option<String>,
    /// RFC 3339: at or after.
    since: Option<String>,
    /// RFC 3339: before.
    until: Option<String>,
    /// 1 to 1000 (default 100); ignored by the NDJSON stream, which sends everything.
    limit: Option<u64>,
    /// The previous page's `next_cursor`.
    cursor: Option<String>,
}

impl EventsQuery {
    fn parse(self) -> Result<EventQuery, ApiError> {
        let time = |field: &str, text: Option<String>| {
            text.map(|text| OffsetDateTime::parse(&text, &Rfc3339))
                .transpose()
                .map_err(|_| ApiError::validation(format!("{field}: an RFC 3339 time")))
        };
        let limit = match self.limit {
            None => EventPageLimit::DEFAULT,
            Some(limit) => EventPageLimit::new(limit).ok_or_else(|| {
                let max = EventPageLimit::MAX.get();
                ApiError::validation(format!("limit: 1 to {max}"))
            })?,
        };
        Ok(EventQuery {
            user: self
                .user_id
                .map(|id| id.parse::<UserId>())
                .transpose()
                .map_err(|_| ApiError::validation("user_id: a user id"))?,
            kind: self
                .r#type
                .map(|kind| kind.parse::<AuditEventType>())
                .transpose()
                .map_err(|_| ApiError::validation("type: an event type"))?,
            since: time("since", self.since)?,
            until: time("until", self.until)?,
            before: self
                .cursor
                .map(|cursor| cursor.parse::<AuditEventId>())
                .transpose()
                .map_err(|_| ApiError::validation("cursor: a next_cursor this API gave"))?,
            limit,
        })
    }
}

/// One event as support sees it: whose, and who acted.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminEventRead {
    pub id: String,
    pub r#type: &'static str,
    pub user_id: String,
    pub provider: Option<String>,
    pub ip: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// The admin key's id when support acted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
}

impl From<&AuditEvent> for AdminEventRead {
    fn from(event: &AuditEvent) -> Self {
        Self {
            id: event.id.to_string(),
            r#type: event.kind.as_str(),
            user_id: event.user_id.to_string(),
            provider: event.provider.map(|provider| provider.to_string()),
            ip: event.origin.ip.map(|ip| ip.to_string()),
            created_at: event.created_at.format(&Rfc3339).unwrap_or_default(),
            key_id: event.origin.admin().map(|key| key.to_string()),
            via: event.origin.how().map(|via| via.as_str()),
        }
    }
}

/// A page of events, and where the next begins (`null`: this was the last).
#[derive(Debug, Serialize, ToSchema)]
pub struct EventPage {
    pub events: Vec<AdminEventRead>,
    pub next_cursor: Option<String>,
}

/// The audit trail: events newest first, filtered, a page at a time; or, with `Accept:
/// application/x-ndjson`, every selected event as a stream of lines.
#[utoipa::path(get, path = "/admin/events", tag = "admin",
    operation_id = "admin_events",
    params(EventsQuery),
    responses((status = 200, body = EventPage,
            description = "a page; application/x-ndjson: every selected event, one per line"),
        ProblemAt<401>,
        (status = 422, body = Problem, content_type = "application/problem+json",
            description = "ValidationError: a field that does not parse")),
    security(("admin_key" = [])))]
pub async fn events(
    AdminCaller(operator, origin): AdminCaller,
    headers: HeaderMap,
    events: Result<Query<EventsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let selection = query(events)?.parse()?;
    let streamed = headers
        .get(header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains(NDJSON));
    if streamed {
        let pages = operator.service.event_pages(selection, &origin).await?;
        return Ok(ndjson(pages));
    }
    let page = operator.service.events(selection, &origin).await?;
    let next_cursor = selection.next_cursor(&page).map(|last| last.to_string());
    let events = page.iter().map(AdminEventRead::from).collect();
    Ok(Json(EventPage {
        events,
        next_cursor,
    })
    .into_response())
}

/// The events of `pages`, one JSON line each, a page written at a time.
fn ndjson(pages: impl Stream<Item = AppResult<Vec<AuditEvent>>> + Send + 'static) -> Response {
    let lines = pages.map(|page| {
        let page = page.map_err(|error| {
            tracing::warn!(%error, "the event stream stopped");
            std::io::Error::other(error.to_string())
        })?;
        let mut lines = Vec::new();
        for event in &page {
            serde_json::to_writer(&mut lines, &AdminEventRead::from(event))
                .expect("an event serialises");
            lines.push(b'\n');
        }
        Ok::<_, std::io::Error>(lines)
    });
    let mut response = Body::from_stream(lines).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    response
}
