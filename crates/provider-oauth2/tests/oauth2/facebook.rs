//! Facebook's own behaviour: the pinned Graph version, appsecret_proof, Graph errors, and
//! emails it never vouches for.

mod graph;
mod identity;
mod support;
