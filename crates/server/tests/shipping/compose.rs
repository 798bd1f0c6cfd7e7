//! `deploy/compose.yaml` and `deploy/nginx/nginx.conf`: two instances behind nginx that
//! wait for the migration job, secrets only from the environment, nginx trusted as proxy.

use crate::files;
use serde_json::Value;
use social_login::settings::Settings;

pub const FILE: &str = "compose.yaml";

pub fn compose() -> Value {
    let mut documents = files::yaml_documents(FILE);
    assert_eq!(documents.len(), 1, "{FILE} is one document");
    documents.remove(0)
}

fn services(compose: &Value) -> &serde_json::Map<String, Value> {
    compose["services"]
        .as_object()
        .expect("compose.yaml has services")
}

/// The services built from `deploy/Dockerfile`: the instances and the migration job.
pub fn our_services(compose: &Value) -> Vec<(String, Value)> {
    services(compose)
        .iter()
        .filter(|(_, service)| {
            service["build"]["dockerfile"]
                .as_str()
                .is_some_and(|file| file.ends_with("deploy/Dockerfile"))
        })
        .map(|(name, service)| (name.clone(), service.clone()))
        .collect()
}

/// The argv a service of our image runs: the image's ENTRYPOINT, then `command:`.
pub fn argv(name: &str, service: &Value) -> Vec<String> {
    let mut argv = crate::dockerfile::entrypoint();
    match service.get("command") {
        Some(command) => argv.extend(files::strings(command, &format!("{name}.command"))),
        None => argv.extend(crate::dockerfile::default_command().into_iter().skip(1)),
    }
    argv
}

/// The services that serve the API (`command: serve …`).
pub fn instances(compose: &Value) -> Vec<(String, Value)> {
    our_services(compose)
        .into_iter()
        .filter(|(name, service)| argv(name, service).get(1).map(String::as_str) == Some("serve"))
        .collect()
}

/// The variables an operator exports before `docker compose up`, with realistic values.
pub fn operator_variables() -> Vec<(&'static str, String)> {
    vec![
        ("SOCIAL_LOGIN_SECRET_KEY", files::generated_secret_key()),
        ("POSTGRES_PASSWORD", files::generated_secret_key()),
        ("GITHUB_CLIENT_ID", "Iv1.0123456789abcdef".to_owned()),
        (
            "GITHUB_CLIENT_SECRET",
            "deploy-test-github-client-secret".to_owned(),
        ),
    ]
}

/// The environment compose gives `service`, `${…}` replaced from `variables`.
pub fn environment(
    name: &str,
    service: &Value,
    variables: &[(&str, String)],
) -> Vec<(String, String)> {
    let pairs: Vec<(String, String)> = match service.get("environment") {
        None => Vec::new(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(key, value)| {
                let value = match value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                (key.clone(), value)
            })
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(|item| {
                let (key, value) = item.split_once('=').unwrap_or((item, ""));
                (key.to_owned(), value.to_owned())
            })
            .collect(),
        Some(other) => panic!("{name}.environment: unexpected {other}"),
    };
    pairs
        .into_iter()
        .map(|(key, value)| (key, interpolate(&value, variables)))
        .collect()
}

/// Compose's `${NAME}`, `${NAME:?message}`, `${NAME:-default}` and `$$`.
pub fn interpolate(text: &str, variables: &[(&str, String)]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('$') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
        } else if let Some(body) = after.strip_prefix('{') {
            let end = body.find('}').expect("an unclosed ${ in compose.yaml");
            let expression = &body[..end];
            let name_end = expression.find([':', '?', '-']).unwrap_or(expression.len());
            let (name, modifier) = expression.split_at(name_end);
            let value = variables
                .iter()
                .find(|(known, _)| *known == name)
                .map(|(_, value)| value.clone());
            let default = modifier
                .strip_prefix(":-")
                .or_else(|| modifier.strip_prefix('-'));
            match (value, default) {
                (Some(value), _) => out.push_str(&value),
                (None, Some(default)) => out.push_str(default),
                (None, None) => {
                    panic!("compose.yaml reads ${{{name}}}, which the test does not set")
                }
            }
            rest = &body[end + 1..];
        } else {
            panic!("a bare $ in compose.yaml: write ${{NAME}} or $$");
        }
    }
    out.push_str(rest);
    out
}

/// Asserts that compose checks the health of service `name`.
fn assert_health_checked(name: &str, service: &Value) {
    assert!(
        service["healthcheck"]["test"].is_array(),
        "{name} has a health check"
    );
}

