//! The configurations the deployment ships load and validate as `Settings`, with the
//! environment the deployment injects: every `SOCIAL_LOGIN__…` name it uses is a real field.

use crate::{compose, files, kubernetes};
use social_login::settings::{Settings, StateStoreBackend};

/// The test's stand-ins for the Secret's values, by Secret key.
fn secret_value(key: &str) -> String {
    match key {
        "secret_key" => files::generated_secret_key(),
        "database_url" => "postgres://social_login:s3cret-pw@postgres:5432/social_login".into(),
        "github_client_secret" => "deploy-test-github-client-secret".into(),
        other => panic!("the Secret gained a key {other}: give it a realistic test value here"),
    }
}

/// The environment the Deployment gives the container: its literal variables, and those
/// from the Secret with `value` of each Secret key.
fn container_env(value: impl Fn(&str) -> String) -> Vec<(String, String)> {
    let kubernetes::ContainerEnv {
        literal,
        from_secret,
    } = kubernetes::container_env();
    let mut env: Vec<(String, String)> = literal;
    env.extend(
        from_secret
            .iter()
            .map(|(name, key)| (name.clone(), value(key))),
    );
    env
}

/// What a multi-instance deployment needs, whatever the file says elsewhere.
fn assert_ready_for_several_instances(settings: &Settings, origin: &str) {
    assert_eq!(
        settings.server.bind, "0.0.0.0:8080",
        "{origin}: reachable from outside the container"
    );
    assert!(
        settings.database.url.starts_with("postgres://"),
        "{origin}: instances share PostgreSQL"
    );
    assert_eq!(
        settings.oauth_state_store.backend,
        StateStoreBackend::Redis,
        "{origin}: instances share the state store"
    );
}

#[test]
fn the_compose_configuration_loads_and_validates_with_the_compose_environment() {
    let compose = compose::compose();
    let variables = compose::operator_variables();
    let services = compose::our_services(&compose);
    assert!(!services.is_empty());
    for (name, service) in services {
        let (source, _) = compose::config_mount(&name, &service);
        let toml = files::read(&source);
        let env = compose::environment(&name, &service, &variables);
        let settings = Settings::from_toml_with_env(&toml, env.clone())
            .unwrap_or_else(|errors| panic!("compose {name}: {source} does not load:\n{errors}"));
        if let Err(errors) = settings.validate_for_this_build() {
            panic!("compose {name}: {source} is refused at start-up:\n{errors}");
        }
        assert_ready_for_several_instances(&settings, &format!("compose {name}"));
        // Every SOCIAL_LOGIN__ name is a field: loading denies unknown ones, and each value
        // given must be the one the service sees.
        let secret_key = env
            .iter()
            .find(|(variable, _)| variable == "SOCIAL_LOGIN__SECRET_KEY")
            .map(|(_, value)| value.clone())
            .expect("compose sets SOCIAL_LOGIN__SECRET_KEY");
        let (loaded, _) = settings.secret_keys();
        assert_eq!(
            loaded.expose(),
            secret_key,
            "compose {name}: the injected key is used"
        );
    }
}

#[test]
fn the_configmap_loads_and_validates_with_the_secret_filled_in() {
    let toml = kubernetes::configmap_toml();
    let env = container_env(secret_value);
    let settings = Settings::from_toml_with_env(&toml, env)
        .unwrap_or_else(|errors| panic!("the ConfigMap's configuration does not load:\n{errors}"));
    if let Err(errors) = settings.validate_for_this_build() {
        panic!("the ConfigMap's configuration is refused at start-up:\n{errors}");
    }
    assert_ready_for_several_instances(&settings, "ConfigMap");
    assert!(
        settings.database.url.contains("s3cret-pw"),
        "the database URL (with its password) comes from the Secret"
    );
}

