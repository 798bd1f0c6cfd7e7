//! The deployment files of `deploy/` checked without docker or a cluster: every YAML file
//! parses, every command they run is one the CLI accepts, every configuration they ship
//! loads and validates the way the container would load it, every probe they point at is
//! answered 200 by the real server, and the image's health check works against it.

mod commands;
mod compose;
mod configs;
mod dockerfile;
mod files;
mod healthcheck;
mod kubernetes;
mod probes;
