//! `deploy/k8s/`: every manifest well-formed and listed, and the Deployment's promises
//! (replicas, rolling update, non-root, probes, secrets by reference).

use crate::{dockerfile, files};
use serde_json::Value;
use std::path::PathBuf;

const DIR: &str = "k8s";

/// Every document of every manifest, with the file it came from.
pub fn documents() -> Vec<(String, Value)> {
    files::yaml_files()
        .into_iter()
        .filter(|file| file.starts_with(&format!("{DIR}/")))
        .flat_map(|file| {
            files::yaml_documents(&file)
                .into_iter()
                .map(move |document| (file.clone(), document))
        })
        .collect()
}

/// The one document of `kind`.
pub fn one(kind: &str) -> Value {
    let mut found: Vec<Value> = documents()
        .into_iter()
        .filter(|(_, document)| document["kind"] == kind)
        .map(|(_, document)| document)
        .collect();
    assert_eq!(found.len(), 1, "one {kind} in deploy/k8s");
    found.remove(0)
}

/// The one container of the Deployment's pod list `list` (`containers`, `initContainers`).
fn only(list: &str) -> Value {
    let deployment = one("Deployment");
    let containers = deployment["spec"]["template"]["spec"][list]
        .as_array()
        .unwrap_or_else(|| panic!("the Deployment has {list}"))
        .clone();
    assert_eq!(containers.len(), 1, "one of {list}");
    containers[0].clone()
}

fn container() -> Value {
    only("containers")
}

/// The Deployment's init container that migrates.
fn migrate_container() -> Value {
    only("initContainers")
}

/// `container`'s argv: `command` or the image's ENTRYPOINT, then `args` or its CMD.
fn argv(container: &Value) -> Vec<String> {
    let mut argv = match container.get("command") {
        Some(command) => files::strings(command, "container command"),
        None => dockerfile::entrypoint(),
    };
    match container.get("args") {
        Some(args) => argv.extend(files::strings(args, "container args")),
        None => argv.extend(dockerfile::default_command().into_iter().skip(1)),
    }
    argv
}

/// The argv of each container, the init container's included.
pub fn container_commands() -> Vec<(String, Vec<String>)> {
    vec![
        ("Kubernetes Deployment".to_owned(), argv(&container())),
        (
            "Kubernetes Deployment, init".to_owned(),
            argv(&migrate_container()),
        ),
    ]
}

/// Where the container finds the ConfigMap's file.
pub fn mounted_config_path() -> PathBuf {
    let container = container();
    let deployment = one("Deployment");
    let configmap = one("ConfigMap");
    let configmap_name = files::text(&configmap, "/metadata/name", "ConfigMap");
    let volume = deployment["spec"]["template"]["spec"]["volumes"]
        .as_array()
        .expect("the pod has volumes")
        .iter()
        .find(|volume| volume["configMap"]["name"] == configmap_name)
        .expect("a volume holds the ConfigMap")
        .clone();
    let volume_name = files::text(&volume, "/name", "volume");
    let mount = container["volumeMounts"]
        .as_array()
        .expect("the container mounts volumes")
        .iter()
        .find(|mount| mount["name"] == volume_name)
        .expect("the container mounts the ConfigMap")
        .clone();
    assert_eq!(
        mount["readOnly"],
        Value::Bool(true),
        "the configuration is read-only"
    );
    let keys: Vec<&String> = configmap["data"]
        .as_object()
        .expect("the ConfigMap has data")
        .keys()
        .collect();
    assert_eq!(keys.len(), 1, "the ConfigMap holds one file");
    PathBuf::from(files::text(&mount, "/mountPath", "mount")).join(keys[0])
}

/// The container's memory `of` (`limits` or `requests`), in MiB.
pub fn memory_mib(of: &str) -> u64 {
    let text = container()["resources"][of]["memory"]
        .as_str()
        .unwrap_or_else(|| panic!("a memory {of}"))
        .to_owned();
    match text.strip_suffix("Gi") {
        Some(gib) => gib.parse::<u64>().expect("whole GiB") * 1024,
        None => text
            .strip_suffix("Mi")
            .and_then(|mib| mib.parse().ok())
            .unwrap_or_else(|| panic!("memory in Mi or Gi: {text}")),
    }
}

/// The TOML file the ConfigMap ships.
pub fn configmap_toml() -> String {
    let configmap = one("ConfigMap");
    configmap["data"]
        .as_object()
        .and_then(|data| data.values().next())
        .and_then(Value::as_str)
        .expect("the ConfigMap holds the TOML file")
        .to_owned()
}

/// The container's environment.
pub struct ContainerEnv {
    /// (variable, value) written in the Deployment.
    pub literal: Vec<(String, String)>,
    /// (variable, key of the Secret) to be filled from the Secret.
    pub from_secret: Vec<(String, String)>,
}

