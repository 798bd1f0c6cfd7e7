//! The id_token verifier and its key-set cache over real HTTP, against the key set the
//! simulated Google publishes; the tokens are crafted here with the simulator's fixture keys.

mod bench;
mod checks;
mod for_plan;
mod key_set;
mod properties;
