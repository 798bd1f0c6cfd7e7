//! Every command line the deployment files run, and that the CLI accepts each of them.

use crate::{compose, dockerfile, files, kubernetes};
use clap::Parser;
use social_login::cli::{Cli, Command};
use std::path::PathBuf;

/// Where a command comes from, and its argv (binary first).
pub struct Invocation {
    pub origin: String,
    pub argv: Vec<String>,
}

/// The Dockerfile's default command and HEALTHCHECK, compose's `command:` and health checks
/// of the services built from it, the Kubernetes containers running the image, and the
/// systemd unit's `ExecStart…` lines.
pub fn all() -> Vec<Invocation> {
    let mut found = vec![
        Invocation {
            origin: "Dockerfile ENTRYPOINT + CMD".into(),
            argv: dockerfile::default_command(),
        },
        Invocation {
            origin: "Dockerfile HEALTHCHECK".into(),
            argv: dockerfile::healthcheck_command(),
        },
    ];
    let compose = compose::compose();
    for (name, service) in compose::our_services(&compose) {
        found.push(Invocation {
            origin: format!("compose {name}"),
            argv: compose::argv(&name, &service),
        });
        if let Some(test) = service["healthcheck"].get("test") {
            let test = files::strings(test, &format!("compose {name} healthcheck"));
            assert_eq!(
                test.first().map(String::as_str),
                Some("CMD"),
                "compose {name}: the health check is exec form (the image has no shell)"
            );
            found.push(Invocation {
                origin: format!("compose {name} healthcheck"),
                argv: test[1..].to_vec(),
            });
        }
    }
    for (origin, argv) in kubernetes::container_commands() {
        found.push(Invocation { origin, argv });
    }
    for line in files::read("social-login.service").lines() {
        if let Some((key, command)) = line.split_once('=')
            && key.starts_with("ExecStart")
        {
            found.push(Invocation {
                origin: format!("social-login.service {key}"),
                argv: command.split_whitespace().map(str::to_owned).collect(),
            });
        }
    }
    found
}

/// The `--config` each command that reads one names.
pub fn config_path(argv: &[String]) -> Option<PathBuf> {
    match Cli::try_parse_from(argv).ok()?.command {
        Command::Serve(arg) | Command::Migrate(arg) | Command::CheckConfig(arg) => arg.config,
        _ => None,
    }
}

#[test]
fn every_command_the_deployment_runs_is_one_the_cli_accepts() {
    let invocations = all();
    assert!(
        invocations.len() >= 6,
        "Dockerfile, compose and Kubernetes commands were found"
    );
    for Invocation { origin, argv } in &invocations {
        assert_eq!(
            argv.first().map(String::as_str),
            Some("/usr/local/bin/social-login"),
            "{origin} runs the binary the image installs: {argv:?}"
        );
        if let Err(error) = Cli::try_parse_from(argv) {
            panic!("{origin}: {argv:?} is refused by the CLI:\n{error}");
        }
    }
}

#[test]
fn the_services_read_the_configuration_where_it_is_mounted() {
    let expected = PathBuf::from("/etc/social-login/social-login.toml");
    for Invocation { origin, argv } in all() {
        if let Some(path) = config_path(&argv) {
            assert_eq!(path, expected, "{origin}");
        }
    }
    let compose = compose::compose();
    for (name, service) in compose::our_services(&compose) {
        let (_, target) = compose::config_mount(&name, &service);
        assert_eq!(PathBuf::from(target), expected, "compose {name}");
    }
    assert_eq!(kubernetes::mounted_config_path(), expected, "Kubernetes");
}

#[test]
fn the_health_checks_probe_the_port_the_service_listens_on() {
    let mut checked = 0;
    for Invocation { origin, argv } in all() {
        if let Ok(Cli {
            command: Command::Healthcheck(args),
        }) = Cli::try_parse_from(&argv)
        {
            assert_eq!(args.url.port_or_known_default(), Some(8080), "{origin}");
            assert!(
                matches!(args.url.host_str(), Some("127.0.0.1" | "localhost")),
                "{origin}: a container probes itself"
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 2,
        "the Dockerfile and compose health checks were found"
    );
}