pub fn container_env() -> ContainerEnv {
    let secret = one("Secret");
    let secret_name = files::text(&secret, "/metadata/name", "Secret");
    let mut literal = Vec::new();
    let mut from_secret = Vec::new();
    for variable in container()["env"]
        .as_array()
        .expect("the container has env")
    {
        let name = files::text(variable, "/name", "env").to_owned();
        if let Some(value) = variable.get("value") {
            literal.push((
                name,
                value.as_str().expect("env values are strings").to_owned(),
            ));
        } else {
            let reference = &variable["valueFrom"]["secretKeyRef"];
            assert_eq!(
                files::text(reference, "/name", &name),
                secret_name,
                "{name} comes from the Secret of deploy/k8s"
            );
            let key = files::text(reference, "/key", &name).to_owned();
            from_secret.push((name, key));
        }
    }
    ContainerEnv {
        literal,
        from_secret,
    }
}

/// The Secret's keys and the values it ships with.
pub fn secret_entries() -> Vec<(String, String)> {
    let secret = one("Secret");
    let data = secret["stringData"]
        .as_object()
        .expect("the Secret lists its keys in stringData");
    data.iter()
        .map(|(key, value)| (key.clone(), value.as_str().unwrap_or_default().to_owned()))
        .collect()
}

fn pod_labels() -> Value {
    one("Deployment")["spec"]["template"]["metadata"]["labels"].clone()
}

/// Does a `matchLabels` (or a Service's plain selector) pick the Deployment's pods?
fn selects_the_pods(selector: &Value) -> bool {
    let labels = pod_labels();
    selector.as_object().is_some_and(|wanted| {
        !wanted.is_empty() && wanted.iter().all(|(key, value)| &labels[key] == value)
    })
}

/// Every httpGet probe of the container: (which probe, path, port).
pub fn probes() -> Vec<(String, String, Value)> {
    let container = container();
    ["startupProbe", "livenessProbe", "readinessProbe"]
        .into_iter()
        .filter_map(|probe| {
            let get = container.get(probe)?.get("httpGet")?;
            Some((
                probe.to_owned(),
                files::text(get, "/path", probe).to_owned(),
                get["port"].clone(),
            ))
        })
        .collect()
}

#[test]
fn every_manifest_names_its_api_version_and_kind() {
    let documents = documents();
    assert!(
        documents.len() >= 7,
        "ConfigMap, Secret, Deployment, Service, PDB, HPA, kustomization"
    );
    for (file, document) in &documents {
        for field in ["apiVersion", "kind"] {
            assert!(
                document[field]
                    .as_str()
                    .is_some_and(|value| !value.is_empty()),
                "{file}: {field}"
            );
        }
        if document["kind"] != "Kustomization" {
            assert!(
                document["metadata"]["name"].is_string(),
                "{file}: metadata.name"
            );
        }
    }
}

#[test]
fn the_kustomization_lists_every_manifest_but_the_secret() {
    let kustomization = one("Kustomization");
    let mut listed = files::strings(&kustomization["resources"], "resources");
    // The Secret is created once by hand: applied with the rest, its empty values would
    // replace the filled ones on every `kubectl apply -k`.
    let secret = documents()
        .into_iter()
        .find(|(_, document)| document["kind"] == "Secret")
        .map(|(file, _)| file)
        .expect("deploy/k8s has the Secret's keys");
    let mut present: Vec<String> = files::yaml_files()
        .into_iter()
        .filter(|file| *file != secret)
        .filter_map(|file| file.strip_prefix(&format!("{DIR}/")).map(str::to_owned))
        .filter(|file| file != "kustomization.yaml")
        .collect();
    listed.sort();
    present.sort();
    assert_eq!(listed, present);
}

#[test]
fn the_deployment_keeps_two_pods_through_a_rolling_update() {
    let spec = one("Deployment")["spec"].clone();
    assert!(
        spec["replicas"].as_u64() >= Some(2),
        "at least two replicas"
    );
    assert_eq!(spec["strategy"]["type"], "RollingUpdate");
    assert_eq!(spec["strategy"]["rollingUpdate"]["maxUnavailable"], 0);
    assert!(selects_the_pods(&spec["selector"]["matchLabels"]));
}

#[test]
fn the_pods_run_as_the_images_non_root_user_on_a_read_only_root() {
    let pod = one("Deployment")["spec"]["template"]["spec"].clone();
    let container = container();
    let run_as_non_root = [&pod, &container]
        .iter()
        .any(|spec| spec["securityContext"]["runAsNonRoot"] == Value::Bool(true));
    assert!(run_as_non_root, "runAsNonRoot");
    let uid = container["securityContext"]["runAsUser"]
        .as_u64()
        .or(pod["securityContext"]["runAsUser"].as_u64())
        .expect("runAsUser is set");
    assert_ne!(uid, 0);
    assert_eq!(
        uid.to_string(),
        dockerfile::runtime_user(),
        "the image's USER"
    );
    let security = &container["securityContext"];
    assert_eq!(security["readOnlyRootFilesystem"], Value::Bool(true));
    assert_eq!(security["allowPrivilegeEscalation"], Value::Bool(false));
    assert_eq!(security["capabilities"]["drop"], serde_json::json!(["ALL"]));
}

