//! `deploy/Dockerfile`: read into stages, and the rules of the production image.

use crate::files;

/// One instruction, continuation lines joined: `USER` + `65532:65532`.
#[derive(Debug, Clone)]
pub struct Instruction {
    pub keyword: String,
    pub args: String,
}

/// A `FROM …` and the instructions up to the next one.
#[derive(Debug, Clone)]
pub struct Stage {
    pub from: String,
    pub instructions: Vec<Instruction>,
}

impl Stage {
    pub fn all(&self, keyword: &str) -> impl Iterator<Item = &str> {
        self.instructions
            .iter()
            .filter(move |instruction| instruction.keyword == keyword)
            .map(|instruction| instruction.args.as_str())
    }

    /// The one that takes effect: the last of its kind in the stage.
    pub fn last(&self, keyword: &str) -> Option<&str> {
        self.all(keyword).last()
    }
}

pub fn stages() -> Vec<Stage> {
    let mut stages: Vec<Stage> = Vec::new();
    for instruction in instructions(&files::read("Dockerfile")) {
        if instruction.keyword == "FROM" {
            stages.push(Stage {
                from: instruction.args,
                instructions: Vec::new(),
            });
        } else {
            stages
                .last_mut()
                .expect("the Dockerfile starts with FROM")
                .instructions
                .push(instruction);
        }
    }
    stages
}

/// The stage the image is made of.
pub fn runtime_stage() -> Stage {
    stages().pop().expect("the Dockerfile has a stage")
}

/// `["a", "b"]` (the exec form) as a list; the shell form is refused: the runtime image
/// has no shell.
pub fn exec_form(args: &str, context: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(args.trim())
        .unwrap_or_else(|error| panic!("{context}: not the exec form [\"…\"] ({error})"));
    files::strings(&value, context)
}

/// The runtime stage's `HEALTHCHECK … CMD [...]` command.
pub fn healthcheck_command() -> Vec<String> {
    let stage = runtime_stage();
    let args = stage
        .last("HEALTHCHECK")
        .expect("the runtime stage has a HEALTHCHECK");
    let (_options, command) = args
        .split_once("CMD ")
        .expect("HEALTHCHECK runs a command (CMD …)");
    exec_form(command, "HEALTHCHECK CMD")
}

/// What `docker run IMAGE` runs: ENTRYPOINT followed by CMD.
pub fn default_command() -> Vec<String> {
    let mut argv = entrypoint();
    let stage = runtime_stage();
    argv.extend(exec_form(
        stage.last("CMD").expect("the runtime stage has a CMD"),
        "CMD",
    ));
    argv
}

pub fn entrypoint() -> Vec<String> {
    let stage = runtime_stage();
    exec_form(
        stage
            .last("ENTRYPOINT")
            .expect("the runtime stage has an ENTRYPOINT"),
        "ENTRYPOINT",
    )
}

/// The `user` of the runtime stage's `USER user[:group]`.
pub fn runtime_user() -> String {
    let stage = runtime_stage();
    let user = stage.last("USER").expect("the runtime stage sets USER");
    user.split(':').next().unwrap_or_default().trim().to_owned()
}

fn instructions(text: &str) -> Vec<Instruction> {
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || (trimmed.is_empty() && current.is_empty()) {
            continue; // comments (and parser directives), blank lines between instructions
        }
        match trimmed.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(trimmed);
                joined.push(std::mem::take(&mut current));
            }
        }
    }
    joined
        .into_iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (keyword, args) = line
                .trim()
                .split_once(char::is_whitespace)
                .unwrap_or((&line, ""));
            Instruction {
                keyword: keyword.to_ascii_uppercase(),
                args: args.trim().to_owned(),
            }
        })
        .collect()
}

#[test]
fn the_runtime_stage_runs_as_a_user_that_is_not_root() {
    let user = runtime_user();
    assert!(!user.is_empty(), "USER names a user");
    assert_ne!(user, "root");
    assert_ne!(user.parse::<u32>().ok(), Some(0), "uid 0 is root");
}

#[test]
fn the_runtime_stage_checks_its_own_health_with_the_binary() {
    let command = healthcheck_command();
    assert_eq!(
        command.first(),
        entrypoint().first(),
        "the health check runs the service's own binary (the image has no curl)"
    );
    assert_eq!(command.get(1).map(String::as_str), Some("healthcheck"));
}

#[test]
fn the_image_is_built_without_the_demo_and_from_the_lock_file() {
    let stages = stages();
    let builds: Vec<&str> = stages
        .iter()
        .flat_map(|stage| stage.all("RUN"))
        .filter(|run| run.contains("cargo build"))
        .collect();
    assert_eq!(builds.len(), 1, "one cargo build: {builds:?}");
    for flag in [
        "--release",
        "--locked",
        "--no-default-features",
        "-p social-login",
    ] {
        assert!(
            builds[0].contains(flag),
            "the build uses {flag}: {}",
            builds[0]
        );
    }
    assert!(
        stages[0].from.starts_with("rust:1.95"),
        "built with the project's toolchain: {}",
        stages[0].from
    );
}

#[test]
fn the_runtime_stage_takes_the_built_binary_and_no_sources() {
    let stage = runtime_stage();
    assert!(stages().len() >= 2, "a builder stage and a runtime stage");
    assert!(
        !stage.from.starts_with("rust:"),
        "the runtime is not the toolchain image: {}",
        stage.from
    );
    let copies: Vec<&str> = stage.all("COPY").collect();
    assert!(
        copies.iter().all(|copy| copy.starts_with("--from=")),
        "the runtime copies only build results, never the source tree: {copies:?}"
    );
    assert!(
        copies
            .iter()
            .any(|copy| copy.ends_with(" /usr/local/bin/social-login")),
        "the binary is installed where ENTRYPOINT runs it: {copies:?}"
    );
    assert_eq!(stage.last("EXPOSE"), Some("8080"));
    assert_eq!(entrypoint(), ["/usr/local/bin/social-login"]);
}