#[test]
fn the_pods_password_hashes_fit_within_its_memory_limit() {
    let toml = kubernetes::configmap_toml();
    let settings = Settings::from_toml_with_env(&toml, container_env(secret_value)).unwrap();
    // Unset, the slots follow the CPUs the process sees: the node's, whatever the pod's.
    let slots = settings
        .http
        .max_concurrent_password_hashes
        .expect("the ConfigMap sets max_concurrent_password_hashes");
    let per_hash_mib = u64::from(social_login_security::password::OWASP_MEMORY_KIB) / 1024;
    let hashing = slots as u64 * per_hash_mib;
    // What the service holds besides: at most its memory request.
    let rest = kubernetes::memory_mib("requests");
    let limit = kubernetes::memory_mib("limits");
    assert!(
        hashing + rest <= limit,
        "{slots} hashes of {per_hash_mib} MiB and {rest} MiB besides exceed the {limit} MiB limit"
    );
}

#[test]
fn the_shipped_empty_secret_stops_the_service_from_starting() {
    let toml = kubernetes::configmap_toml();
    let shipped = kubernetes::secret_entries();
    let env = container_env(|key| {
        shipped
            .iter()
            .find(|(present, _)| present == key)
            .map(|(_, value)| value.clone())
            .unwrap_or_default()
    });
    let refused = Settings::from_toml_with_env(&toml, env)
        .and_then(|settings| settings.validate_for_this_build());
    let errors = refused.expect_err("an empty Secret must never start the service");
    assert!(
        errors.mentions("secret_key"),
        "the refusal names secret_key:\n{errors}"
    );
}

#[test]
fn no_shipped_configuration_holds_a_secret() {
    let compose = compose::compose();
    let mut files_to_check = vec![("ConfigMap".to_owned(), kubernetes::configmap_toml())];
    for (name, service) in compose::our_services(&compose) {
        let (source, _) = compose::config_mount(&name, &service);
        files_to_check.push((source.clone(), files::read(&source)));
    }
    for (origin, toml) in files_to_check {
        let errors = Settings::from_toml(&toml)
            .and_then(|settings| settings.validate())
            .expect_err("without the environment, a shipped file has no secret_key");
        assert!(errors.mentions("secret_key"), "{origin}: {errors}");
        let table = config::Config::builder()
            .add_source(config::File::from_str(&toml, config::FileFormat::Toml))
            .build()
            .expect("the TOML parses");
        for field in [
            "secret_key",
            "previous_secret_keys",
            "apple_private_key_pem",
            "oauth_providers.github.client_secret",
        ] {
            assert!(
                table.get_string(field).is_err() && table.get_array(field).is_err(),
                "{origin} sets {field}"
            );
        }
    }
}

#[test]
fn a_pod_or_unit_stopping_has_time_to_finish_its_requests() {
    let toml = kubernetes::configmap_toml();
    let settings = Settings::from_toml_with_env(&toml, container_env(secret_value)).unwrap();
    let request_timeout = settings.http.request_timeout_seconds;
    let deployment = kubernetes::one("Deployment");
    let pod_grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        .as_u64()
        .expect("the Deployment sets terminationGracePeriodSeconds");
    let delay = settings.server.shutdown_delay_seconds;
    assert!(
        delay > 0,
        "the pods stay unready a while before they stop accepting"
    );
    assert!(
        pod_grace > delay + request_timeout,
        "{pod_grace} s of grace for {delay} s unready and requests of up to {request_timeout} s"
    );
    // The unit runs with the defaults (no file of its own ships).
    let default_timeout = Settings::with_secret_key("x".repeat(64))
        .http
        .request_timeout_seconds;
    let unit_grace: u64 = files::read("social-login.service")
        .lines()
        .find_map(|line| line.strip_prefix("TimeoutStopSec="))
        .and_then(|seconds| seconds.parse().ok())
        .expect("the unit sets TimeoutStopSec in seconds");
    assert!(
        unit_grace > default_timeout,
        "{unit_grace} s of grace for requests of up to {default_timeout} s"
    );
}