/// The `source` of the bind mount of `service` whose target ends in `.toml`, and the target.
pub fn config_mount(name: &str, service: &Value) -> (String, String) {
    let volumes = service["volumes"]
        .as_array()
        .unwrap_or_else(|| panic!("{name} mounts its configuration"));
    volumes
        .iter()
        .find_map(|volume| {
            let target = volume["target"].as_str()?;
            target.ends_with(".toml").then(|| {
                assert_eq!(
                    volume["read_only"],
                    Value::Bool(true),
                    "{name}: the configuration is mounted read-only"
                );
                (
                    files::text(volume, "/source", name).to_owned(),
                    target.to_owned(),
                )
            })
        })
        .unwrap_or_else(|| panic!("{name} mounts a .toml configuration (long syntax)"))
}

/// `server.trusted_proxies` as written in a TOML file (read without `Settings`, so this
/// check stands on the file alone).
pub fn trusted_proxies_in(toml: &str) -> Vec<String> {
    config::Config::builder()
        .add_source(config::File::from_str(toml, config::FileFormat::Toml))
        .build()
        .expect("the TOML parses")
        .get::<Vec<String>>("server.trusted_proxies")
        .expect("server.trusted_proxies is a list of strings")
}

/// An IPv4 network `a.b.c.d/n` (or a bare address, /32) as (address, prefix length).
fn ipv4_network(text: &str) -> (u32, u32) {
    let (address, prefix) = text.split_once('/').unwrap_or((text, "32"));
    let address: std::net::Ipv4Addr = address
        .parse()
        .unwrap_or_else(|_| panic!("{text}: not an IPv4 network"));
    let prefix: u32 = prefix.parse().expect("a prefix length");
    assert!(prefix <= 32, "{text}: prefix too long");
    (u32::from(address), prefix)
}

/// Is every address of `inner` in `outer`?
pub fn network_contains(outer: &str, inner: &str) -> bool {
    let (outer_address, outer_prefix) = ipv4_network(outer);
    let (inner_address, inner_prefix) = ipv4_network(inner);
    let mask = |prefix: u32| u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
    inner_prefix >= outer_prefix
        && inner_address & mask(outer_prefix) == outer_address & mask(outer_prefix)
}

fn depends_on_condition<'a>(service: &'a Value, on: &str) -> Option<&'a str> {
    service["depends_on"][on]["condition"].as_str()
}

#[test]
fn the_network_check_knows_which_subnets_contain_which() {
    assert!(network_contains("172.28.0.0/16", "172.28.0.0/24"));
    assert!(network_contains("172.28.0.0/24", "172.28.0.0/24"));
    assert!(!network_contains("172.28.0.0/24", "172.28.0.0/16"));
    assert!(!network_contains("172.28.0.0/24", "172.29.0.0/24"));
    assert!(network_contains("0.0.0.0/0", "10.1.2.3"));
}

#[test]
fn the_interpolation_follows_compose() {
    let variables = [("A", "x".to_owned())];
    assert_eq!(interpolate("p${A:?set A}q$$", &variables), "pxq$");
    assert_eq!(interpolate("${B:-d}", &variables), "d");
}

#[test]
fn two_instances_serve_after_the_migration_job_and_the_databases() {
    let compose = compose();
    let services = services(&compose);
    let instances = instances(&compose);
    assert!(
        instances.len() >= 2,
        "at least two instances: {:?}",
        instances.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );

    let (migrate_name, _) = our_services(&compose)
        .into_iter()
        .find(|(name, service)| argv(name, service).get(1).map(String::as_str) == Some("migrate"))
        .expect("a one-shot service runs `social-login migrate`");
    assert_eq!(
        depends_on_condition(&services[&migrate_name], "postgres"),
        Some("service_healthy")
    );
    for (name, service) in &instances {
        assert_eq!(
            depends_on_condition(service, &migrate_name),
            Some("service_completed_successfully"),
            "{name} starts only after the migrations succeeded"
        );
        for database in ["postgres", "redis"] {
            assert_eq!(
                depends_on_condition(service, database),
                Some("service_healthy"),
                "{name} waits for {database}"
            );
        }
        assert_health_checked(name, service);
    }
}

