//! Loading: which file (docs/api.md#command-line), then defaults < TOML file < environment, deserialized.

use super::env::EnvLayer;
use super::errors::from_config_error;
use super::{ConfigErrors, Settings};
use config::{Config, File, FileFormat};
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

/// Variable naming the configuration file when `--config` is not given.
pub const CONFIG_PATH_ENV: &str = "SOCIAL_LOGIN_CONFIG";
/// The file used when neither `--config` nor `SOCIAL_LOGIN_CONFIG` names one.
pub const DEFAULT_CONFIG_FILE: &str = "social-login.toml";

/// The configuration file to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigPath {
    /// Named by `--config` or `SOCIAL_LOGIN_CONFIG`: it must exist.
    Named(PathBuf),
    /// `./social-login.toml`: may be absent when the environment supplies every required field.
    Default(PathBuf),
}

impl ConfigPath {
    /// `--config`, else `SOCIAL_LOGIN_CONFIG` (when non-empty), else the default file.
    pub fn resolve(explicit: Option<&Path>, from_env: Option<OsString>) -> Self {
        match (explicit, from_env) {
            (Some(path), _) => Self::Named(path.to_owned()),
            (None, Some(path)) if !path.is_empty() => Self::Named(PathBuf::from(path)),
            _ => Self::Default(PathBuf::from(DEFAULT_CONFIG_FILE)),
        }
    }

    pub fn path(&self) -> &Path {
        match self {
            Self::Named(path) | Self::Default(path) => path,
        }
    }
}

impl Settings {
    /// Loads the configuration of the process: the file chosen by [`ConfigPath::resolve`]
    /// from `explicit` (`--config`) and the real environment. Does not validate.
    pub fn load(explicit: Option<&Path>) -> Result<Self, ConfigErrors> {
        Self::load_with_env(explicit, std::env::vars_os())
    }

    /// [`Settings::load`] with an explicit environment, so tests never touch the process's.
    pub fn load_with_env<K, V>(
        explicit: Option<&Path>,
        env: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, ConfigErrors>
    where
        K: Into<OsString>,
        V: Into<OsString>,
    {
        let mut from_env = None;
        let vars: Vec<(OsString, OsString)> = env
            .into_iter()
            .map(|(name, value)| (name.into(), value.into()))
            .inspect(|(name, value)| {
                if name == CONFIG_PATH_ENV {
                    from_env = Some(value.clone());
                }
            })
            .collect();
        Self::load_from(&ConfigPath::resolve(explicit, from_env), vars)
    }

    /// Loads `path` (see [`ConfigPath`] for when it may be missing) overlaid with `env`.
    pub fn load_from<K, V>(
        path: &ConfigPath,
        env: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, ConfigErrors>
    where
        K: Into<OsString>,
        V: Into<OsString>,
    {
        let env = EnvLayer::collect(env)?;
        let shown = path.path().display().to_string();
        let text = match (std::fs::read_to_string(path.path()), path) {
            (Ok(text), _) => Some(text),
            (Err(error), ConfigPath::Default(_)) if error.kind() == io::ErrorKind::NotFound => None,
            (Err(error), _) => {
                let reason = match error.kind() {
                    io::ErrorKind::NotFound => "not found".to_owned(),
                    _ => error.to_string(),
                };
                return Err(ConfigErrors::single(
                    "",
                    format!("configuration file {shown}: {reason}"),
                ));
            }
        };
        let missing_default = text.is_none();
        Self::build(text.as_deref(), &shown, env).map_err(|mut errors| {
            if missing_default {
                errors.push(
                    "",
                    format!(
                        "no configuration file: {shown} does not exist and {CONFIG_PATH_ENV} is not set"
                    ),
                );
            }
            errors
        })
    }

    /// Parses TOML text (no file system, no environment): for tests and embedded configs.
    pub fn from_toml(toml: &str) -> Result<Self, ConfigErrors> {
        Self::build(Some(toml), "configuration", EnvLayer::default())
    }

    /// [`Settings::from_toml`] overlaid with the `SOCIAL_LOGIN__…` variables of `env`.
    pub fn from_toml_with_env<K, V>(
        toml: &str,
        env: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, ConfigErrors>
    where
        K: Into<OsString>,
        V: Into<OsString>,
    {
        Self::build(Some(toml), "configuration", EnvLayer::collect(env)?)
    }

    fn build(toml: Option<&str>, file_name: &str, env: EnvLayer) -> Result<Self, ConfigErrors> {
        let mut builder = Config::builder();
        if let Some(toml) = toml {
            builder = builder.add_source(File::from_str(toml, FileFormat::Toml));
        }
        if !env.is_empty() {
            builder = builder.add_source(env);
        }
        let root = builder
            .build()
            .and_then(Config::try_deserialize::<config::Value>)
            .map_err(|error| ConfigErrors::from(from_config_error(&error, file_name)))?;
        super::salvage::deserialize(root, file_name)
    }
}
