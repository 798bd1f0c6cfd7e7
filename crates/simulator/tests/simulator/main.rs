//! The simulator over real HTTP, as a client sees it: what every provider does alike, one
//! table per scenario (`dialects`), then what each provider adds, one module each.

mod apple;
mod control;
mod dialects;
mod discord;
mod facebook;
mod github;
mod google;
mod linkedin;
mod microsoft;
mod mint;
mod provider_api;
mod sign_in_page;
mod standard;
mod support;
mod twitter;