#[test]
fn postgresql_16_and_redis_7_run_with_health_checks() {
    let compose = compose();
    let services = services(&compose);
    for (name, image) in [("postgres", "postgres:16"), ("redis", "redis:7")] {
        let service = &services[name];
        let actual = files::text(service, "/image", name);
        assert!(
            actual == image
                || actual.starts_with(&format!("{image}."))
                || actual.starts_with(&format!("{image}-")),
            "{name} runs {image}, not {actual}"
        );
        assert_health_checked(name, service);
    }
}

#[test]
fn every_variable_compose_reads_is_required_and_says_how_to_set_it() {
    let text = files::read(FILE);
    let mut seen = 0;
    for (index, _) in text.match_indices("${") {
        let expression = &text[index + 2..];
        let expression = &expression[..expression.find('}').expect("closed ${")];
        let (name, message) = expression
            .split_once(":?")
            .unwrap_or_else(|| panic!("${{{expression}}}: write ${{NAME:?how to set it}}, so a missing secret stops compose instead of starting on an empty one"));
        assert!(
            !name.is_empty() && !message.trim().is_empty(),
            "${{{expression}}}"
        );
        seen += 1;
    }
    assert!(seen > 0, "secrets come from the environment");
    let compose = compose();
    for (name, service) in our_services(&compose) {
        let secret_key = files::text(&service, "/environment/SOCIAL_LOGIN__SECRET_KEY", &name);
        assert!(
            secret_key.starts_with("${SOCIAL_LOGIN_SECRET_KEY:?"),
            "{name}: secret_key comes from the operator's environment"
        );
    }
}

/// nginx.conf's `upstream` block, from its name to its closing brace.
fn upstream_block(conf: &str) -> &str {
    conf.split_once("upstream ")
        .and_then(|(_, rest)| rest.split_once('}'))
        .map(|(block, _)| block)
        .expect("nginx.conf has an upstream block")
}

/// Each instance's settings, as its mounted file and environment load them.
fn instance_settings(compose: &Value) -> Vec<(String, Value, Settings)> {
    let variables = operator_variables();
    instances(compose)
        .into_iter()
        .map(|(name, instance)| {
            let (source, _) = config_mount(&name, &instance);
            let env = environment(&name, &instance, &variables);
            let settings = Settings::from_toml_with_env(&files::read(&source), env)
                .unwrap_or_else(|errors| panic!("{name}: {source} does not load:\n{errors}"));
            (name, instance, settings)
        })
        .collect()
}

#[test]
fn nginx_balances_over_every_instance_and_appends_the_client_address() {
    let compose = compose();
    let nginx = &services(&compose)["nginx"];
    assert!(files::text(nginx, "/image", "nginx").starts_with("nginx:"));
    let mounted = nginx["volumes"]
        .as_array()
        .expect("nginx mounts its configuration")
        .iter()
        .any(|volume| {
            volume["source"] == "./nginx/nginx.conf" && volume["target"] == "/etc/nginx/nginx.conf"
        });
    assert!(mounted, "nginx runs deploy/nginx/nginx.conf");

    let conf = files::read("nginx/nginx.conf");
    let upstream = upstream_block(&conf);
    let upstream_name = upstream.split_whitespace().next().unwrap_or_default();
    assert!(
        conf.contains(&format!("proxy_pass http://{upstream_name};")),
        "nginx proxies to the upstream {upstream_name}"
    );
    let retried_on = conf
        .lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix("proxy_next_upstream "))
        .expect("nginx retries a failed connection on the other instance");
    assert!(
        !retried_on.contains("http_5"),
        "the service's 502 and 503 are answers to pass on, not instance failures: {retried_on}"
    );
    let mut upstream_servers: Vec<String> = upstream
        .lines()
        .map(str::trim)
        .filter_map(|line| line.strip_prefix("server "))
        .map(|rest| rest.split([' ', ';']).next().unwrap_or_default().to_owned())
        .collect();
    let mut expected: Vec<String> = instances(&compose)
        .into_iter()
        .map(|(name, _)| format!("{name}:8080"))
        .collect();
    upstream_servers.sort();
    expected.sort();
    assert_eq!(
        upstream_servers, expected,
        "the upstream is exactly the instances"
    );
    assert!(
        !conf.contains("ip_hash") && !conf.contains("least_conn") && !conf.contains("hash "),
        "round-robin: no instance is pinned to a client"
    );
    let forwarded = conf
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .any(|line| line == "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
    assert!(forwarded, "nginx appends the peer to X-Forwarded-For");
}

