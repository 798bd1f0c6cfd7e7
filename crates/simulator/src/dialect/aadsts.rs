//! Microsoft's error envelope: `error`, an `error_description` starting with the AADSTS
//! code, `error_codes`, `timestamp`, `trace_id`, `correlation_id` and `error_uri`.

use super::ErrorSpec;
use crate::flow::{Refusal, unix_now};
use crate::random;
use axum::Json;
use axum::http::StatusCode;
use serde_json::json;

/// The JSON error response, as Microsoft's token endpoint sends it.
pub fn refusal(error: &ErrorSpec) -> Refusal {
    let code = error.code.unwrap_or_default();
    let message = error.description.as_deref().unwrap_or_default();
    let trace_id = guid();
    let correlation_id = guid();
    let timestamp = timestamp(unix_now());
    let description = format!(
        "AADSTS{code}: {message} Trace ID: {trace_id} Correlation ID: {correlation_id} Timestamp: {timestamp}"
    );
    let body = json!({
        "error": error.error,
        "error_description": description,
        "error_codes": [code],
        "timestamp": timestamp,
        "trace_id": trace_id,
        "correlation_id": correlation_id,
        "error_uri": format!("https://login.microsoftonline.com/error?code={code}"),
    });
    let status = StatusCode::from_u16(error.status).unwrap_or(StatusCode::BAD_REQUEST);
    Refusal::new(&error.error, (status, Json(body)))
}

fn guid() -> String {
    let hex = random::hex(32);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// `YYYY-MM-DD HH:MM:SSZ`, Microsoft's format, from seconds since the epoch (UTC).
fn timestamp(unix: i64) -> String {
    let (days, seconds) = (unix.div_euclid(86_400), unix.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}Z",
        seconds / 3600,
        seconds % 3600 / 60,
        seconds % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), so the simulator needs no date library.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_in_microsofts_format() {
        assert_eq!(timestamp(0), "1970-01-01 00:00:00Z");
        assert_eq!(timestamp(1_767_225_600), "2026-01-01 00:00:00Z");
        assert_eq!(timestamp(1_709_210_096), "2024-02-29 12:34:56Z");
    }
}
