//! Every path the deployment probes is answered 200 by the real server (SQLite, in-process
//! state store: what is under test is the router, not the databases).

use crate::{commands, kubernetes};
use clap::Parser;
use social_login::cli::{Cli, Command};
use social_login::server::{RunningServer, start};
use social_login::settings::Settings;
use tempfile::TempDir;

/// The real server on a free loopback port, on SQLite in a temp dir.
pub async fn start_server() -> (RunningServer, TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut settings = Settings::with_secret_key(social_login_security::generate_secret_key());
    settings.server.bind = "127.0.0.1:0".into();
    settings.database.url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("social-login.db").display()
    );
    let server = start(&settings).await.expect("the server starts");
    (server, dir)
}

/// The Deployment's httpGet probes and the paths of every `healthcheck --url`.
fn probed_paths() -> Vec<(String, String)> {
    let mut paths: Vec<(String, String)> = kubernetes::probes()
        .into_iter()
        .map(|(probe, path, _)| (format!("Kubernetes {probe}"), path))
        .collect();
    for invocation in commands::all() {
        if let Ok(Cli {
            command: Command::Healthcheck(args),
        }) = Cli::try_parse_from(&invocation.argv)
        {
            paths.push((invocation.origin, args.url.path().to_owned()));
        }
    }
    paths
}

#[tokio::test]
async fn every_probed_path_is_answered_200_by_the_real_server() {
    let paths = probed_paths();
    assert!(paths.len() >= 4, "probes were found: {paths:?}");
    let (server, _dir) = start_server().await;
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for (origin, path) in &paths {
        let status = http
            .get(format!("{}{path}", server.url()))
            .send()
            .await
            .unwrap_or_else(|error| panic!("{origin}: GET {path}: {error}"))
            .status();
        assert_eq!(status, reqwest::StatusCode::OK, "{origin}: GET {path}");
    }
    server.stop().await.unwrap();
}