#[test]
fn the_instances_trust_exactly_the_networks_nginx_sends_from() {
    let compose = compose();
    let nginx = &services(&compose)["nginx"];
    let networks = files::strings(&nginx["networks"], "nginx.networks");
    assert!(!networks.is_empty(), "nginx is on a named network");
    let mut nginx_subnets = Vec::new();
    for network in &networks {
        let configs = compose["networks"][network]["ipam"]["config"]
            .as_array()
            .unwrap_or_else(|| panic!("network {network} has a fixed subnet (ipam.config)"));
        for config in configs {
            nginx_subnets.push(files::text(config, "/subnet", network).to_owned());
        }
    }
    for (name, service) in instances(&compose) {
        let (source, _) = config_mount(&name, &service);
        let trusted = trusted_proxies_in(&files::read(&source));
        for subnet in &nginx_subnets {
            assert!(
                trusted.iter().any(|entry| network_contains(entry, subnet)),
                "{name}: nginx's subnet {subnet} is in trusted_proxies {trusted:?}"
            );
        }
        let instance_networks = files::strings(&service["networks"], &name);
        assert!(
            networks
                .iter()
                .any(|network| instance_networks.contains(network)),
            "{name} shares a network with nginx"
        );
    }
}

#[test]
fn an_instance_stopping_has_time_to_finish_its_requests() {
    for (name, instance, settings) in instance_settings(&compose()) {
        let request_timeout = settings.http.request_timeout_seconds;
        let grace = files::text(&instance, "/stop_grace_period", &name);
        let grace: u64 = grace
            .strip_suffix('s')
            .and_then(|seconds| seconds.parse().ok())
            .unwrap_or_else(|| panic!("{name}: stop_grace_period in seconds: {grace}"));
        assert!(
            grace > request_timeout,
            "{name}: {grace} s of grace for requests of up to {request_timeout} s"
        );
    }
}

#[test]
fn nginx_lets_an_idle_connection_go_before_the_instances_do() {
    let compose = compose();
    let conf = files::read("nginx/nginx.conf");
    let upstream = upstream_block(&conf);
    let idle = upstream
        .lines()
        .find_map(|line| line.trim().strip_prefix("keepalive_timeout "))
        .and_then(|value| value.strip_suffix("s;"))
        .and_then(|seconds| seconds.parse::<u64>().ok())
        .expect("the upstream sets keepalive_timeout in seconds (nginx's default is 60 s)");
    for (name, _, settings) in instance_settings(&compose) {
        let closes_after = settings.http.header_read_timeout_seconds;
        assert!(
            idle < closes_after,
            "{name} closes idle connections after {closes_after} s, nginx keeps them {idle} s"
        );
    }
}

#[test]
fn nginx_logs_each_request_without_its_query() {
    // A relayed call's query may name people, and the Referer of a callback page on the
    // service's origin holds its code and state.
    let conf = files::read("nginx/nginx.conf");
    let logged: Vec<&str> = conf
        .lines()
        .filter_map(|line| line.trim().strip_prefix("access_log "))
        .filter(|rest| !rest.starts_with("off"))
        .collect();
    assert!(!logged.is_empty(), "nginx logs its requests");
    for log in logged {
        let format = log.trim_end_matches(';').split_whitespace().nth(1);
        let format = format.expect("a named format, not nginx's `combined`");
        let start = conf
            .find(&format!("log_format {format} "))
            .unwrap_or_else(|| panic!("log_format {format} is defined"));
        let definition = &conf[start..start + conf[start..].find(';').unwrap()];
        let variables: Vec<&str> = definition
            .split('$')
            .skip(1)
            .map(|rest| {
                rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .next()
                    .unwrap()
            })
            .collect();
        for query in [
            "request",
            "request_uri",
            "args",
            "query_string",
            "http_referer",
        ] {
            assert!(!variables.contains(&query), "${query} in {definition}");
        }
    }
}

#[test]
fn nginx_keeps_metrics_and_readiness_off_the_public_side() {
    let conf = files::read("nginx/nginx.conf");
    for path in ["metrics", "readyz"] {
        let closed = conf.split("location ").skip(1).any(|block| {
            let (pattern, body) = block.split_once('{').unwrap_or_default();
            let body = body.split('}').next().unwrap_or_default();
            pattern.contains(path) && (body.contains("return 404") || body.contains("deny all"))
        });
        assert!(
            closed,
            "nginx answers /{path} itself, never from an instance"
        );
    }
}
