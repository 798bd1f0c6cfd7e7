//! `social-login webhooks dead`: the events given up on, listed (no body, nothing of the
//! request beyond the event's id and type), or put back in the queue.

use crate::cli::args::DeadArgs;
use crate::settings::Settings;
use social_login_app::DeadLetters;
use social_login_domain::AuditEventId;
use social_login_ports::{DeadLetter, SystemClock};
use std::process::ExitCode;
use std::sync::Arc;
use time::format_description::well_known::Rfc3339;

/// Dead letters listed at most (the oldest first); the total is printed after them.
pub const LIST_LIMIT: u64 = 1_000;

pub async fn run(settings: &Settings, args: &DeadArgs) -> ExitCode {
    let repository = match social_login_persistence::open(&settings.database.options()).await {
        Ok(repository) => repository,
        Err(error) => return failed(&error),
    };
    let letters = DeadLetters::new(repository, Arc::new(SystemClock));
    if let Some(id) = args.redeliver {
        return match letters.redeliver(AuditEventId::from_uuid(id)).await {
            Ok(true) => {
                println!("{id}: queued for delivery");
                ExitCode::SUCCESS
            }
            Ok(false) => {
                eprintln!("{id}: no dead letter has this id");
                ExitCode::FAILURE
            }
            Err(error) => failed(&error),
        };
    }
    if args.all {
        return match letters.redeliver_all().await {
            Ok(count) => {
                println!("{count} dead letters queued for delivery");
                ExitCode::SUCCESS
            }
            Err(error) => failed(&error),
        };
    }
    match letters.list(LIST_LIMIT).await {
        Ok((list, counts)) => {
            println!("id\ttype\tcreated_at\tattempts\tdead_at\tlast_error");
            for letter in &list {
                println!("{}", line(letter));
            }
            println!(
                "{} dead letters ({} listed), {} events pending",
                counts.dead,
                list.len(),
                counts.pending
            );
            ExitCode::SUCCESS
        }
        Err(error) => failed(&error),
    }
}

/// One dead letter as a tab-separated line.
fn line(letter: &DeadLetter) -> String {
    let time = |at: time::OffsetDateTime| at.format(&Rfc3339).unwrap_or_default();
    // Our own messages, but kept to one line whatever they hold.
    let error: String = letter
        .last_error
        .as_deref()
        .unwrap_or("-")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}",
        letter.event.id,
        letter.event.kind,
        time(letter.event.created_at),
        letter.attempts,
        time(letter.dead_at),
        error
    )
}

fn failed(error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::FAILURE
}