#[test]
fn each_pod_migrates_in_an_init_container_before_serve_starts() {
    let (serve, migrate) = (container(), migrate_container());
    let subcommand = |container: &Value| {
        let argv = argv(container);
        let at = argv
            .iter()
            .position(|arg| arg == "migrate" || arg == "serve");
        at.map(|at| argv[at].clone())
    };
    assert_eq!(subcommand(&migrate).as_deref(), Some("migrate"));
    assert_eq!(subcommand(&serve).as_deref(), Some("serve"));
    for field in ["image", "env", "volumeMounts", "securityContext"] {
        assert_eq!(migrate[field], serve[field], "{field}: the same as serve's");
    }
    assert!(
        migrate.get("startupProbe").is_none(),
        "no probe cuts a long migration short"
    );
}

#[test]
fn the_container_asks_for_and_is_limited_in_resources() {
    let resources = container()["resources"].clone();
    assert!(
        resources["requests"]["cpu"].is_string(),
        "a CPU request (the HPA's base)"
    );
    assert!(resources["requests"]["memory"].is_string());
    assert!(resources["limits"]["memory"].is_string());
}

#[test]
fn readiness_is_readyz_and_liveness_is_healthz_on_the_served_port() {
    let probes = probes();
    let path_of = |name: &str| {
        probes
            .iter()
            .find(|(probe, _, _)| probe == name)
            .map(|(_, path, _)| path.as_str())
    };
    assert_eq!(path_of("readinessProbe"), Some("/readyz"));
    assert_eq!(path_of("livenessProbe"), Some("/healthz"));
    let ports = container()["ports"]
        .as_array()
        .expect("container ports")
        .clone();
    for (probe, _, port) in &probes {
        let served = ports.iter().any(|declared| {
            declared["containerPort"] == 8080
                && (&declared["name"] == port || &declared["containerPort"] == port)
        });
        assert!(served, "{probe} probes port 8080, where the service binds");
    }
}

#[test]
fn secrets_reach_the_pods_by_reference_and_ship_empty() {
    let ContainerEnv {
        literal,
        from_secret,
    } = container_env();
    let entries = secret_entries();
    assert!(
        from_secret
            .iter()
            .any(|(name, _)| name == "SOCIAL_LOGIN__SECRET_KEY"),
        "secret_key comes from the Secret"
    );
    for (name, key) in &from_secret {
        assert!(
            entries.iter().any(|(present, _)| present == key),
            "{name}: the Secret has a key {key}"
        );
    }
    for (key, value) in &entries {
        assert!(
            value.is_empty(),
            "the Secret ships {key} empty, never a usable value"
        );
    }
    for (name, _) in &literal {
        assert!(
            !name.contains("SECRET") && !name.contains("PASSWORD") && !name.ends_with("__URL"),
            "{name} is set in the clear in the Deployment"
        );
    }
}

#[test]
fn the_service_pdb_and_autoscaler_point_at_the_deployment() {
    let deployment = one("Deployment");
    let name = files::text(&deployment, "/metadata/name", "Deployment");

    let service = one("Service");
    assert!(
        selects_the_pods(&service["spec"]["selector"]),
        "the Service selects the pods"
    );
    let target = &service["spec"]["ports"][0]["targetPort"];
    assert!(
        target == "http" || target == 8080,
        "the Service sends to the served port"
    );

    let pdb = one("PodDisruptionBudget");
    assert_eq!(files::text(&pdb, "/apiVersion", "PDB"), "policy/v1");
    assert_eq!(pdb["spec"]["minAvailable"], 1);
    assert!(selects_the_pods(&pdb["spec"]["selector"]["matchLabels"]));

    let hpa = one("HorizontalPodAutoscaler");
    assert_eq!(files::text(&hpa, "/apiVersion", "HPA"), "autoscaling/v2");
    assert_eq!(hpa["spec"]["scaleTargetRef"]["kind"], "Deployment");
    assert_eq!(hpa["spec"]["scaleTargetRef"]["name"], name);
    assert!(
        hpa["spec"]["minReplicas"].as_u64() >= Some(2),
        "never below two pods"
    );
    let scales_on_cpu = hpa["spec"]["metrics"]
        .as_array()
        .expect("HPA metrics")
        .iter()
        .any(|metric| metric["resource"]["name"] == "cpu");
    assert!(scales_on_cpu, "the HPA scales on CPU");
}
